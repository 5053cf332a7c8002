//===- ElementwiseTest.cpp - unary/binary models vs reference rows --------===//
#include "TestUtil.h"

using namespace tl;
using namespace tl::test;

// h100/Qwen..._perf_report_csvs/BinaryElementwise.csv, bf16 aten::add row
// (also spec §5.7): flops 16*16*559*64 = 9158656; bytes 3*9158656*2 ->
// 52.40625 MB; FLOPS/Byte 1/6. The alpha Scalar [] gives no out dtype.
TEST(Elementwise, QwenAdd) {
  OpDesc Op = makeOp("aten::add",
                     "[[16, 16, 559, 64], [16, 16, 559, 64], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'Scalar']",
                     "[[572416, 64, 1024, 1], [572416, 35776, 64, 1], []]",
                     "['', '', '1']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "0.009158656");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "52.40625");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "0.16666666666666666");
  EXPECT_EQ(M.ComputeSpec, "vector_bf16");
  EXPECT_EQ(paramsText(R),
            "shape_in1=(16, 16, 559, 64); shape_in2=(16, 16, 559, 64); "
            "dtype_in1_in2_out=('c10::BFloat16', 'c10::BFloat16', None); "
            "stride_input1=(572416, 64, 1024, 1); stride_input2=(572416, "
            "35776, 64, 1); stride_output=None");
}

// mi300/resnet..._recompute_perf_report_csvs/BinaryElementwise.csv row 1:
// aten::add_ on two 'long int' scalars () -> 1 flop, 24 bytes,
// Compute Spec "" (long int has no precision).
TEST(Elementwise, ResnetLongAdd) {
  OpDesc Op = makeOp("aten::add_", "[[], [], []]",
                     "['long int', 'long int', 'Scalar']", "[[], [], []]",
                     "['', '', '1']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "1e-09");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "2.288818359375e-05");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "0.041666666666666664");
  EXPECT_EQ(M.ComputeSpec, "");
  EXPECT_EQ(paramsText(R),
            "shape_in1=(); shape_in2=(); dtype_in1_in2_out=('long int', "
            "'long int', None); stride_input1=(); stride_input2=(); "
            "stride_output=None");
}

// Qwen UnaryElementwise.csv aten::pow row: (16,559,1024) fp32, Dims[1] is
// [] so dtype_out is None: bytes = 9158656*4*2 -> 69.875 MB.
TEST(Elementwise, QwenPow) {
  OpDesc Op = makeOp("aten::pow", "[[16, 559, 1024], []]", "['float', 'Scalar']",
                     "[[572416, 1024, 1], []]", "['', '2']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "0.009158656");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "69.875");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "0.125");
  EXPECT_EQ(paramsText(R),
            "op_shape=(16, 559, 1024); dtype_in_out=('float', None); "
            "stride_input=(572416, 1024, 1); stride_output=None");
}

// resnet UnaryElementwise.csv row 1: aten::copy_ (128,) bf16 both sides:
// 128 flops, 512 bytes -> 1.28e-07 GFLOPS, 0.00048828125 MB, 0.25.
TEST(Elementwise, ResnetCopy) {
  OpDesc Op = makeOp("aten::copy_", "[[128], [128], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'Scalar']",
                     "[[1], [1], []]", "['', '', 'False']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "1.28e-07");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "0.00048828125");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "0.25");
  EXPECT_EQ(paramsText(R),
            "op_shape=(128,); dtype_in_out=('c10::BFloat16', "
            "'c10::BFloat16'); stride_input=(1,); stride_output=(1,)");
}

// By hand: broadcast (4,1,3) * (2,1) -> (4,2,3) = 24 flops; fp16 * Scalar
// rules: mul of a tensor and a Scalar () uses bpe1 for the output.
TEST(Elementwise, BroadcastByHand) {
  OpDesc Op;
  Op.Name = "aten::mul";
  Op.InputDims = {PyValue::intTuple({4, 1, 3}), PyValue::intTuple({2, 1})};
  Op.InputTypes = {"c10::Half", "float"};
  // The model indexes Input Strides like the reference: without them it
  // raises (the unified row keeps Kernel Time only).
  auto NoStrides = buildPerfModel(Op);
  EXPECT_FALSE(!!NoStrides);
  llvm::consumeError(NoStrides.takeError());
  Op.InputStrides = {PyValue::intTuple({3, 3, 1}), PyValue::intTuple({1, 1})};
  PerfModelResult R = model(Op);
  EXPECT_EQ(R.Flops, 24);
  // 12*2 + 2*4 + 24*max(2,4)
  EXPECT_EQ(*R.Bytes, 12 * 2 + 2 * 4 + 24 * 4);
  Op.InputDims[1] = PyValue::tuple({});
  Op.InputTypes[1] = "Scalar";
  R = model(Op);
  EXPECT_EQ(*R.Bytes, 12 * 2 + 1 * 4 + 12 * 2);
  Op.InputDims[1] = PyValue::intTuple({5});
  auto E = buildPerfModel(Op);
  EXPECT_FALSE(!!E);
  llvm::consumeError(E.takeError());
}

// By hand: replication_pad2d of (1,1,4,4) with [1, 2, 3, 0] -> last dim
// 4+1+2 = 7, previous 4+3+0 = 7: out (1,1,7,7); bytes (16 + 49)*4.
TEST(Elementwise, ReplicationPadByHand) {
  OpDesc Op;
  Op.Name = "aten::replication_pad2d";
  Op.InputDims = {PyValue::intTuple({1, 1, 4, 4}), PyValue::list({})};
  Op.InputTypes = {"float", "ScalarList"};
  Op.InputStrides = {PyValue::intTuple({16, 16, 4, 1}), PyValue::list({})};
  Op.ConcreteInputs = {"", "[1, 2, 3, 0]"};
  PerfModelResult R = model(Op);
  EXPECT_EQ(R.Flops, 49);
  EXPECT_EQ(*R.Bytes, (16 + 49) * 4);
}

// h100/facebook_timesformer-base-finetuned-k400__1016002_perf_report_csvs/
// UnaryElementwise.csv, aten::upsample_nearest1d row: (1,768,8) -> output
// size [128] -> (1,768,128): flops 98304; bytes (6144 + 98304)*2 = 208896
// -> 0.19921875 MB; FLOPS/Byte 98304/208896 = 0.47058823529411764.
TEST(Elementwise, TimesformerUpsample) {
  OpDesc Op = makeOp("aten::upsample_nearest1d", "[[1, 768, 8], [], []]",
                     "['c10::BFloat16', 'ScalarList', '']",
                     "[[6144, 1, 768], [], []]", "['', '[128]', '']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "9.8304e-05");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "0.19921875");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "0.47058823529411764");
  // Key order from the same trace's unified_perf_summary.csv perf_params.
  EXPECT_EQ(paramsText(R),
            "input_shape=(1, 768, 8); output_shape=(1, 768, 128); "
            "op_shape=(1, 768, 128); dtype_in_out=('c10::BFloat16', "
            "'c10::BFloat16'); stride_input=(6144, 1, 768); "
            "stride_output=None");
}
