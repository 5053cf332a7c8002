//===- CategoryAnalyzerTest.cpp - The runner over a hand-made table -------===//
#include "tl/Compute/CategoryAnalyzer.h"

#include "gtest/gtest.h"

using namespace tl;
using namespace tl::compute;

namespace {

ComputeInput input(double E2EMs) {
  TextTable T;
  T.Columns = {"name", "op category", "operation_count",
               "Kernel Time (µs)_sum", "Kernel Time (µs)_mean",
               "Kernel Time (µs)_std", "Pct Roofline_mean", "Roofline Bound",
               "Input Dims", "Input type", "entry_point"};
  // Two GEMM rows listed smaller-first (the runner sorts), one other row.
  T.Rows = {
      {"aten::mm", "GEMM", "4", "250", "62.5", "1", "50", "COMPUTE_BOUND",
       "((8, 8), (8, 8))", "('float', 'float')", "m.py(1): f"},
      {"aten::addmm", "GEMM", "20", "750", "37.5", "75", "20",
       "MEMORY_BOUND", "", "", ""},
      {"aten::copy_", "", "1", "100", "100", "", "", "", "", "", ""},
  };
  Peaks P;
  P.HbmTbs = 5.3;
  P.MaxTflops = {{"matrix_bf16", 708}};
  return ComputeInput(std::move(T), E2EMs, std::move(P));
}

TEST(ComputeCategory, TotalsAndOrder) {
  ComputeInput In = input(10.0);
  ASSERT_EQ(In.categories().size(), 2u);
  EXPECT_EQ(In.categories()[0].first, "gemm");
  EXPECT_EQ(In.categories()[0].second, "GEMM");
  EXPECT_EQ(In.categories()[1].first, "other"); // empty label -> other
  AnalyzerHooks H;
  H.ExtraFields = {"Input Dims"};
  CategoryResult R = analyzeCategory(In, "gemm", "GEMM", H);
  // (250 + 750) µs = 1.0 ms; 1.0 / 10 ms = 10 %.
  EXPECT_EQ(R.TotalTimeMs, 1.0);
  EXPECT_EQ(R.PercentOfCompute, 10.0);
  EXPECT_EQ(R.OperationCount, 24);
  ASSERT_EQ(R.Ops.size(), 2u);
  EXPECT_EQ(R.Ops[0].Name, "aten::addmm"); // 750 µs first
  EXPECT_EQ(R.Ops[0].Count, 20);
  EXPECT_EQ(R.Ops[0].PercentOfCategory, 75.0);
  EXPECT_EQ(*R.Ops[0].PercentOfTotal, 7.5);
  // count 20 > 10, 0.75 ms / 10 ms = 0.075 >= 0.05: cov = 75 / 37.5 = 2.0.
  EXPECT_EQ(*R.Ops[0].Cov, 2.0);
  EXPECT_TRUE(R.Ops[0].HighVariance);
  EXPECT_FALSE(R.Ops[1].Cov); // count 4
  EXPECT_EQ(R.Ops[1].LauncherPath, "m.py(1): f");
  EXPECT_EQ(R.Ops[0].LauncherPath, "Not found");
  EXPECT_EQ(*R.Ops[1].Args, "(8,8) fp32<br>(8,8) fp32");
  ASSERT_EQ(R.Ops[1].Extra.size(), 1u); // empty Input Dims of row 0 omitted
  EXPECT_TRUE(R.Ops[0].Extra.empty());
  // addmm: gap 0.8 * 0.75 ms / 10 ms * 100 = 6.0 high, 5.25 mid, 4.5 low.
  // mm:    gap 0.5 * 0.25 / 10 * 100 = 1.25 high, 1.09375 -> 1.09 mid,
  //        0.9375 -> 0.94 low.
  ASSERT_EQ(R.Estimates.size(), 2u);
  EXPECT_EQ(R.Estimates[0].Mid, 5.25);
  EXPECT_EQ(R.Estimates[1].Mid, 1.09);
  EXPECT_EQ(R.Estimates[1].Low, 0.94);
  EXPECT_EQ(R.Estimates[1].High, 1.25);
  ASSERT_EQ(R.Findings.size(), 2u);
  EXPECT_EQ(R.Findings[0].BoundType, "memory");
  EXPECT_EQ(R.Findings[1].EffBucket, "30-60");
}

TEST(ComputeCategory, PythonRounding) {
  // Python's round works on the exact binary value:
  // 12.5 µs -> 0.0125 ms, stored just above the tie -> round(.., 3) = 0.013;
  // 125 µs of 100 ms -> 0.125 % (a binary tie) -> round(0.125, 2) = 0.12
  // (ties to even), where rounding half up would give 0.13.
  TextTable T;
  T.Columns = {"name", "op category", "Kernel Time (µs)_sum"};
  T.Rows = {{"a", "reduce", "125"}, {"b", "reduce", "12.5"}};
  ComputeInput In(std::move(T), 100.0, Peaks());
  CategoryResult R = analyzeCategory(In, "reduce", "reduce", AnalyzerHooks());
  EXPECT_EQ(R.Ops[0].TimeMs, 0.125);
  EXPECT_EQ(*R.Ops[0].PercentOfTotal, 0.12);
  EXPECT_EQ(R.Ops[1].TimeMs, 0.013);
}

TEST(ComputeCategory, MetricsJsonHead) {
  ComputeInput In = input(0.0); // no E2E: percent_of_total null
  CategoryResult R = analyzeCategory(In, "other", "Other", AnalyzerHooks());
  std::string J = R.metricsJson();
  // 100 µs -> 0.1 ms; no E2E -> the reference divides by 1: 10 %.
  std::string Head =
      "{\n  \"category\": \"other\",\n  \"status\": \"OK\",\n  "
      "\"comparison_scope\": \"standalone\",\n  \"total_time_ms\": 0.1,\n"
      "  \"percent_of_compute\": 10.0,\n  \"operation_count\": 1,\n";
  EXPECT_EQ(J.substr(0, Head.size()), Head);
  EXPECT_NE(J.find("\"percent_of_total\": null"), std::string::npos);
  EXPECT_EQ(J.back(), '}');
}

} // namespace
