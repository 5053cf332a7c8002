//===- FailOnTest.cpp - --fail-on expressions ------------------------------===//
#include "tl/Report/FailOn.h"

#include "tl/Analysis/TraceQuality.h"
#include "tl/Import/Importer.h"
#include "tl/Report/ReportMetrics.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

PItem item(const Finding &F, unsigned Rank, std::optional<double> Mid,
           const std::string &Method = "quantified") {
  PItem P;
  P.F = &F;
  P.Rank = Rank;
  P.Mid = Mid;
  P.Low = Mid ? std::optional<double>(*Mid / 2) : std::nullopt;
  P.High = Mid ? std::optional<double>(*Mid * 2) : std::nullopt;
  P.EstimateMethod = Method;
  P.CategoryKey = F.Category;
  return P;
}

bool matches(llvm::StringRef Expr, const PItem &P) {
  auto E = FailOnExpr::parse(Expr);
  EXPECT_TRUE(static_cast<bool>(E)) << llvm::toString(E.takeError());
  return E && E->matches(P);
}

TEST(FailOn, Terms) {
  Finding F;
  F.T = Tier::System;
  F.Pass = "cpu-idle";
  F.Category = "cpu_idle";
  F.Id = "cpu-idle.cpu_idle.0";
  F.Imp.Sev = Severity::Medium;
  PItem Scored = item(F, 2, 6.0);
  PItem Unscored = item(F, 1, std::nullopt, "heuristic");

  EXPECT_TRUE(matches("impact>=5", Scored));
  EXPECT_TRUE(matches("impact>5.99", Scored));
  EXPECT_FALSE(matches("impact<5", Scored));
  EXPECT_FALSE(matches("impact>=0", Unscored)); // never for unscored
  EXPECT_TRUE(matches("impact_low=3", Scored));
  EXPECT_TRUE(matches("impact_high>11", Scored));
  EXPECT_TRUE(matches("tier=system", Scored));
  EXPECT_FALSE(matches("tier!=system", Scored));
  EXPECT_TRUE(matches("pass=cpu-idle", Scored));
  EXPECT_TRUE(matches("category=cpu_idle", Scored));
  EXPECT_TRUE(matches("id=cpu-idle.cpu_idle.0", Scored));
  EXPECT_TRUE(matches("severity>=medium", Scored));
  EXPECT_FALSE(matches("severity=high", Scored));
  EXPECT_FALSE(matches("P1", Scored));
  EXPECT_TRUE(matches("P2", Scored));
  EXPECT_TRUE(matches("P1", Unscored));
  EXPECT_TRUE(matches("heuristic", Unscored));
  EXPECT_FALSE(matches("quantified", Unscored));
  EXPECT_TRUE(matches("quantified", Scored));
  // ',' is or, '&' is and.
  EXPECT_TRUE(matches("tier=compute,impact>5", Scored));
  EXPECT_FALSE(matches("tier=compute&impact>5", Scored));
  EXPECT_TRUE(matches(" tier = system & P3 ", Scored));
}

TEST(FailOn, Errors) {
  for (const char *Bad : {"", "impact", "impact>>3", "impact>=x", "speed>3",
                          "tier=gpu", "tier>system", "severity>=huge", "Px",
                          "a&"}) {
    auto E = FailOnExpr::parse(Bad);
    EXPECT_FALSE(static_cast<bool>(E)) << Bad;
    if (!E)
      llvm::consumeError(E.takeError());
  }
}

/// Three ProfilerStep annotations of 100, 200 and 400 µs: the typical step
/// is the middle one, 200 µs = 0.2 ms.
constexpr const char *ThreeSteps = R"({"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 100, "dur": 200},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 300, "dur": 400}]})";

