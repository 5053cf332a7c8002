//===- ReportModelTest.cpp - Ranking, rollups and fallback rows -----------===//
#include "tl/Report/ReportModel.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

Finding compute(const std::string &Cat, double Low, double Mid, double High,
                const std::string &Method = "quantified", int Members = 1) {
  Finding F;
  F.T = Tier::Compute;
  F.Pass = "p";
  F.Category = Cat;
  F.Title = Cat + " " + std::to_string(Mid);
  F.Facts.Score = ImpactScore{Mid, Low, High};
  F.Facts.EstimateMethod = Method;
  F.Facts.MemberCount = Members;
  F.Id = F.computeId();
  return F;
}

CategoryInfo cat(const std::string &Key, const std::string &Display,
                 double Ms) {
  CategoryInfo C;
  C.Key = Key;
  C.DisplayName = Display;
  C.GpuKernelTimeMs = Ms;
  return C;
}

Utilization util(double TotalMs, double CompPct) {
  Utilization U;
  U.Available = true;
  U.TotalMs = TotalMs;
  U.ComputationPct = CompPct;
  return U;
}

TEST(ReportModel, CategoryKeys) {
  EXPECT_EQ(categoryKey("GEMM"), "gemm");
  EXPECT_EQ(categoryKey("SDPA_fwd"), "sdpa_fwd");
  EXPECT_EQ(categoryKey("MoE_fused"), "moe_fused");
  EXPECT_EQ(categoryKey("Custom Collective/x"), "custom_collective_x");
  EXPECT_EQ(categoryKey(""), "other");
}

// Ties keep the reference's metrics-file order: "norm_fwd_metrics.json"
// sorts before "norm_metrics.json" ('f' < 'm') although "norm" < "norm_fwd".
TEST(ReportModel, TiesFollowMetricsFileOrder) {
  std::vector<Finding> Fs = {compute("norm", 1, 2, 3),
                             compute("norm_fwd", 1, 2, 3),
                             compute("gemm", 0.5, 1, 1.5)};
  ReportModel M = ReportModel::build(Fs, util(10, 50), {});
  auto C = M.items(Tier::Compute);
  ASSERT_EQ(C.size(), 3u);
  EXPECT_EQ(C[0].CategoryKey, "norm_fwd");
  EXPECT_EQ(C[1].CategoryKey, "norm");
  EXPECT_EQ(C[2].CategoryKey, "gemm");
  EXPECT_EQ(C[0].Rank, 1u);
  EXPECT_EQ(C[2].Rank, 3u);
}

// Ranks are contiguous per tier; unscored findings come last in emission
// order.
TEST(ReportModel, RanksPerTierUnscoredLast) {
  Finding S1;
  S1.T = Tier::System;
  S1.Category = "cpu_idle";
  S1.Title = "idle";
  Finding S2 = S1;
  S2.Title = "memcpy";
  Finding S3 = S1;
  S3.Title = "quantified";
  S3.Imp.Quantified = true;
  S3.Imp.LowPct = 1;
  S3.Imp.MidPct = 2;
  S3.Imp.HighPct = 3;
  std::vector<Finding> Fs = {S1, S2, S3, compute("gemm", 1, 2, 3)};
  ReportModel M = ReportModel::build(Fs, util(10, 50), {});
  auto S = M.items(Tier::System);
  ASSERT_EQ(S.size(), 3u);
  EXPECT_EQ(S[0].F->Title, "quantified");
  EXPECT_EQ(S[1].F->Title, "idle");
  EXPECT_EQ(S[2].F->Title, "memcpy");
  EXPECT_EQ(S[2].Rank, 3u);
  EXPECT_FALSE(S[1].scored());
  EXPECT_EQ(M.items(Tier::Compute)[0].Rank, 1u);
  EXPECT_TRUE(M.items(Tier::Fusion).empty());
}

