//===- MoeTest.cpp - mixture-of-experts models (§D.5) ---------------------===//
#include "ExtTestUtil.h"

using namespace tl;
using namespace tl::test;

// The spec's vllm check (M 32, K = N 3072, E 32, topk 4, FP4 weights, bf16
// activations), through the CK-tile two-stage ops: E_act = 32*(1 - 0.875^32)
// = 31.55392521479414.
// up (gated): flops = 2*32*3072*3072*4*2 = 4831838208; bytes = 32*3072*2 +
// E_act*2*3072*3072*0.5 + 32*3072*4*2 = 298763238.17... -> 284.92282693... MB.
TEST(Moe, TwoStageUpMatchesSpecCheck) {
  OpDesc Op = makeOp("aiter::moe_cktile2stages_gemm1_ck",
                     "[[32, 3072], [32, 6144, 1536], [32, 4, 3072]]",
                     "['c10::BFloat16', 'FP4', 'c10::BFloat16']", "", "[]");
  PerfModelResult R = model(Op);
  EXPECT_EQ(R.Category, "MoE_unfused");
  EXPECT_EQ(R.ComputeSpec, "matrix_bf16");
  expectCells(R, "4.831838208", "284.9228269331473");
  EXPECT_EQ(paramsText(R), "num_tokens=32; hidden_dim=3072; inter_dim=3072; "
                           "num_experts=32; topk=4; gated=True; "
                           "input_dtype=c10::BFloat16; weight_dtype=FP4; "
                           "output_dtype=c10::BFloat16");
}

// down: flops = 2*32*3072*3072*4 = 2415919104; bytes = 32*3072*4*2 +
// E_act*3072*3072*0.5 + 32*3072*2 = 149873139.09... -> 142.93016346657365 MB.
TEST(Moe, TwoStageDownMatchesSpecCheck) {
  OpDesc Op = makeOp("aiter::moe_cktile2stages_gemm2_ck",
                     "[[32, 4, 3072], [32, 3072, 1536], [32, 3072]]",
                     "['c10::BFloat16', 'FP4', 'c10::BFloat16']", "", "[]");
  expectCells(model(Op), "2.415919104", "142.93016346657365");
}

// Fused 1-stage: M 4, K 64, N 32 (w2 (2, 64, 32), w1 (2, 64, 64) -> gated),
// E 2, topk 1 (C8): flops = 2*4*64*32*2 + 2*4*64*32 + 4*64*(2-1) = 32768 +
// 16384 + 256 = 49408; E_act = 2*(1 - 0.5^4) = 1.875; bytes = 4*64*2 +
// 1.875*32*64*2*2 + 1.875*32*64*2 + 4*64*2 = 512 + 15360 + 7680 + 512 = 24064.
TEST(Moe, FusedG1U1) {
  OpDesc Op = makeOp("aiter::fmoe_g1u1",
                     "[[4, 64], [4, 64], [2, 64, 64], [2, 64, 32], [4, 1], "
                     "[4, 1], [8], [1], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
                     "'c10::BFloat16', 'float', 'int', 'int', 'int', 'Int']",
                     "", "['', '', '', '', '', '', '', '', '1']");
  PerfModelResult R = expectModel(Op, 49408.0, 24064.0, "matrix_bf16");
  EXPECT_EQ(R.Category, "MoE_fused");
  // topk comes from Concrete Inputs[8]: none there is an error.
  Op.ConcreteInputs[8] = "";
  EXPECT_FALSE(!!buildPerfModel(Op));
  llvm::consumeError(buildPerfModel(Op).takeError());
}

// ck_moe_stage1: M 32, (E, K, N) = (8, 1024, 256), w1 rows 512 = 2N ->
// gated, topk 2 (D6[1]): flops = 2*32*1024*256*2*2 = 67108864; E_act =
// 8*(1 - 0.75^32) = 7.999196380594235; bytes = 32*1024*2 + E_act*2*1024*256
// + 32*256*2*2 = 65536 + 4193882.12... + 32768.
TEST(Moe, CkStage1) {
  OpDesc Op = makeOp("aiter::ck_moe_stage1",
                     "[[32, 1024], [8, 512, 1024], [8, 1024, 256], [], [], "
                     "[], [32, 2]]",
                     "['c10::BFloat16', 'c10::Float8_e4m3fnuz', "
                     "'c10::Float8_e4m3fnuz', '', '', '', 'int']",
                     "", "[]");
  PerfModelResult R = model(Op);
  EXPECT_DOUBLE_EQ(R.Flops, 67108864.0);
  ASSERT_TRUE(R.Bytes.has_value());
  EXPECT_NEAR(*R.Bytes, 65536 + 7.999196380594235 * 524288 + 32768, 1e-6);
}

