//===- CpuIdleTest.cpp - The cpu-idle pass's logic, linked directly -------===//
#include "RunPass.h"

#include "CpuIdle/CpuIdlePass.h"
#include "tl/Import/Importer.h"

#include "gtest/gtest.h"

using namespace tl;
using namespace tl::test;

namespace {

// Two 100 µs kernels at [0, 100] and [300, 400]: E2E 400 µs, one idle gap
// [100, 300] = 200 µs = 50 % (> 15 %). In the gap the host waits in
// cudaDeviceSynchronize over [50, 250] -> 150 µs of it, runs aten::add over
// [255, 275] -> 20 µs, and nothing the profiler saw for the other 30 µs:
// the dominant cause is host synchronization; the Python frame around them
// is no cause of its own. (Worked by hand; test/Passes/cpu-idle.test runs
// the same trace through tl-opt and the plugin.)
constexpr const char *SyncTrace = R"({"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1, "ts": 0, "dur": 5, "args": {}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 4, "args": {"correlation": 1}},
 {"ph": "X", "cat": "kernel", "name": "mul_kernel", "pid": 0, "tid": 7, "ts": 0, "dur": 100, "args": {"correlation": 1, "device": 0, "stream": 7}},
 {"ph": "X", "cat": "python_function", "name": "train.py(9): step", "pid": 1, "tid": 1, "ts": 40, "dur": 240, "args": {}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 1, "tid": 1, "ts": 50, "dur": 200, "args": {}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 255, "dur": 20, "args": {}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 260, "dur": 4, "args": {"correlation": 2}},
 {"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": 300, "dur": 100, "args": {"correlation": 2, "device": 0, "stream": 7}}]})";

Trace importOrDie(const char *Json) {
  auto T = importTraceFromBuffer(Json, "sync.json");
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return Trace();
  }
  return std::move(*T);
}

TEST(CpuIdlePass, HostSynchronizationGap) {
  Trace T = importOrDie(SyncTrace);
  std::vector<Finding> F = runPasses(registerCpuIdlePass, "cpu-idle", T);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Title,
            "GPU idle 50.0% of end-to-end time (host synchronization)");
  const Metric *Ms = findMetric(F[0], "idle_time_ms");
  ASSERT_TRUE(Ms);
  EXPECT_DOUBLE_EQ(std::get<double>(Ms->V), 0.2);
  const Metric *Pct = findMetric(F[0], "idle_time_percent");
  ASSERT_TRUE(Pct);
  EXPECT_DOUBLE_EQ(std::get<double>(Pct->V), 50.0);
  const Metric *Cause = findMetric(F[0], "dominant_cause");
  ASSERT_TRUE(Cause);
  EXPECT_EQ(std::get<std::string>(Cause->V), "host synchronization");
}

// 50 % idle stays under a 60 % threshold: no finding.
TEST(CpuIdlePass, ThresholdClosesTheGate) {
  Trace T = importOrDie(SyncTrace);
  EXPECT_TRUE(
      runPasses(registerCpuIdlePass, "cpu-idle{idle-pct=60}", T).empty());
}

// The pass writes no file: category_data/cpu_idle_metrics.json is handed
// over as a typed document (the report's category-metrics emitter writes
// it). Same trace: idle 200 of 400 µs = 50 %, flagged (> 15 %), total
// 0.4 ms, two kernels, neither under 10 µs.
TEST(CpuIdlePass, HandsItsMetricsOverTyped) {
  Trace T = importOrDie(SyncTrace);
  std::vector<PassResult> R = runPassResults(registerCpuIdlePass, "cpu-idle", T);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_TRUE(R[0].Artifacts.empty());
  ASSERT_EQ(R[0].Data.Metrics.size(), 1u);
  const CategoryMetrics &M = R[0].Data.Metrics[0];
  EXPECT_EQ(M.Key, "cpu_idle");
  EXPECT_EQ(M.Pass, "cpu-idle");
  ASSERT_TRUE(M.Doc);
  auto Member = [](const PyValue &V, llvm::StringRef K) -> const PyValue * {
    for (const auto &[Name, X] : V.items())
      if (Name == K)
        return &X;
    return nullptr;
  };
  const PyValue *Flagged = Member(*M.Doc, "idle_flagged");
  ASSERT_TRUE(Flagged);
  EXPECT_TRUE(Flagged->getBool());
  const PyValue *U = Member(*M.Doc, "gpu_utilization");
  ASSERT_TRUE(U);
  EXPECT_EQ(Member(*U, "idle_time_percent")->getFloat(), 50.0);
  EXPECT_EQ(Member(*U, "total_time_ms")->getFloat(), 0.4);
  const PyValue *K = Member(*M.Doc, "kernel_analysis");
  ASSERT_TRUE(K);
  EXPECT_EQ(Member(*K, "total_kernel_count")->getInt(), 2);
  EXPECT_EQ(Member(*K, "short_kernel_count")->getInt(), 0);
  // The finding's typed facts: its share of the window and kernel count.
  std::vector<Finding> F = collectFindings(R);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Facts.PercentOfTotal, 50.0);
  EXPECT_EQ(F[0].Facts.KernelCount, 2);
}

} // namespace
