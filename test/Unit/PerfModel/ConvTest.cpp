//===- ConvTest.cpp - convolution models vs reference rows ----------------===//
#include "TestUtil.h"

using namespace tl;
using namespace tl::test;

// h100/Falconsai_nsfw_image_detection__1016002_perf_report_csvs/CONV_fwd.csv
// row 1: x (4,3,224,224), w (768,3,16,16), stride 16 -> out (4,768,14,14).
// flops = 602112*2*768 = 924844032; bias is False although a bias tensor
// [768] is passed (len(Dims) == 9, §5.5 quirk). bytes = (602112 + 589824 +
// 602112)*2 = 3588096 -> 3.421875 MB; FLOPS/Byte 257.75342465753425.
TEST(Conv, FalconsaiPatchEmbed) {
  OpDesc Op = makeOp(
      "aten::convolution",
      "[[4, 3, 224, 224], [768, 3, 16, 16], [768], [], [], [], [], [], []]",
      "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'ScalarList', "
      "'ScalarList', 'ScalarList', 'Scalar', 'ScalarList', 'Scalar']",
      "[[150528, 50176, 224, 1], [768, 256, 16, 1], [1], [], [], [], [], [], []]",
      "['', '', '', '[16, 16]', '[0, 0]', '[1, 1]', 'False', '[0, 0]', '1']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "0.924844032");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "3.421875");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "257.75342465753425");
  EXPECT_EQ(M.ComputeSpec, "matrix_bf16");
  EXPECT_EQ(paramsText(R),
            "convNd=conv2d; input_shape=(4, 3, 224, 224); filter_shape=(768, "
            "3, 16, 16); dtype_input_weight=('c10::BFloat16', "
            "'c10::BFloat16'); input_stride=(150528, 50176, 224, 1); "
            "weight_stride=(768, 256, 16, 1); bias=False; stride=(16, 16); "
            "padding=(0, 0); dilation=(1, 1); transposed_conv=False; "
            "output_padding=(0, 0); groups=1");
}

// mi300/resnet_act_checkpoint_recompute_perf_report_csvs/CONV_bwd.csv row 1:
// x = out = (10,64,56,56) (3x3, pad 1), w (64,64,3,3). dX = 2007040*2*576 =
// 2312110080, dW = 36864*2*31360 = 2312110080 -> GFLOPS 4.62422016.
// bytes = 2*(2007040 + 36864 + 2007040)*2 = 16203776 -> 15.453125 MB.
// bias param is the list [] (quirk 5).
TEST(Conv, ResnetBackward) {
  OpDesc Op = makeOp(
      "aten::convolution_backward",
      "[[10, 64, 56, 56], [10, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], "
      "[], [], [], []]",
      "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'ScalarList', "
      "'ScalarList', 'ScalarList', 'ScalarList', 'Scalar', 'ScalarList', "
      "'Scalar', 'ScalarList']",
      "[[200704, 3136, 56, 1], [200704, 3136, 56, 1], [576, 9, 3, 1], [], [], "
      "[], [], [], [], [], []]",
      "['', '', '', '[0]', '[1, 1]', '[1, 1]', '[1, 1]', 'False', '[0, 0]', "
      "'1', '[True, True, False]']");
  PerfModelResult R = model(Op);
  EXPECT_EQ(R.Category, "CONV_bwd");
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "4.62422016");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "15.453125");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "285.37917087967645");
  EXPECT_EQ(paramsText(R),
            "convNd=conv2d; input_shape=(10, 64, 56, 56); filter_shape=(64, "
            "64, 3, 3); dtype_input_weight=('c10::BFloat16', "
            "'c10::BFloat16'); input_stride=(200704, 3136, 56, 1); "
            "weight_stride=(576, 9, 3, 1); bias=[]; stride=(1, 1); "
            "padding=(1, 1); dilation=(1, 1); transposed_conv=False; "
            "output_padding=(0, 0); groups=1");
}

// Same CSV, second row: 512 channels at 7x7. out (10,512,7,7) = 250880,
// w = 2359296. bytes = 2*(250880*2 + 2359296)*2 = 11444224 -> 10.9140625.
TEST(Conv, ResnetBackward512) {
  OpDesc Op = makeOp(
      "aten::convolution_backward",
      "[[10, 512, 7, 7], [10, 512, 7, 7], [512, 512, 3, 3], [], [], [], [], "
      "[], [], [], []]",
      "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'ScalarList', "
      "'ScalarList', 'ScalarList', 'ScalarList', 'Scalar', 'ScalarList', "
      "'Scalar', 'ScalarList']",
      "",
      "['', '', '', '[0]', '[1, 1]', '[1, 1]', '[1, 1]', 'False', '[0, 0]', "
      "'1', '[True, True, False]']");
  PerfMetrics M = fwdMetrics(model(Op));
  EXPECT_EQ(pyRepr(M.GFLOPS), "4.62422016");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "10.9140625");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "404.0658554044381");
}

// By hand: 1-D conv, x (1,2,10), w (4,2,3), stride "" (default 1), padding
// [1] repeated, 3 inputs -> bias True. out len = int((10+2-2-1)/1+1) = 10:
// out (1,4,10). flops = 40*2*6 + 40 = 520. bytes = (20 + 24 + 4 + 40)*4.
TEST(Conv, DefaultsAndBiasByHand) {
  OpDesc Op;
  Op.Name = "aten::convolution";
  Op.InputDims = {PyValue::intTuple({1, 2, 10}), PyValue::intTuple({4, 2, 3}),
                  PyValue::intTuple({4})};
  Op.InputTypes = {"float", "float", "float"};
  Op.ConcreteInputs = {"", "", "", "", "[1]", "", "False", "", "1"};
  PerfModelResult R = model(Op);
  EXPECT_EQ(R.Flops, 520);
  EXPECT_EQ(*R.Bytes, (20 + 24 + 4 + 40) * 4);
}

// By hand: stride 2 on 7 with k 3, pad 0: int((7-2-1)/2 + 1) = 3.
// Transposed: (3-1)*2 - 0 + 2 + 0 + 1 = 7.
TEST(Conv, OutputShapeArithmetic) {
  OpDesc Op;
  Op.Name = "aten::convolution";
  Op.InputDims = {PyValue::intTuple({1, 1, 7}), PyValue::intTuple({1, 1, 3})};
  Op.InputTypes = {"float", "float"};
  Op.ConcreteInputs = {"", "", "", "[2]", "[0]", "[1]", "False", "[0]", "1"};
  EXPECT_EQ(model(Op).Flops, 3 * 2 * 3);
  Op.InputDims[0] = PyValue::intTuple({1, 1, 3});
  Op.ConcreteInputs[6] = "True";
  // transposed flops = prod(x)*2*prod(w[1:]) = 3*2*3
  EXPECT_EQ(model(Op).Flops, 18);
  EXPECT_EQ(pyStr(model(Op).Params[1].second), "(1, 1, 3)");
}
