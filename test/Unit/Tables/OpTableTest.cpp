//===- OpTableTest.cpp - launchers and the timeline on a tiny trace -------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Analysis/Recompute.h"
#include "tl/Import/Importer.h"

#include "gtest/gtest.h"

using namespace tl;

// aten::add (under a checkpoint recompute frame) launches k1 [10,20] and
// k2 [20,25] (touching); a top-level hipLaunchKernel launches k3 [40,50].
static const char *TraceText = R"({"traceEvents": [
  {"ph": "X", "cat": "python_function", "name": "torch/utils/checkpoint.py(300): recompute_fn", "pid": 1, "tid": 1, "ts": 0.0, "dur": 9.0},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1.0, "dur": 5.0},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 2.0, "dur": 1.0, "args": {"correlation": 1}},
  {"ph": "s", "cat": "ac2g", "id": 1, "pid": 1, "tid": 1, "ts": 2.0},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 4.0, "dur": 1.0, "args": {"correlation": 2}},
  {"ph": "s", "cat": "ac2g", "id": 2, "pid": 1, "tid": 1, "ts": 4.0},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 12.0, "dur": 1.0, "args": {"correlation": 3}},
  {"ph": "s", "cat": "ac2g", "id": 3, "pid": 1, "tid": 1, "ts": 12.0},
  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<add>", "pid": 2, "tid": 0, "ts": 10.0, "dur": 10.0, "args": {"correlation": 1, "stream": 0}},
  {"ph": "f", "cat": "ac2g", "id": 1, "pid": 2, "tid": 0, "ts": 10.0, "bp": "e"},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 2, "tid": 0, "ts": 20.0, "dur": 5.0, "args": {"correlation": 2, "stream": 0}},
  {"ph": "f", "cat": "ac2g", "id": 2, "pid": 2, "tid": 0, "ts": 20.0, "bp": "e"},
  {"ph": "X", "cat": "kernel", "name": "k3", "pid": 2, "tid": 0, "ts": 40.0, "dur": 10.0, "args": {"correlation": 3, "stream": 0}},
  {"ph": "f", "cat": "ac2g", "id": 3, "pid": 2, "tid": 0, "ts": 40.0, "bp": "e"}
]})";

namespace {
struct Fixture : ::testing::Test {
  void SetUp() override {
    auto E = importTraceFromBuffer(TraceText, "unit.json");
    ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
    T = std::make_unique<Trace>(std::move(*E));
  }
  EventId byName(llvm::StringRef N) {
    for (EventId E = 0; E < T->size(); ++E)
      if (T->name(E) == N)
        return E;
    return NoEvent;
  }
  std::unique_ptr<Trace> T;
};
} // namespace

TEST_F(Fixture, Launchers) {
  AnalysisManager AM(*T);
  const OpTable &Ops = AM.get<OpTable>();
  ASSERT_EQ(Ops.launchers().size(), 2u);
  const LauncherRow &Add = Ops.launchers()[0];
  EXPECT_EQ(T->name(Add.Launcher), "aten::add");
  EXPECT_EQ(Ops.kernelsOf(Add).size(), 2u);
  EXPECT_EQ(Add.NumKernels, 2u);
  // [10,20] and [20,25] touch: one interval of 15.
  EXPECT_EQ(Add.DirectTimeUs, 15.0);
  // Registry miss -> first kernel "void at::native...elementwise..." .
  EXPECT_EQ(Ops.categoryName(Add), "elementwise");
  EXPECT_EQ(Ops.categoryOf(Add.Launcher), "elementwise");
  const LauncherRow &Rt = Ops.launchers()[1];
  EXPECT_EQ(T->name(Rt.Launcher), "hipLaunchKernel");
  EXPECT_EQ(Rt.DirectTimeUs, 10.0);
  EXPECT_EQ(Ops.launcherOf(byName("k3")), Rt.Launcher);
  EXPECT_EQ(Ops.launcherRow(byName("k2")), nullptr);
}

TEST_F(Fixture, TimelineAndRecomputeSplit) {
  AnalysisManager AM(*T);
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  // all = [10,25] + [40,50]: busy 25, total 40, idle 15.
  EXPECT_EQ(TL.busyTime(), 25.0);
  EXPECT_EQ(TL.totalTime(), 40.0);
  EXPECT_EQ(TL.idleTime(), 15.0);
  EXPECT_EQ(TL.end(), 50.0);
  const RecomputeMarks &RM = AM.get<RecomputeMarks>();
  EXPECT_TRUE(RM.isRecompute(byName("aten::add")));
  EXPECT_TRUE(RM.isRecompute(byName("k2")));
  EXPECT_FALSE(RM.isRecompute(byName("k3")));
  GpuTimeline Re(*T, std::vector<EventId>{byName("k2")});
  EXPECT_EQ(Re.totalTime(), 5.0);
  EXPECT_EQ(Re.percent(Re.computationTime()), 100.0);
}

TEST_F(Fixture, UniqueArgsByNumKernels) {
  // aten::add launched 2 kernels, hipLaunchKernel 1: without the option the
  // groups are keyed by signature only; with it num_kernels is a key too
  // (here each group already differs by name, so only the values change).
  AnalysisOptions O;
  O.GroupByNumKernels = true;
  AnalysisManager AM(*T, O);
  const OpTable &Ops = AM.get<OpTable>();
  EXPECT_TRUE(Ops.groupsByNumKernels());
  ASSERT_EQ(Ops.uniqueArgs().size(), 2u);
  EXPECT_EQ(Ops.uniqueArgs()[0].Name, "aten::add");
  EXPECT_EQ(Ops.uniqueArgs()[0].NumKernels, 2u);
  EXPECT_EQ(Ops.uniqueArgs()[1].NumKernels, 1u);
}
