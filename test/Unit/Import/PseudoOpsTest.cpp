//===- PseudoOpsTest.cpp - The MoE pseudo-op tree edit (§B.2 P1) ----------===//
#include "tl/IR/TraceStorage.h"
#include "tl/IR/Verifier.h"
#include "tl/Import/Importer.h"
#include "tl/Import/PseudoOps.h"

#include "gtest/gtest.h"

using namespace tl;

// moe_forward %0 > launch frame %1 > hipModuleLaunchKernel %2 > kernel %3.
static const char *const OneGemm = R"({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "vllm::moe_forward", "pid": 1,
   "tid": 1, "ts": 0, "dur": 100, "args": {"Input Dims": [[4, 64], [4, 8]],
   "Input type": ["c10::BFloat16", "c10::BFloat16"], "Sequence number": 7}},
  {"ph": "X", "cat": "python_function", "name": "<built-in function launch>",
   "pid": 1, "tid": 1, "ts": 10, "dur": 50},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipModuleLaunchKernel",
   "pid": 1, "tid": 1, "ts": 20, "dur": 10, "args": {"correlation": 5}},
  {"ph": "X", "cat": "kernel", "name": "_matmul_ogs_x_mxfp4_swiglu",
   "pid": 0, "tid": 0, "ts": 200, "dur": 9,
   "args": {"correlation": 5, "stream": 0}}]})";

TEST(PseudoOps, HalfSplice) {
  auto TOr = importTraceFromBuffer(OneGemm, "t.json");
  ASSERT_TRUE(bool(TOr)) << llvm::toString(TOr.takeError());
  Trace &T = *TOr;
  PseudoOpResult R = injectPseudoOps(T);
  EXPECT_EQ(R.Injected, 1u);
  EXPECT_EQ(R.MoeOps, 1u);
  // No TopK below the moe_forward: topk 4, with a warning.
  ASSERT_EQ(R.Warnings.size(), 1u);
  ASSERT_EQ(T.size(), 5u);
  EventId P = 4, Frame = T.byUid(1), Launch = T.byUid(2), K = T.byUid(3);
  EXPECT_EQ(T.uid(P), 4u);
  EXPECT_EQ(T.name(P), "pseudo_op::moe_triton_unfused_up");
  EXPECT_TRUE(T.isPseudoOp(P));
  EXPECT_FALSE(T.isPseudoOp(Launch));
  // The frame lists the pseudo op instead of the launch call; the launch
  // call is the pseudo op's child but keeps the frame as its parent.
  ASSERT_EQ(T.children(Frame).size(), 1u);
  EXPECT_EQ(T.children(Frame)[0], P);
  ASSERT_EQ(T.children(P).size(), 1u);
  EXPECT_EQ(T.children(P)[0], Launch);
  EXPECT_EQ(T.parent(P), Frame);
  EXPECT_EQ(T.parent(Launch), Frame);
  ASSERT_EQ(T.subtreeGpuEvents(P).size(), 1u);
  EXPECT_EQ(T.subtreeGpuEvents(P)[0], K);
  EXPECT_EQ(T.args(P).get("Sequence number").getInt(), 7);
  EXPECT_EQ(T.args(P).get("External id").getInt(), 5);
  EXPECT_EQ(T.args(P).get("MoE topk").getInt(), 4);
  EXPECT_TRUE(T.args(P).get("MoE GEMM gated").getBool());
  EXPECT_EQ(T.args(P).get("Input Dims").toJson(), "[[4,64],[4,8]]");
  EXPECT_FALSE(bool(verifyTrace(T)));
  // Without the pseudo-op mark the same tree breaks parent/child symmetry.
  T.storage().PseudoOps.clear();
  llvm::Error E = verifyTrace(T);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("child whose parent is another"),
            std::string::npos);
}

// A rocm_aiter_fused_moe op selects another extension: nothing injected.
TEST(PseudoOps, AiterFusedMoeTakesPrecedence) {
  std::string J = OneGemm;
  J.insert(J.rfind(']'),
           R"(, {"ph": "X", "cat": "cpu_op", "name": "vllm::rocm_aiter_fused_moe",
   "pid": 1, "tid": 1, "ts": 300, "dur": 5})");
  auto TOr = importTraceFromBuffer(J, "t.json");
  ASSERT_TRUE(bool(TOr)) << llvm::toString(TOr.takeError());
  EXPECT_EQ(injectPseudoOps(*TOr).Injected, 0u);
  EXPECT_EQ(TOr->size(), 5u);
}
