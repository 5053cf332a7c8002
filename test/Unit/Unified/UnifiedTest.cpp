//===- UnifiedTest.cpp - unified_perf_summary / perf sheets, agent flavour -===//
//
// The agent-reference flavour (arch roofline, num_kernels key, call stacks)
// on the hand-made trace test/Analysis/Inputs/unified-small.json; the plain
// flavour is checked by test/Analysis/unified-small.test.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CallStack.h"
#include "tl/Analysis/PerfMetrics.h"
#include "tl/Analysis/PerfSheets.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Import/Importer.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

Trace load(llvm::StringRef Rel) {
  auto T = importTrace(std::string(TL_SOURCE_DIR) + "/" + Rel.str());
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return Trace();
  }
  return std::move(*T);
}

/// 100 TFLOP/s matrix_bf16, 1000 GB/s: round numbers for hand arithmetic.
AnalysisOptions agentOptions() {
  AnalysisOptions O;
  ArchSpec A;
  A.Name = "TEST";
  A.MemBwGBps = 1000;
  A.MaxTflops["matrix_bf16"] = 100;
  O.Arch = A;
  O.GroupByNumKernels = true;
  O.IncludeCallStack = true;
  return O;
}

const UnifiedPerfRow *findRow(const UnifiedPerfTable &U, llvm::StringRef N) {
  for (const UnifiedPerfRow &R : U.rows())
    if (llvm::StringRef(R.Name).starts_with(N))
      return &R;
  return nullptr;
}

TEST(Unified, GemmRowWithRoofline) {
  Trace T = load("test/Analysis/Inputs/unified-small.json");
  AnalysisManager AM(T, agentOptions());
  const auto &U = AM.get<UnifiedPerfTable>();
  ASSERT_EQ(U.rows().size(), 4u);
  const UnifiedPerfRow &R = U.rows()[0];
  EXPECT_EQ(R.Name, "aten::mm");
  EXPECT_EQ(R.Category, "GEMM");
  EXPECT_EQ(R.OperationCount, 2u);
  EXPECT_EQ(R.ExUid, 6u);
  EXPECT_EQ(R.Instances.size(), 2u);
  EXPECT_TRUE(R.HasPerfModel);
  // compute 4194304 / 100e12 s = 0.04194304 µs < memory 114688 / 1e12 s =
  // 0.114688 µs -> memory bound, roofline 0.114688 µs.
  ASSERT_TRUE(R.RooflineTimeUs);
  EXPECT_DOUBLE_EQ(*R.RooflineTimeUs, 0.114688);
  EXPECT_EQ(R.RooflineBound, "MEMORY_BOUND");
  // Pct Roofline per instance: 0.114688/20*100 = 0.57344 and
  // 0.114688/30*100 = 0.38229333..; mean 0.47786666..
  ASSERT_TRUE(R.PctRoofline.Mean);
  EXPECT_NEAR(*R.PctRoofline.Mean, (0.57344 + 0.114688 / 30 * 100) / 2,
              1e-12);
  EXPECT_DOUBLE_EQ(*R.PctRoofline.Max, 0.57344);
  ASSERT_TRUE(R.PerfParams);
  EXPECT_EQ(R.PerfParams->front().first, "M");
  EXPECT_EQ(R.PerfParams->front().second, "64");
  EXPECT_EQ(R.PerfParams->back().first, "transpose");
  EXPECT_EQ(R.PerfParams->back().second, "(True, False)");
  ASSERT_EQ(R.KernelDetails.size(), 1u);
  EXPECT_EQ(R.KernelDetails[0].Count, 2u);
  EXPECT_DOUBLE_EQ(R.KernelDetails[0].StdUs, 5.0); // population std
  // Call stack: python frames (trailing _0 stripped), the op, the kernel.
  // model.py(10) is a top-level script frame (no directory): the agent
  // references leave such frames out (train_ddp.py(184): <module> in
  // mi300/resnet), so there is no entry point either.
  EXPECT_EQ(R.EntryPoint, "Not found");
  EXPECT_EQ(R.CallStackFull,
            "['nn.Module: Linear', 'aten::mm', "
            "'nvjet_tst_128x64_64x8_1x1_v_bz_TNT']");
  ASSERT_EQ(R.ModuleChain.size(), 1u);
  EXPECT_NE(R.ModuleChain[0].find("Linear"), std::string::npos);
  // 50 of 110 µs of kernel time.
  EXPECT_DOUBLE_EQ(R.Percentage, 50.0 / 110.0 * 100);
}

