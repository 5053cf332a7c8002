//===- NormReduceTest.cpp - normalization/reduce models vs reference ------===//
#include "TestUtil.h"

using namespace tl;
using namespace tl::test;

namespace {
struct Row {
  const char *Name, *Dims, *Types, *Concrete;
  const char *GFLOPS, *MB, *FPB, *Params;
};
} // namespace

static void checkRow(const Row &R, const char *Strides = "") {
  SCOPED_TRACE(R.Name);
  PerfModelResult M = model(makeOp(R.Name, R.Dims, R.Types, Strides, R.Concrete));
  PerfMetrics X = fwdMetrics(M);
  EXPECT_EQ(pyRepr(X.GFLOPS), R.GFLOPS);
  EXPECT_EQ(pyRepr(X.DataMovedMB), R.MB);
  EXPECT_EQ(pyRepr(X.FlopsPerByte), R.FPB);
  if (R.Params) {
    EXPECT_EQ(paramsText(M), R.Params);
  }
}

// h100/gaunernst_bert-small-uncased__1016001_perf_report_csvs/
// Normalization.csv row 1 (spec §5.8 example): n = 72192, c = 512:
// flops = 3*512 + 3n + 3*512 + 2n = 364032; bytes = 2n*2 + 6*512*2 = 294912.
TEST(Norm, BertLayerNorm) {
  checkRow({"aten::layer_norm", "[[1, 141, 512], [], [512], [512], [], []]",
            "['c10::BFloat16', 'ScalarList', 'c10::BFloat16', "
            "'c10::BFloat16', 'Scalar', 'Scalar']",
            "['', '[512]', '', '', '9.9999999999999998e-13', 'True']",
            "0.000364032", "0.28125", "1.234375",
            "op_shape=(1, 141, 512); dtype_in_out=('c10::BFloat16', None); "
            "stride_input=(72192, 512, 1); stride_output=None; "
            "num_channels=512; has_bias=True; is_affine=True; "
            "is_training=True"},
           "[[72192, 512, 1], [], [1], [1], [], []]");
}

// mi300/resnet_act_checkpoint_recompute_perf_report_csvs/Normalization.csv:
// aten::batch_norm (10,64,56,56): n = 2007040, flops = 384 + 5n =
// 10035584; bytes = 2n*2 + 6*64*2 = 8028928 -> 7.656982421875 MB.
TEST(Norm, ResnetBatchNorm) {
  checkRow({"aten::batch_norm",
            "[[10, 64, 56, 56], [64], [64], [64], [64], [], [], [], []]",
            "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
            "'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar', 'Scalar', "
            "'Scalar']",
            "['', '', '', '', '', 'True', '0.10000000000000001', "
            "'1.0000000000000001e-05', 'True']",
            "0.010035584", "7.656982421875", "1.2499282594139591", nullptr});
}

// Same CSV, row 1: aten::native_batch_norm_backward (10,64,112,112), train
// True, mask [True]: flops = 64*(4*125440 + 5*125440) = 72253440; bytes =
// 2n + 4n + 4*64*2... = 6n + 512 = 48169472 -> 45.93798828125 MB.
TEST(Norm, ResnetBatchNormBackward) {
  checkRow({"aten::native_batch_norm_backward",
            "[[10, 64, 112, 112], [10, 64, 112, 112], [64], [64], [64], [64], "
            "[64], [], [], []]",
            "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
            "'c10::BFloat16', 'c10::BFloat16', 'float', 'float', 'Scalar', "
            "'Scalar', 'ScalarList']",
            "['', '', '', '', '', '', '', 'True', '1.0000000000000001e-05', "
            "'[True, True, True]']",
            "0.07225344", "45.93798828125", "1.4999840562919187",
            "op_shape=(10, 64, 112, 112); dtype_in_out=('c10::BFloat16', "
            "None); stride_input=(802816, 12544, 112, 1); stride_output=None; "
            "num_channels=64; has_bias=True; is_affine=True; "
            "is_training=True; output_mask=[True]"},
           "[[802816, 12544, 112, 1], [802816, 12544, 112, 1], [1], [1], [1], "
           "[1], [1], [], [], []]");
}

