//===- ExtGemmTest.cpp - AITER / vLLM / SGLang GEMM models (§D.1) ---------===//
#include "ExtTestUtil.h"

using namespace tl;
using namespace tl::test;

// vllm_decode_full GEMM.csv, lm_head row (no bias): M 32, N 201088, K 2880.
// flops = 2*32*201088*2880 = 37064540160; bytes = 32*2880*2 (184320)
// + 201088*2880*2 (1158266880) + 32*201088*2 (12869632) = 1171320832
// -> 1117.05859375 MB.
TEST(ExtGemm, VllmUnquantizedNoBias) {
  OpDesc Op = makeOp("vllm::rocm_unquantized_gemm",
                     "[[32, 2880], [201088, 2880], []]",
                     "['c10::BFloat16', 'c10::BFloat16', '']", "", "[]",
                     {"Cijk_Alik_Bljk_BBS_BH_MT64x16x64"});
  PerfModelResult R = expectModel(Op, 37064540160.0, 1171320832.0,
                                  "matrix_bf16");
  expectCells(R, "37.06454016", "1117.05859375");
  EXPECT_EQ(paramsText(R),
            "M=32; N=201088; K=2880; bias=False; dtype_A_B=('c10::BFloat16', "
            "'c10::BFloat16', ''); B=1; transpose=(True, False)");
}

// Same table, N 5120 row (bias): flops = 2*32*5120*2880 + 32*5120 =
// 943718400 + 163840 = 943882240; bytes = 184320 + 29491200 + 327680
// + 5120*2 = 30013440 -> 28.623046875 MB.
TEST(ExtGemm, VllmUnquantizedBias) {
  OpDesc Op = makeOp("vllm::rocm_unquantized_gemm",
                     "[[32, 2880], [5120, 2880], [5120]]",
                     "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16']", "",
                     "[]");
  expectCells(expectModel(Op, 943882240.0, 30013440.0, "matrix_bf16"),
              "0.94388224", "28.623046875");
}

// sglang_prefilldecode GEMM.csv row 0: M 15360, N 24576, K 4096:
// flops = 2*15360*24576*4096 = 3092376453120; bytes = 15360*4096*2 +
// 24576*4096*2 + 15360*24576*2 = 1082130432 -> 1032.0 MB.
TEST(ExtGemm, AiterA16W16) {
  OpDesc Op = makeOp("aiter::gemm_a16w16",
                     "[[15360, 4096], [24576, 4096], [], [], []]",
                     "['c10::BFloat16', 'c10::BFloat16', '', '', '']", "",
                     "['', '', '', '', '']");
  PerfModelResult R =
      expectModel(Op, 3092376453120.0, 1082130432.0, "matrix_bf16");
  expectCells(R, "3092.37645312", "1032.0");
  EXPECT_EQ(paramsText(R),
            "B=1; M=15360; N=24576; K=4096; bias=False; "
            "dtype_A_B=('c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16')");
}

// FP4 x FP4: A (16, 64) packs K = 128; flops = 2*16*32*128 = 131072;
// bytes = 16*128*0.5 + 128*32*0.5 + 16*32*2 = 1024 + 2048 + 1024 = 4096.
TEST(ExtGemm, Afp4Wfp4) {
  OpDesc Op = makeOp("aiter::gemm_afp4wfp4_", "[[16, 64], [32, 64]]",
                     "['unsigned char', 'unsigned char']", "", "[]");
  PerfModelResult R = expectModel(Op, 131072.0, 4096.0, "matrix_fp4");
  EXPECT_EQ(paramsText(R), "B=1; M=16; N=32; K=128; bias=False; "
                           "dtype_A_B=('unsigned char', 'unsigned char', "
                           "'c10::bfloat16')");
}

// a4w4: K = 2*64 = 128; bytes = 16*64*1 + 32*64*1 + 16*ceil(128/32)*1 +
// 32*4*1 + 2*16*32 = 1024 + 2048 + 64 + 128 + 1024 = 4288.
TEST(ExtGemm, A4W4) {
  OpDesc Op = makeOp("aiter::gemm_a4w4",
                     "[[16, 64], [32, 64], [16, 4], [32, 4]]",
                     "['unsigned char', 'unsigned char', 'unsigned char', "
                     "'unsigned char']",
                     "[[64, 1], [64, 1], [4, 1], [4, 1]]", "[]");
  PerfModelResult R = expectModel(Op, 131072.0, 4288.0, "matrix_fp8");
  EXPECT_EQ(paramsText(R),
            "M=16; N=32; K=128; bias=False; stride_A=(64, 1); "
            "stride_B=(64, 1); dtype_A_B=('unsigned char', 'unsigned "
            "char'); dtype_scaleA=unsigned char; dtype_scaleB=unsigned char; "
            "B=1");
}

// Block-scale fp8: M 64, N 256, K 512, scales (64, 4) and (2, 4):
// flops = 2*64*256*512 = 16777216; bytes = 64*512 + 512*256 + 64*256*2 =
// 196608; block_k = ceil(512/4) = 128, block_n = ceil(256/2) = 128.
TEST(ExtGemm, A8W8BlockScale) {
  OpDesc Op = makeOp("aiter::gemm_a8w8_blockscale_ck",
                     "[[64, 512], [256, 512], [64, 4], [2, 4]]",
                     "['c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz', "
                     "'float', 'float']",
                     "", "[]");
  PerfModelResult R = expectModel(Op, 16777216.0, 196608.0, "matrix_fp8");
  EXPECT_EQ(paramsText(R),
            "B=1; M=64; N=256; K=512; bias=False; "
            "dtype_A_B=('c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz', "
            "'c10::bfloat16'); quant_scheme=a8w8_blockscale; "
            "quant_granularity=per_block; block_k=128; block_n=128; "
            "scale_dtype=float; output_shape=(64, 256); "
            "output_dtype=c10::bfloat16");
}

// Batched bf16 x fp4: B 4, M 8, N 16, K 64: flops = 4*2*8*16*64 = 65536;
// bytes = 4*(8*64*2 + 64*16*0.5 + 8*16*2) = 4*(1024 + 512 + 256) = 7168.
TEST(ExtGemm, BatchedA16Wfp4) {
  OpDesc Op = makeOp("aiter::batched_gemm_a16wfp4_",
                     "[[4, 8, 64], [4, 16, 32]]",
                     "['c10::BFloat16', 'unsigned char']", "", "[]");
  expectModel(Op, 65536.0, 7168.0, "matrix_fp4");
}

TEST(ExtGemm, MissingShapesAreErrors) {
  OpDesc Op = makeOp("aiter::gemm_a16w16", "[[15360, 4096]]",
                     "['c10::BFloat16']", "", "[]");
  auto R = buildPerfModel(Op);
  ASSERT_FALSE(!!R);
  EXPECT_FALSE(isNotImplemented(R.takeError()));
}