TEST(Unified, SoleBackwardAndSynthetic) {
  Trace T = load("test/Analysis/Inputs/unified-small.json");
  AnalysisManager AM(T, agentOptions());
  const auto &U = AM.get<UnifiedPerfTable>();
  const UnifiedPerfRow *B = findRow(U, "ScaledDotProductFlashAttentionBackward0");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Category, "SDPA_bwd");
  EXPECT_TRUE(B->HasPerfModel);
  // flops_bwd = 5 * 2*2*16*16*8 = 40960.
  EXPECT_DOUBLE_EQ(*B->Gflops, 4.096e-05);
  EXPECT_EQ(B->EntryPoint, "Not found"); // autograd thread: no python
  const UnifiedPerfRow *S = findRow(U, "aten::mse_loss->");
  ASSERT_NE(S, nullptr);
  EXPECT_TRUE(S->IsSynthetic);
  EXPECT_FALSE(S->HasPerfModel);
  EXPECT_EQ(S->ExUid, 33u); // = number of traceEvents entries
  EXPECT_EQ(U.numSynthetic(), 1u);
  EXPECT_EQ(S->Category, "elementwise");
}

TEST(Unified, AgentColumns) {
  Trace T = load("test/Analysis/Inputs/unified-small.json");
  AnalysisManager AM(T, agentOptions());
  TextTable Tab = AM.get<UnifiedPerfTable>().toTable(true, true);
  int EP = Tab.column("entry_point"), CS = Tab.column("call_stack_full");
  int P = Tab.column("Percentage (%)");
  ASSERT_GE(EP, 0);
  EXPECT_EQ(CS, EP + 1);
  EXPECT_EQ(P, CS + 1);
  EXPECT_EQ(Tab.column("Roofline Bound"), Tab.column("Compute Spec") + 1);
  EXPECT_EQ(Tab.column("Roofline Time (µs)_first"),
            Tab.column("TFLOPS/s_max") + 1);
  EXPECT_EQ(Tab.column("num_kernels"), -1); // not a unified key

  const auto &Sheets = AM.get<PerfSheets>().sheets();
  ASSERT_FALSE(Sheets.empty());
  const TextTable &G = Sheets[0];
  EXPECT_EQ(G.Name, "GEMM");
  int NK = G.column("num_kernels");
  ASSERT_EQ(NK, G.column("param: transpose") + 1);
  EXPECT_EQ(G.Rows[0][NK], "1");
  int RB = G.column("Roofline Bound_first");
  ASSERT_EQ(RB, G.column("Roofline Time (µs)_first") + 1);
  EXPECT_EQ(G.Rows[0][RB], "MEMORY_BOUND");
  EXPECT_EQ(G.Rows[0][RB - 1], "0.114688");
}

