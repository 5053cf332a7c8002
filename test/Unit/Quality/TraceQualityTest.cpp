//===- TraceQualityTest.cpp - Gate, pipeline choice and JSON via the AM ---===//

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/QualityReport.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/Import/Importer.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace tl;

namespace {

Trace importOrDie(llvm::StringRef Json) {
  auto T = importTraceFromBuffer(Json, "test.json");
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return Trace();
  }
  return std::move(*T);
}

// Two kernels launched by runtime calls, no cpu_op: a GPU-only trace.
constexpr llvm::StringLiteral GpuOnly = R"({"traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10.0, "dur": 5.0, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 20.0, "dur": 800.0, "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 30.0, "dur": 5.0, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 900.0, "dur": 800.0, "args": {"correlation": 2}}
]})";

} // namespace

TEST(TraceQuality, ThroughAnalysisManager) {
  Trace T = importOrDie(GpuOnly);
  AnalysisManager AM(T);
  const TraceQuality &Q = AM.get<TraceQuality>();
  EXPECT_EQ(Q.verdict(), QualityVerdict::GpuOnly);
  EXPECT_TRUE(Q.has("gpu-only"));
  EXPECT_FALSE(Q.has("short-window")); // span 20..1700 = 1680 µs
  EXPECT_EQ(Q.counts().GpuEvents, 2u);
  EXPECT_DOUBLE_EQ(Q.counts().GpuTime, 1600.0);
  EXPECT_EQ(&Q, &AM.get<TraceQuality>()); // computed once
  EXPECT_EQ(AM.get<WorkloadInfo>().title(), "Workload");
}

TEST(TraceQuality, ChoosePipeline) {
  Trace T = importOrDie(GpuOnly);
  TraceQuality Q(T);
  // Each pass says what it needs; the gate never looks at names.
  std::vector<GateRequest> Req = {
      {"cpu-idle", {Capability::GpuTimeline}},
      {"gemm", {Capability::OpAttribution}},
      {"my-plugin-pass", {Capability::OpAttribution, Capability::GpuTimeline}},
      {"multi-kernel", {Capability::GpuTimeline}}};
  PipelineChoice C = choosePipeline(Req, Q);
  EXPECT_EQ(C.Run, (std::vector<std::string>{"cpu-idle", "multi-kernel"}));
  EXPECT_EQ(C.Skipped, (std::vector<std::string>{"gemm", "my-plugin-pass"}));
  EXPECT_TRUE(C.Fallback);
  EXPECT_EQ(C.Mode,
            "fallback (gpu-only): GPU timeline, kernel tables, cpu-idle, "
            "multi-kernel");
  // Nothing requested: nothing skipped, no fallback.
  PipelineChoice Empty = choosePipeline({}, Q);
  EXPECT_FALSE(Empty.Fallback);
  EXPECT_EQ(Empty.Mode, "full");
}

TEST(TraceQuality, JsonIsWellFormed) {
  Trace T = importOrDie(GpuOnly);
  TraceQuality Q(T);
  WorkloadInfo W(T);
  std::vector<GateRequest> Req = {{"gemm", {Capability::OpAttribution}}};
  PipelineChoice C = choosePipeline(Req, Q);
  std::string S;
  llvm::raw_string_ostream OS(S);
  {
    llvm::json::OStream J(OS);
    J.object([&] { writeQualityJson(Q, W, J, &C); });
  }
  auto V = llvm::json::parse(S);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *O = V->getAsObject();
  ASSERT_TRUE(O);
  const llvm::json::Object *TQ = O->getObject("trace_quality");
  ASSERT_TRUE(TQ);
  EXPECT_EQ(TQ->getString("verdict"), "gpu-only");
  EXPECT_EQ(TQ->getObject("pipeline")->getArray("skipped")->size(), 1u);
  EXPECT_EQ(O->getObject("workload")->getString("title"), "Workload");
}

// Precision reads the GEMM op above each kernel however deep it sits; the
// walk keeps its answer along long chains (deep traces), which must not
// change the result. Kernel times: k1 30 and k2 30 under a bf16 aten::mm
// (20 and 13 host levels up), k3 10 under a float aten::mm, k4 7 under
// no GEMM: bf16 60 / 70 = 85.7 %, fp32 10 / 70 = 14.3 %.
TEST(WorkloadInfo, PrecisionThroughDeepNesting) {
  std::string J = R"({"traceEvents": [)";
  auto Op = [&](llvm::StringRef Name, double Ts, double Dur,
                llvm::StringRef Type) {
    J += "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + Name.str() +
         "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(Ts) +
         ", \"dur\": " + std::to_string(Dur) + ", \"args\": {\"Input type\": [\"" +
         Type.str() + "\", \"" + Type.str() + "\"]}},\n";
  };
  auto Launch = [&](int Corr, double Ts, double KTs, double KDur) {
    J += "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
         "\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": " +
         std::to_string(Ts) + ", \"dur\": 0.5, \"args\": {\"correlation\": " +
         std::to_string(Corr) + "}},\n";
    J += "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k" +
         std::to_string(Corr) + "\", \"pid\": 0, \"tid\": 7, \"ts\": " +
         std::to_string(KTs) + ", \"dur\": " + std::to_string(KDur) +
         ", \"args\": {\"correlation\": " + std::to_string(Corr) + "}},\n";
  };
  // op i spans [100 + i, 1100 - i]: op 0 is the bf16 GEMM.
  Op("aten::mm", 100, 1000, "c10::BFloat16");
  for (int I = 1; I < 20; ++I)
    Op("aten::add", 100 + I, 1000 - 2 * I, "c10::BFloat16");
  Launch(1, 200, 300, 30);    // inside op 19
  Launch(2, 1087.2, 1200, 30); // inside op 12 (ends 1088), after op 13
  Op("aten::mm", 2000, 50, "float");
  Launch(3, 2010, 2100, 10);
  for (int I = 0; I < 15; ++I)
    Op("aten::mul", 3000 + I, 500 - 2 * I, "float");
  Launch(4, 3100, 3600, 7);
  J += "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, \"ts\": 0}"
       "]}";
  Trace T = importOrDie(J);
  WorkloadInfo W(T);
  const WorkloadFact *P = W.find("precision");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->Value, "bf16");
  EXPECT_EQ(P->Conf, Confidence::High); // 85.7 % >= 80 %
  EXPECT_NE(P->Evidence.find("bf16 85.7%, fp32 14.3% (70.000 µs)"),
            std::string::npos)
      << P->Evidence;
}