// Rollups sum the rounded quantified findings only; every quantified
// category is listed (the reference stops at 6); operation_count sums
// member_count (the reference writes 0).
TEST(ReportModel, RollupsAllCategoriesNoHeuristic) {
  std::vector<Finding> Fs;
  const char *Cats[] = {"a", "b", "c", "d", "e", "f", "g"};
  for (int I = 0; I < 7; ++I)
    Fs.push_back(compute(Cats[I], 0.5, 1.0 + I, 2.0 + I, "quantified", 2));
  Fs.push_back(compute("a", 0.1, 0.2, 0.3, "quantified", 3));
  Fs.push_back(compute("a", 5, 10, 15, "heuristic"));
  ReportModel M = ReportModel::build(Fs, util(10, 50), {});
  ASSERT_EQ(M.rollups().size(), 7u);
  ASSERT_EQ(M.priorities().size(), 7u);
  EXPECT_EQ(M.rollups()[0].Category, "g"); // mid 7
  const CategoryRollup &A = M.rollups().back();
  EXPECT_EQ(A.Category, "a");
  EXPECT_DOUBLE_EQ(A.Mid, 1.2); // 1.0 + 0.2, heuristic 10 excluded
  EXPECT_DOUBLE_EQ(A.Low, 0.6);
  EXPECT_DOUBLE_EQ(A.High, 2.3);
  EXPECT_EQ(A.OperationCount, 5u);
  EXPECT_EQ(M.priorities()[6].Rank, 7u);
  EXPECT_EQ(M.priorities()[6].Source, "findings_rollup");
  // The heuristic finding still ranks first among the P-items.
  EXPECT_TRUE(M.items(Tier::Compute)[0].isHeuristic());
}

// Fallback rows: compute categories at or above 5 % of computation time
// with no finding, by kernel time. Computation = 10 ms × 40 % = 4 ms, so
// the threshold is 0.2 ms.
TEST(ReportModel, FallbackCategories) {
  std::vector<Finding> Fs = {compute("gemm", 1, 2, 3),
                             compute("elementwise", 1, 2, 3, "heuristic")};
  std::vector<CategoryInfo> Cs = {
      cat("gemm", "GEMM", 3.0), cat("elementwise", "elementwise", 1.0),
      cat("reduce", "reduce", 0.3), cat("norm_fwd", "NORM_fwd", 0.5),
      cat("triton", "triton", 0.2), cat("other", "Other", 0.19)};
  ReportModel M = ReportModel::build(Fs, util(10, 40), Cs);
  EXPECT_DOUBLE_EQ(M.fallbackThresholdMs(), 0.2);
  auto P = M.priorities();
  ASSERT_EQ(P.size(), 4u);
  EXPECT_EQ(P[0].Category, "gemm");
  EXPECT_EQ(P[0].DisplayName, "GEMM");
  EXPECT_EQ(P[1].Category, "norm_fwd");
  EXPECT_EQ(P[1].Source, "manifest_fallback");
  EXPECT_FALSE(P[1].Mid.has_value());
  EXPECT_EQ(P[2].Category, "reduce");
  EXPECT_EQ(P[3].Category, "triton"); // 0.2 >= 0.2
  EXPECT_EQ(P[3].Rank, 4u);
  EXPECT_EQ(M.topBottleneckKey(), "gemm");
  // 3.0 ms of 4.0 ms computation.
  EXPECT_DOUBLE_EQ(*M.percentOfCompute(3.0), 75.0);
}

// Metrics win over the Impact struct; values are rounded to 2 decimals.
TEST(ReportModel, MetricsOverrideImpact) {
  Finding F = compute("gemm", 1.004, 2.006, 3.0);
  F.Imp.Quantified = true;
  F.Imp.MidPct = 99;
  ReportModel M = ReportModel::build({F}, util(10, 50), {});
  const PItem &P = M.items(Tier::Compute)[0];
  EXPECT_DOUBLE_EQ(*P.Mid, 2.01);
  EXPECT_DOUBLE_EQ(*P.Low, 1.0);
  EXPECT_EQ(P.EstimateMethod, "quantified");
}

} // namespace

namespace {

// One ranking across tiers (docs/ReportFormat.md, "Ranking"), worked by
// hand: compute mid 1.16, fusion mid 31.86, system idle covering 47.44 %
// of E2E (percent_of_total), system memcpy covering 12.9 ms of a 1000 ms
// run (time_ms -> 1.29 %), system finding with no time -> last.
TEST(ReportModel, GlobalRankAcrossTiers) {
  std::vector<Finding> Fs;
  Fs.push_back(compute("elementwise", 0.99, 1.16, 1.32));
  Finding Fu;
  Fu.T = Tier::Fusion;
  Fu.Category = "kernel_fusion";
  Fu.Title = "fusion";
  Fu.Facts.Score = ImpactScore{31.86, std::nullopt, std::nullopt};
  Fs.push_back(Fu);
  Finding Idle;
  Idle.T = Tier::System;
  Idle.Category = "cpu_idle";
  Idle.Title = "idle";
  Idle.Facts.PercentOfTotal = 47.44;
  Fs.push_back(Idle);
  Finding None = Idle;
  None.Title = "none";
  None.Facts = FindingFacts();
  Fs.push_back(None);
  Finding Copy = Idle;
  Copy.Title = "memcpy";
  Copy.Facts = FindingFacts();
  Copy.Facts.TimeMs = 12.9;
  Fs.push_back(Copy);
  ReportModel M = ReportModel::build(Fs, util(1000, 50), {});
  std::vector<const PItem *> G = M.globalOrder();
  ASSERT_EQ(G.size(), 5u);
  EXPECT_EQ(G[0]->F->Title, "idle");
  EXPECT_EQ(G[1]->F->Title, "fusion");
  EXPECT_EQ(G[2]->F->Title, "memcpy");
  EXPECT_NEAR(*G[2]->CoveredPct, 1.29, 1e-9);
  EXPECT_EQ(G[3]->F->Title, "elementwise 1.160000");
  EXPECT_EQ(G[4]->F->Title, "none");
  for (size_t I = 0; I < G.size(); ++I)
    EXPECT_EQ(G[I]->GlobalRank, I + 1);
  // Tier ranks are unchanged: the three unscored system items keep their
  // emission order (idle P1, none P2, memcpy P3).
  EXPECT_EQ(G[0]->Rank, 1u);
  EXPECT_EQ(G[4]->Rank, 2u);
  EXPECT_EQ(G[2]->Rank, 3u);
}

} // namespace