// call_stack_full with several kernels: the common prefix, then one list
// per distinct tail.
TEST(CallStack, SeveralKernels) {
  const char *Json = R"({"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::foo", "pid": 1, "tid": 1, "ts": 10, "dur": 100, "args": {}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"correlation": 1}},
{"ph": "X", "cat": "cpu_op", "name": "aten::bar_1", "pid": 1, "tid": 1, "ts": 40, "dur": 30, "args": {}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 50, "dur": 5, "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 200, "dur": 5, "args": {"correlation": 1, "stream": 7}},
{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 300, "dur": 5, "args": {"correlation": 2, "stream": 7}},
{"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 1, "tid": 1, "ts": 20},
{"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 0, "tid": 7, "ts": 200, "bp": "e"},
{"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 2, "pid": 1, "tid": 1, "ts": 50},
{"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 2, "pid": 0, "tid": 7, "ts": 300, "bp": "e"}
]})";
  auto T = importTraceFromBuffer(Json, "inline.json");
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EventId Foo = T->byUid(0);
  EXPECT_EQ(callStackFull(*T, T->subtreeGpuEvents(Foo)),
            "['aten::foo', ['k1'], ['aten::bar', 'k2']]");
  EXPECT_EQ(callStackFull(*T, {}), "Not found");
  EXPECT_EQ(entryPoint("aten::foo", callStackFull(*T, {})), "Not found");
  // Subtree kernels follow children order, through every category.
  std::vector<EventId> K = subtreeKernels(*T, Foo);
  ASSERT_EQ(K.size(), 2u);
  EXPECT_EQ(T->name(K[0]), "k1");
}

// The frame rules read off the ten agent references: frames without a
// directory (`<string>(1): <module>`, `<built-in ...>`, top-level scripts)
// are left out, every `_<digits>` goes from host frame names (not from the
// kernel), and entry_point skips torch dispatch frames but takes the
// python implementation of an `ns::fn` op below it.
TEST(CallStack, ReferenceFrameRules) {
  const char *Json = R"({"traceEvents": [
{"ph": "X", "cat": "python_function", "name": "<string>(1): <module>", "pid": 1, "tid": 1, "ts": 1, "dur": 500, "args": {}},
{"ph": "X", "cat": "python_function", "name": "pkg/mod.py(5): _prepare_4d_mask", "pid": 1, "tid": 1, "ts": 2, "dur": 400, "args": {}},
{"ph": "X", "cat": "python_function", "name": "torch/utils/_device.py(100): __torch_function__", "pid": 1, "tid": 1, "ts": 3, "dur": 300, "args": {}},
{"ph": "X", "cat": "python_function", "name": "<built-in method foo of type object at 0x1>", "pid": 1, "tid": 1, "ts": 4, "dur": 200, "args": {}},
{"ph": "X", "cat": "cpu_op", "name": "ns::foo_2", "pid": 1, "tid": 1, "ts": 10, "dur": 100, "args": {}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "k_1x4", "pid": 0, "tid": 7, "ts": 200, "dur": 5, "args": {"correlation": 1, "stream": 7}},
{"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 1, "tid": 1, "ts": 20},
{"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 1, "pid": 0, "tid": 7, "ts": 200, "bp": "e"},
{"ph": "X", "cat": "cpu_op", "name": "vllm::moe", "pid": 1, "tid": 1, "ts": 600, "dur": 100, "args": {}},
{"ph": "X", "cat": "python_function", "name": "vllm/layer.py(7): moe", "pid": 1, "tid": 1, "ts": 610, "dur": 80, "args": {}},
{"ph": "X", "cat": "python_function", "name": "vllm/quant.py(9): apply", "pid": 1, "tid": 1, "ts": 620, "dur": 60, "args": {}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 630, "dur": 5, "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "moe_k", "pid": 0, "tid": 7, "ts": 700, "dur": 5, "args": {"correlation": 2, "stream": 7}},
{"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 2, "pid": 1, "tid": 1, "ts": 630},
{"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 2, "pid": 0, "tid": 7, "ts": 700, "bp": "e"}
]})";
  auto T = importTraceFromBuffer(Json, "inline.json");
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_TRUE(isStackPythonFrame("nn.Module: Linear_0"));
  EXPECT_FALSE(isStackPythonFrame("train_ddp.py(184): <module>"));
  EXPECT_TRUE(isEntryWrapperFrame("torch/_ops.py(1244): __call__"));
  EXPECT_FALSE(isEntryWrapperFrame("torch/nn/modules/linear.py(124): forward"));
  EventId Foo = NoEvent, Moe = NoEvent, K1 = NoEvent, K2 = NoEvent;
  for (EventId E = 0, N = T->size(); E < N; ++E) {
    llvm::StringRef Name = T->name(E);
    if (Name == "ns::foo_2")
      Foo = E;
    else if (Name == "vllm::moe")
      Moe = E;
    else if (Name == "k_1x4")
      K1 = E;
    else if (Name == "moe_k")
      K2 = E;
  }
  ASSERT_NE(Foo, NoEvent);
  ASSERT_NE(Moe, NoEvent);
  EXPECT_EQ(callStackFull(*T, {K1}),
            "['pkg/mod.py(5): _prepared_mask', "
            "'torch/utils/_device.py(100): __torch_function__', 'ns::foo', "
            "'k_1x4']");
  // ns::foo_2's frame is 'ns::foo' (trailing _2 dropped to find it); the
  // __torch_function__ frame above it is a wrapper.
  EXPECT_EQ(entryPoint("ns::foo_2", callStackFull(*T, {K1})),
            "pkg/mod.py(5): _prepared_mask");
  EXPECT_EQ(entryPoint("vllm::moe", callStackFull(*T, {K2})),
            "vllm/layer.py(7): moe");
  EXPECT_EQ(entryPoint("vllm::moe", "Not found"), "Not found");
  EXPECT_EQ(entryPoint("aten::mm", "['a/b.py(1): f', 'aten::bmm', 'k']"),
            "Not found");
  EXPECT_EQ(kernelOnlyStack(*T, K2), "['moe_k']");
}

// The reference's entry_point rule on call stacks written by hand
// (tracelens-inference §A.6). xdit_sd_3.5's aten::copy_ under a peft
// wrapper: `wrapper` is a wrapper function, so the dynamo frame above it
// is the entry point (the reference's value); dynamo frames are not
// skipped.
TEST(CallStack, EntryPointReferenceRule) {
  EXPECT_EQ(entryPoint("aten::copy_",
                       "['m/run.py(9): main', "
                       "'torch/_dynamo/eval_frame.py(1039): _fn', "
                       "'diffusers/utils/peft_utils.py(292): wrapper', "
                       "'nn.Module: Linear', "
                       "'torch/nn/modules/module.py(1773): _call_impl', "
                       "'aten::copy_', 'k']"),
            "torch/_dynamo/eval_frame.py(1039): _fn");
  // Inward: the local name is a case-insensitive substring of the
  // function part (after the last '): '), searched in the flattened tails.
  EXPECT_EQ(entryPoint("vllm::Moe_Forward",
                       "['a/x.py(1): f', 'vllm::Moe_Forward', "
                       "['b/y.py(2): g', 'k1'], "
                       "['l/layer.py(3): moe_forward_impl', 'k2']]"),
            "l/layer.py(3): moe_forward_impl");
  // The last frame equal to the name counts; frames without '.py' and
  // pybind11 / triton backend frames are skipped outward.
  EXPECT_EQ(entryPoint("aten::mm",
                       "['p/q.py(4): h', 'aten::mm', "
                       "'pybind11_builtins.py(1): x', "
                       "'triton/backends/amd/driver.py(634): __call__', "
                       "'aten::mm', 'k']"),
            "p/q.py(4): h");
  EXPECT_EQ(entryPoint("aten::mm", "not a literal"), "Not found");
}

} // namespace