// Routing: operands (4, 2) int, (4, 2) float, (8,) int: flops = 8 (the
// largest, first on ties: int -> no precision); bytes = 3*8*4 = 96.
TEST(Moe, AuxSorting) {
  OpDesc Op = makeOp("aiter::moe_sorting_fwd", "[[4, 2], [4, 2], [], [8]]",
                     "['int', 'float', '', 'int']", "", "[]");
  PerfModelResult R = expectModel(Op, 8.0, 96.0, "");
  EXPECT_EQ(R.Category, "MoE_aux");
}

// topk_softplus: gating (16, 8) bf16, topk 2: flops = 6*16*8 = 768; bytes =
// 16*8*2 + 4*8 + 8*16*2 = 544.
TEST(Moe, TopkSoftplus) {
  OpDesc Op = makeOp("aiter::topk_softplus", "[[16, 2], [16, 2], [16, 8]]",
                     "['float', 'int', 'c10::BFloat16']", "", "[]");
  expectModel(Op, 768.0, 544.0, "vector_bf16");
}

// SGLang triton fused_moe: (E, N, K) = (4, 64, 32), (tokens, topk) = (8, 2):
// m_work 16; flops = 2*16*64*32 = 65536; E_act = 4*(1 - 0.5^8) = 3.984375;
// bytes = 16*32*2 + 3.984375*64*32*1 + 16*64*2 = 1024 + 8160 + 2048 = 11232.
TEST(Moe, SglangTritonInvoke) {
  OpDesc Op = makeOp(
      "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
      "[[8, 32], [4, 64, 32], [16, 64], [], [], [], [], [], [8, 2]]",
      "['c10::BFloat16', 'c10::Float8_e4m3fn', 'c10::BFloat16', '', '', '', "
      "'', '', 'int']",
      "", "[]");
  expectModel(Op, 65536.0, 11232.0, "matrix_fp8");
}

// vLLM's GPT-OSS pseudo ops (§B.3 #2) on vllm_decode_full's shapes: the
// moe_forward input (32, 3072) and router logits (32, 32), topk 4 and gated
// from the pseudo op's args, FP4 weights from the mxfp4 kernel name; the
// reference's MoE_unfused_fwd rows (up 4.831838208 GFLOPS,
// 284.9228269331473 MB; down 2.415919104, 142.93016346657365), Compute
// Spec matrix_fp4, no output_dtype param.
static OpDesc vllmPseudo(const char *Name, bool Gated, const char *Kernel) {
  OpDesc Op = makeOp(Name, "[[32, 3072], [32, 32], [], []]",
                     "['c10::BFloat16', 'c10::BFloat16', '', '']", "",
                     "['', '', '', '']");
  Op.MoeTopK = 4;
  Op.MoeGated = Gated;
  Op.KernelNames = {Kernel};
  return Op;
}

TEST(Moe, VllmPseudoUpDown) {
  PerfModelResult Up = model(vllmPseudo(
      "pseudo_op::moe_triton_unfused_up", true,
      "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu"));
  EXPECT_EQ(Up.Category, "MoE_unfused");
  EXPECT_EQ(Up.ComputeSpec, "matrix_fp4");
  expectCells(Up, "4.831838208", "284.9228269331473");
  EXPECT_EQ(paramsText(Up), "num_tokens=32; hidden_dim=3072; inter_dim=3072; "
                            "num_experts=32; topk=4; gated=True; "
                            "input_dtype=c10::BFloat16; weight_dtype=FP4");
  PerfModelResult Down =
      model(vllmPseudo("pseudo_op::moe_triton_unfused_down", false,
                       "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1"));
  expectCells(Down, "2.415919104", "142.93016346657365");
}

// Without the args, or with a kernel name that names no FP4/FP8 weight,
// the reference's model raises (KeyError / ValueError): an error, not 0.
TEST(Moe, VllmPseudoNeedsArgsAndWeightDtype) {
  OpDesc NoArgs = vllmPseudo("pseudo_op::moe_triton_unfused_up", true,
                             "_matmul_ogs_mxfp4_swiglu");
  NoArgs.MoeTopK.reset();
  auto E = buildPerfModel(NoArgs);
  ASSERT_FALSE(static_cast<bool>(E));
  EXPECT_NE(llvm::toString(E.takeError()).find("'MoE topk'"),
            std::string::npos);
  OpDesc Bf16 = vllmPseudo("pseudo_op::moe_triton_unfused_down", false,
                           "_matmul_ogs_NNT_bf16xbf16xbf16");
  auto R = buildPerfModel(Bf16);
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_NE(llvm::toString(R.takeError()).find("no weight dtype"),
            std::string::npos);
}
