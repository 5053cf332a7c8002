//===- GemmTest.cpp - GEMM models vs spec examples and reference rows -----===//
#include "TestUtil.h"

using namespace tl;
using namespace tl::test;

// Spec §5.3 worked example and h100/Qwen_Qwen1.5-0.5B-Chat__1016005
// _perf_report_csvs/GEMM.csv row "aten::mm,1,8944,2816,1024,...":
// flops = 2*8944*2816*1024 = 51581550592; bytes = (8944*1024 + 1024*2816 +
// 8944*2816)*2 = 74457088 -> 71.0078125 MB; 51581550592/74457088 =
// 692.7688414567059.
TEST(Gemm, MmQwenRow) {
  OpDesc Op = makeOp("aten::mm", "[[8944, 1024], [1024, 2816]]",
                     "['c10::BFloat16', 'c10::BFloat16']",
                     "[[1024, 1], [1, 1024]]", "['', '']",
                     {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x"
                      "128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__"
                      "5x_cublas"});
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "51.581550592");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "71.0078125");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "692.7688414567059");
  EXPECT_EQ(M.ComputeSpec, "matrix_bf16");
  // sm90_xmma names carry no transpose: no key at all (§5.4).
  EXPECT_EQ(paramsText(R),
            "M=8944; N=2816; K=1024; bias=False; stride_A=(1024, 1); "
            "stride_B=(1, 1024); dtype_A_B=('c10::BFloat16', "
            "'c10::BFloat16'); B=1");
  EXPECT_FALSE(R.HasBwd);
  auto Bwd = computeMetrics(R, 10, true);
  ASSERT_FALSE(!!Bwd);
  EXPECT_TRUE(Bwd.errorIsA<NotImplementedError>());
  llvm::consumeError(Bwd.takeError());
}

// Spec §5.3: addmm M=8944,N=1024,K=1024: flops = 2*8944*1024*1024 +
// 8944*1024 = 18766086144; bytes = (8944*1024 + 1024*1024 + 8944*1024 +
// 1024)*2 = 38733824 -> 36.939453125 MB. Same row in Qwen GEMM.csv with
// FLOPS/Byte 484.4883413525089.
TEST(Gemm, AddmmQwenRow) {
  OpDesc Op = makeOp(
      "aten::addmm", "[[1024], [8944, 1024], [1024, 1024], [], []]",
      "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', "
      "'Scalar']",
      "[[1], [1024, 1], [1, 1024], [], []]", "['', '', '', '1', '1']");
  PerfMetrics M = fwdMetrics(model(Op));
  EXPECT_EQ(pyRepr(M.GFLOPS), "18.766086144");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "36.939453125");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "484.4883413525089");
}

// Qwen GEMM.csv, first aten::bmm row: B=1, M=32, N=559, K=1, fp32.
// flops = 2*32*559*1 = 35776 -> 3.5776e-05; bytes = (32 + 559 + 32*559)*4
// = 73916 -> 0.07049179077148438 MB; FLOPS/Byte 0.4840088749391201.
TEST(Gemm, BmmQwenRow) {
  OpDesc Op = makeOp("aten::bmm", "[[1, 32, 1], [1, 1, 559]]",
                     "['float', 'float']", "[[32, 1, 1], [559, 559, 1]]",
                     "['', '']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "3.5776e-05");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "0.07049179077148438");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "0.4840088749391201");
  EXPECT_EQ(M.ComputeSpec, "matrix_fp32");
  // bmm starts with B (quirk 10).
  EXPECT_EQ(paramsText(R),
            "B=1; M=32; N=559; K=1; bias=False; stride_A=(32, 1, 1); "
            "stride_B=(559, 559, 1); dtype_A_B=('float', 'float')");
}

// mi300/gaunernst_bert-small-uncased__1016001_perf_report_csvs/GEMM.csv,
// first row: aten::addmm M=141 N=512 K=512, Tensile kernel Cijk_Alik_Bljk
// -> transpose (True, False) after B. GFLOPS 0.0739968 (= (2*141*512*512 +
// 141*512)/1e9), MB 0.7763671875, FLOPS/Byte 90.89622641509433.
TEST(Gemm, AddmmTensileTranspose) {
  OpDesc Op = makeOp(
      "aten::addmm", "[[512], [141, 512], [512, 512], [], []]",
      "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', "
      "'Scalar']",
      "[[1], [512, 1], [1, 512], [], []]", "['', '', '', '1', '1']",
      {"Memset (Device)",
       "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT16x16x128_MI16x16x1"});
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "0.0739968");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "0.7763671875");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "90.89622641509433");
  EXPECT_EQ(paramsText(R),
            "M=141; N=512; K=512; bias=True; stride_A=(512, 1); "
            "stride_B=(1, 512); dtype_A_B=('c10::BFloat16', "
            "'c10::BFloat16'); B=1; transpose=(True, False)");
}