namespace {

PathShare share(double OnPathUs, double EventUs) {
  PathShare S;
  S.OnPathUs = OnPathUs;
  S.EventUs = EventUs;
  return S;
}

// Path impact (docs/ReportFormat.md, "Path impact"), worked by hand: the
// global ranking orders by old estimate x on-path share, ties by the old
// estimate; no share -> the old estimate.
//   A compute mid 8, 5 of 20 µs on the path   -> 8 x 0.25 = 2
//   B compute mid 4, 30 of 30 µs              -> 4
//   C fusion  mid 3, no events                -> 3
//   D system unscored, covers 4 %, 10 of 20   -> 4 x 0.5  = 2
//   E compute mid 2, 7 of 7 µs                -> 2
// Order B, C, then the tie at 2 by old estimate: A (8), D (4), E (2).
// The old order would be A (8), B (4), D (4: tie with B, tier order puts
// compute first), C (3), E (2); the compute tier keeps it (A P1, B P2,
// E P3).
TEST(ReportModel, GlobalRankByStepSaving) {
  std::vector<Finding> Fs;
  Fs.push_back(compute("gemm", 6, 8, 10));
  Fs.back().Title = "A";
  Fs.push_back(compute("gemm", 3, 4, 5));
  Fs.back().Title = "B";
  Finding C;
  C.T = Tier::Fusion;
  C.Category = "kernel_fusion";
  C.Title = "C";
  C.Facts.Score = ImpactScore{3.0, std::nullopt, std::nullopt};
  Fs.push_back(C);
  Finding D;
  D.T = Tier::System;
  D.Category = "cpu_idle";
  D.Title = "D";
  D.Facts.PercentOfTotal = 4.0;
  Fs.push_back(D);
  Fs.push_back(compute("gemm", 1, 2, 3));
  Fs.back().Title = "E";
  std::vector<std::optional<PathShare>> Paths = {
      share(5, 20), share(30, 30), std::nullopt, share(10, 20), share(7, 7)};
  ReportModel M = ReportModel::build(Fs, util(1000, 50), {}, Paths);
  std::vector<const PItem *> G = M.globalOrder();
  ASSERT_EQ(G.size(), 5u);
  const char *Want[] = {"B", "C", "A", "D", "E"};
  double Score[] = {4, 3, 2, 2, 2};
  for (size_t I = 0; I < G.size(); ++I) {
    EXPECT_EQ(G[I]->F->Title, Want[I]);
    EXPECT_EQ(G[I]->GlobalRank, I + 1);
    EXPECT_DOUBLE_EQ(*G[I]->placeScore(), Score[I]);
  }
  EXPECT_DOUBLE_EQ(G[2]->Path->share(), 0.25);
  EXPECT_FALSE(G[1]->Path.has_value());
  // The old estimate is kept beside it.
  EXPECT_DOUBLE_EQ(*G[2]->Mid, 8);
  EXPECT_EQ(G[2]->Rank, 1u); // A: compute P1 by mid
  EXPECT_EQ(G[0]->Rank, 2u); // B
  EXPECT_EQ(G[4]->Rank, 3u); // E
  // Without shares the old ranking: A, B, D, C, E.
  ReportModel Old = ReportModel::build(Fs, util(1000, 50), {});
  std::vector<const PItem *> O = Old.globalOrder();
  const char *WantOld[] = {"A", "B", "D", "C", "E"};
  for (size_t I = 0; I < O.size(); ++I)
    EXPECT_EQ(O[I]->F->Title, WantOld[I]);
}

} // namespace