// perf_model/normalization/normalization_layer_test_perf_report_csvs/
// Normalization.csv, one row per op (n = 8*16*32*32 = 131072, fp32).
TEST(Norm, NormalizationLayerTest) {
  const Row Rows[] = {
      // c = 16/4 = 4.0 (float): flops = 4.0*(4*32768 + 5*32768) = 1179648;
      // bytes = 12n + 16c = 1572928.
      {"aten::native_group_norm_backward",
       "[[8, 16, 32, 32], [8, 16, 32, 32], [8, 4], [8, 4], [16], [], [], [], "
       "[], []]",
       "['float', 'float', 'float', 'float', 'float', 'Scalar', 'Scalar', "
       "'Scalar', 'Scalar', 'ScalarList']",
       "['', '', '', '', '', '8', '16', '1024', '4', '[True, True, True]']",
       "0.001179648", "1.50006103515625", "0.749969483663588",
       "op_shape=(8, 16, 32, 32); dtype_in_out=('float', None); "
       "stride_input=None; stride_output=None; num_channels=4.0; "
       "has_bias=True; is_affine=True; is_training=True; "
       "output_mask=[True, True, True]"},
      // training False, mask [True]: flops = 16*(3 + 4*8192) = 524336.
      {"aten::miopen_batch_norm_backward",
       "[[8, 16, 32, 32], [8, 16, 32, 32], [16], [16], [16], [16], [16], []]",
       "['float', 'float', 'float', 'float', 'float', 'float', 'float', "
       "'Scalar']",
       "['', '', '', '', '', '', '', '1.0000000000000001e-05']",
       "0.000524336", "1.00006103515625", "0.5000152578577968", nullptr},
      // c = 1024, mask [T, T]: flops = n + n + 6n + (n + n) = 10n.
      {"aten::_fused_rms_norm_backward",
       "[[8, 16, 32, 32], [8, 16, 32, 32], [], [8, 16, 1, 1], [32, 32], []]",
       "['float', 'float', 'ScalarList', 'float', 'float', 'ScalarList']",
       "['', '', '[32, 32]', '', '', '[True, True]']", "0.00131072",
       "1.5078125", "0.8290155440414507", nullptr},
      // flops = (n/c)*(2c+2) + 2n = 524544; bytes = 2n*4 + c*4.
      {"aten::_fused_rms_norm", "[[8, 16, 32, 32], [], [32, 32], []]",
       "['float', 'ScalarList', 'float', '']", "['', '[32, 32]', '', '']",
       "0.000524544", "1.00390625", "0.4982976653696498", nullptr},
      // c = 16384, mask [T,T,T]: flops = 16384*72; bytes = 12n + 16c.
      {"aten::native_layer_norm_backward",
       "[[8, 16, 32, 32], [8, 16, 32, 32], [], [8, 1, 1, 1], [8, 1, 1, 1], "
       "[16, 32, 32], [16, 32, 32], []]",
       "['float', 'float', 'ScalarList', 'float', 'float', 'float', 'float', "
       "'ScalarList']",
       "['', '', '[16, 32, 32]', '', '', '', '', '[True, True, True]']",
       "0.001179648", "1.75", "0.6428571428571429", nullptr},
      // instance_norm: is_training = bool('True').
      {"aten::instance_norm",
       "[[8, 16, 32, 32], [16], [16], [], [], [], [], [], []]",
       "['float', 'float', 'float', '', '', 'Scalar', 'Scalar', 'Scalar', "
       "'Scalar']",
       "['', '', '', '', '', 'True', '0.10000000000000001', "
       "'1.0000000000000001e-05', 'True']",
       "0.000655456", "1.0003662109375", "0.624862721171446", nullptr},
      {"aten::native_group_norm",
       "[[8, 16, 32, 32], [16], [16], [], [], [], [], []]",
       "['float', 'float', 'float', 'Scalar', 'Scalar', 'Scalar', 'Scalar', "
       "'Scalar']",
       "['', '', '', '8', '16', '1024', '4', '1.0000000000000001e-05']",
       "0.000655456", "1.0003662109375", "0.624862721171446", nullptr},
  };
  for (const Row &R : Rows)
    checkRow(R);
}

// Quirk 7: bool("False") is True.
TEST(Norm, TrainingStringQuirk) {
  OpDesc Op = makeOp("aten::batch_norm",
                     "[[2, 4, 8], [4], [4], [4], [4], [], [], [], []]",
                     "['float', 'float', 'float', 'float', 'float', 'Scalar', "
                     "'Scalar', 'Scalar', 'Scalar']",
                     "", "['', '', '', '', '', 'False', '0.1', '1e-05', 'True']");
  PerfModelResult M = model(Op);
  EXPECT_EQ(pyStr(M.Params[7].second), "True");
  auto E = buildPerfModel(makeOp("aten::instance_norm_backward", "[[1], [1]]",
                                 "['float', 'float']", "", "['', '']"));
  ASSERT_FALSE(!!E);
  EXPECT_TRUE(E.errorIsA<NotImplementedError>());
  llvm::consumeError(E.takeError());
}

// h100/Qwen..._perf_report_csvs/Reduce_fwd.csv (spec §5.9 example):
// aten::mean fp32 over 9158656 elements: bytes = (9158656 + 1)*4 ->
// 34.937503814697266 MB (num_output_elems is 1, quirk 6).
TEST(Reduce, QwenMean) {
  checkRow({"aten::mean", "[[16, 559, 1024], [], [], []]",
            "['float', 'ScalarList', 'Scalar', '']", "['', '[-1]', 'True', '']",
            "0.009158656", "34.937503814697266", "0.24999997270342147",
            "num_input_elems=9158656; num_output_elems=1; "
            "dtype_in_out=('float', None); reduce_type=mean"});
}

// mi300/resnet..._recompute_perf_report_csvs/Reduce_fwd.csv row 1: aten::sum
// (10,1000) bf16: (10000 + 1)*2 = 20002 bytes.
TEST(Reduce, ResnetSum) {
  checkRow({"aten::sum", "[[10, 1000], [], [], []]",
            "['c10::BFloat16', 'ScalarList', 'Scalar', '']",
            "['', '[0]', 'True', '']", "1e-05", "0.019075393676757812",
            "0.49995000499950004", nullptr});
  // cumsum keeps the input size: bytes = 2 * 10 * 4.
  PerfModelResult M = model(makeOp("aten::cumsum", "[[10], []]",
                                   "['float', 'Scalar']", "", "['', '0']"));
  EXPECT_EQ(*M.Bytes, 80);
  EXPECT_EQ(pyStr(M.Params[3].second), "sum");
}