TEST(FailOn, ReportMetrics) {
  auto T = importTraceFromBuffer(ThreeSteps, "steps.json");
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  TraceQuality Q(*T);
  Finding F;
  F.T = Tier::System;
  F.Pass = "cpu-idle";
  F.Category = "cpu_idle";
  F.Id = "cpu-idle.cpu_idle.0";
  F.Imp.Quantified = true;
  F.Imp.LowPct = 5;
  F.Imp.MidPct = 6;
  F.Imp.HighPct = 7;
  Utilization U;
  U.Available = true;
  U.TotalMs = 10;
  U.ComputationPct = 70;
  U.ExposedCommPct = 5;
  U.IdlePct = 25;
  std::vector<Finding> Fs{F};
  ReportModel Model = ReportModel::build(Fs, U, {});
  ReportMetrics M = ReportMetrics::compute(Model, Q);
  EXPECT_EQ(M.get("idle_pct"), 25.0);
  EXPECT_EQ(M.get("e2e_ms"), 10.0);
  EXPECT_EQ(M.get("step_ms"), 0.2);
  EXPECT_EQ(M.get("steps"), 3.0);
  EXPECT_EQ(M.get("findings"), 1.0);
  EXPECT_FALSE(M.get("speed").has_value());

  auto E = FailOnExpr::parse(
      "idle_pct>20,step_ms>0.3,tier=system&idle_pct>30,impact>=5");
  ASSERT_TRUE(static_cast<bool>(E)) << llvm::toString(E.takeError());
  std::vector<GateResult> G = E->evaluate(Model, M);
  ASSERT_EQ(G.size(), 4u);
  EXPECT_TRUE(G[0].Global && G[0].Failed);
  EXPECT_EQ(G[0].Detail, "idle_pct = 25.0");
  EXPECT_TRUE(G[1].Global && !G[1].Failed);
  EXPECT_EQ(G[1].Detail, "step_ms = 0.2");
  // A metric term narrows a finding clause: idle 25 is not above 30.
  EXPECT_TRUE(!G[2].Global && !G[2].Failed);
  EXPECT_TRUE(!G[3].Global && G[3].Failed);
  EXPECT_EQ(G[3].Detail, "cpu-idle.cpu_idle.0");
  // Per finding, the gates on the run are not tried.
  const PItem &P = Model.items(Tier::System)[0];
  EXPECT_EQ(E->matchingClause(P, &M), "impact>=5");
  auto Narrow = FailOnExpr::parse("tier=system&idle_pct>20");
  ASSERT_TRUE(static_cast<bool>(Narrow));
  EXPECT_TRUE(Narrow->matches(P, &M));
  EXPECT_FALSE(Narrow->matches(P)); // no metrics: a metric term never matches

  // Without a timeline or steps the metrics are missing, and say why.
  auto Empty = importTraceFromBuffer(R"({"traceEvents": []})", "empty.json");
  ASSERT_TRUE(static_cast<bool>(Empty));
  TraceQuality QE(*Empty);
  ReportModel NoTimeline = ReportModel::build({}, Utilization(), {});
  ReportMetrics ME = ReportMetrics::compute(NoTimeline, QE);
  EXPECT_FALSE(ME.get("idle_pct").has_value());
  EXPECT_EQ(ME.whyMissing("idle_pct"), "no GPU timeline");
  EXPECT_EQ(ME.whyMissing("step_ms"), "no ProfilerStep#N markers");
  EXPECT_EQ(ME.get("steps"), 0.0);
  std::vector<GateResult> GE = E->evaluate(NoTimeline, ME);
  EXPECT_FALSE(GE[0].Failed);
  EXPECT_EQ(GE[0].Detail, "idle_pct: no GPU timeline");
}

TEST(FailOn, UnknownMetric) {
  auto E = FailOnExpr::parse("idel_pct>20");
  ASSERT_FALSE(static_cast<bool>(E));
  std::string Msg = llvm::toString(E.takeError());
  EXPECT_NE(Msg.find("unknown field 'idel_pct'"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("report metrics: e2e_ms, compute_pct"), std::string::npos)
      << Msg;
  // Metrics compare numbers only.
  auto S = FailOnExpr::parse("idle_pct>high");
  ASSERT_FALSE(static_cast<bool>(S));
  llvm::consumeError(S.takeError());
}

} // namespace
