//===- RmsNormTest.cpp - AITER / vLLM RMSNorm models (§D.3) ---------------===//
#include "ExtTestUtil.h"

using namespace tl;
using namespace tl::test;

// vllm_decode_full RMSNorm_fwd.csv: aiter::rms_norm (32, 2880), n = 92160:
// flops = 32*(2*2880 + 2) + 2n = 184384 + 184320 = 368704; bytes = 2n*2 +
// 2880*2 = 374400 -> 0.3570556640625 MB.
TEST(RmsNorm, AiterRmsNorm) {
  OpDesc Op = makeOp("aiter::rms_norm", "[[32, 2880], [2880], [], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Int']",
                     "[[2880, 1], [1], [], []]", "['', '', '1e-05', '0']");
  PerfModelResult R = expectModel(Op, 368704.0, 374400.0, "vector_bf16");
  expectCells(R, "0.000368704", "0.3570556640625");
  EXPECT_EQ(paramsText(R),
            "op_shape=(32, 2880); dtype_in_out=('c10::BFloat16', None); "
            "stride_input=(2880, 1); stride_output=None; num_channels=2880; "
            "has_bias=False; is_affine=True; is_training=False");
}

// Same table, aiter::rmsnorm2d_fwd_with_add_ck (x = D1, c = D4[0]):
// flops = n + 368704 = 460864; bytes = 4n*2 + 2880*2 = 743040.
TEST(RmsNorm, WithAdd) {
  OpDesc Op = makeOp("aiter::rmsnorm2d_fwd_with_add_ck",
                     "[[32, 2880], [32, 2880], [32, 2880], [32, 2880], "
                     "[2880], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
                     "'c10::BFloat16', 'c10::BFloat16', 'Scalar']",
                     "[[2880, 1], [3072, 1], [2880, 1], [2880, 1], [1], []]",
                     "['', '', '', '', '', '1e-05']");
  PerfModelResult R = expectModel(Op, 460864.0, 743040.0, "vector_bf16");
  expectCells(R, "0.000460864", "0.7086181640625");
  EXPECT_EQ(R.Params[2].second.elems()[0].getInt(), 3072); // stride of D1
}

// sglang aiter::rmsnorm (out, x (491520, 128), weight (128)): n = 62914560,
// flops = 491520*258 + 2n = 252641280; bytes = 2n*2 + 128*2 = 251658496 ->
// 240.000244140625 MB.
TEST(RmsNorm, SglangRmsnorm) {
  OpDesc Op = makeOp("aiter::rmsnorm",
                     "[[491520, 128], [491520, 128], [128], [], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
                     "'Double', 'Int']",
                     "", "['', '', '', '1e-06', '0']");
  expectCells(expectModel(Op, 252641280.0, 251658496.0, "vector_bf16"),
              "0.25264128", "240.000244140625");
}

// rmsnorm_quant, x (4, 256), group size 128: n = 1024, M = 4; flops =
// 4*514 + 2048 + 2048 = 6152; bytes = 1024*2 + 256*2 + 1024 + 4*4*2 = 3616.
TEST(RmsNorm, GroupQuant) {
  OpDesc Op = makeOp("aiter::rmsnorm_quant",
                     "[[4, 256], [4, 256], [4, 2], [256], [], []]",
                     "['c10::Float8_e4m3fnuz', 'c10::BFloat16', 'float', "
                     "'c10::BFloat16', 'Double', 'Int']",
                     "", "['', '', '', '', '1e-06', '128']");
  expectModel(Op, 6152.0, 3616.0, "vector_bf16");
  // A non-positive group size means one group per row: 4*4*1 = 16 B.
  Op.ConcreteInputs[5] = "0";
  expectModel(Op, 6152.0, 3600.0, "vector_bf16");
}

TEST(RmsNorm, UnknownDtypeIsAnError) {
  OpDesc Op = makeOp("aiter::rms_norm", "[[32, 2880], [2880]]",
                     "['bool', 'bool']", "", "[]");
  EXPECT_FALSE(!!buildPerfModel(Op));
  llvm::consumeError(buildPerfModel(Op).takeError());
}