TEST(Gemm, TransposeParser) {
  EXPECT_EQ(pyRepr(*parseGemmTranspose("Cijk_Ailk_Bjlk_HHS_BH")),
            "(False, True)");
  EXPECT_EQ(pyRepr(*parseGemmTranspose("foo_Cijk_Axyz_Bxyz_S")), "(None, None)");
  EXPECT_EQ(pyRepr(*parseGemmTranspose("nvjet_tst_64x8_64x16_4x1_v_bz_bias_TNT")),
            "(True, False)");
  EXPECT_FALSE(parseGemmTranspose("sm90_xmma_gemm_bf16bf16").has_value());
}

TEST(Gemm, BadShapesAreErrors) {
  OpDesc Op = makeOp("aten::mm", "[[8944, 1024]]", "['float']", "", "['']");
  auto R = buildPerfModel(Op);
  ASSERT_FALSE(!!R);
  EXPECT_EQ(llvm::toString(R.takeError()), "Input Dims has no index 1");
}

// Worked by hand: baddbmm B=2, M=3, K=4, N=5 fp16: flops = 2*(2*3*5*4 +
// 3*5) = 270; bytes = 2*(3*4 + 4*5 + 3*5 + 5)*2 = 208.
TEST(Gemm, BaddbmmByHand) {
  OpDesc Op = makeOp("aten::baddbmm", "[[2, 3, 5], [2, 3, 4], [2, 4, 5], [], []]",
                     "['c10::Half', 'c10::Half', 'c10::Half', 'Scalar', 'Scalar']",
                     "", "['', '', '', '1', '1']");
  PerfModelResult R = model(Op);
  EXPECT_EQ(R.Flops, 270);
  EXPECT_EQ(*R.Bytes, 208);
  EXPECT_EQ(R.ComputeSpec, "matrix_fp16");
}

// torch_compile_triton/trace_perf_report_csvs/GEMM.csv row 1: aten::mm with
// 3 Input Dims (out tensor) is still mm (bias False); Tensile Cijk_Alik_Bljk
// -> transpose (True, False). flops = 2*32768*8192*2048 = 1099511627776;
// bytes = (32768*2048 + 2048*8192 + 32768*8192)*2 = 704643072 -> 672.0 MB.
TEST(Gemm, MmWithOutTensorTriton) {
  OpDesc Op = makeOp(
      "aten::mm", "[[32768, 2048], [2048, 8192], [32768, 8192]]",
      "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16']",
      "[[2048, 1], [1, 2048], [8192, 1]]", "['', '', '']",
      {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN"
       "_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0"});
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "1099.511627776");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "672.0");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "1560.3809523809523");
  EXPECT_EQ(paramsText(R),
            "M=32768; N=8192; K=2048; bias=False; stride_A=(2048, 1); "
            "stride_B=(1, 2048); dtype_A_B=('c10::BFloat16', "
            "'c10::BFloat16'); B=1; transpose=(True, False)");
}
