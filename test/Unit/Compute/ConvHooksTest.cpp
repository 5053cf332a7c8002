//===- ConvHooksTest.cpp - conv transpose overhead on a hand-made table ---===//
//
// The builtin categorizer puts no op whose name says "transpose" into a
// CONV category, so no hand-made trace reaches the transpose overhead
// (§6.4); a hand-made unified table does.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ConvHooks.h"

#include "gtest/gtest.h"

using namespace tl;
using namespace tl::compute;

namespace {

ComputeInput input() {
  TextTable T;
  T.Columns = {"name",           "op category",     "operation_count",
               "Kernel Time (µs)_sum", "Pct Roofline_mean",
               "Roofline Bound", "Input Dims",      "Input type"};
  T.Rows = {
      {"aten::convolution", "CONV_fwd", "1", "80", "10", "MEMORY_BOUND", "",
       ""},
      {"aten::convolution->batched_transpose_32x16_half (Synthetic Op)",
       "CONV_fwd", "1", "20", "20", "MEMORY_BOUND", "", ""},
  };
  Peaks P;
  P.HbmTbs = 5.3;
  P.MaxTflops = {{"matrix_bf16", 708}};
  return ComputeInput(std::move(T), /*E2EMs=*/0.2, std::move(P));
}

TEST(ComputeConv, TransposeOverheadPicksChannelsLast) {
  ComputeInput In = input();
  AnalyzerHooks H = convHooks(/*ChannelsLastPct=*/10);
  CategoryResult R = analyzeCategory(In, "conv_fwd", "CONV_fwd", H);
  // Category 0.08 + 0.02 = 0.1 ms; the transpose row is 0.02 ms = 20 %.
  TransposeFacts F = transposeOf(R);
  EXPECT_EQ(F.Count, 1);
  EXPECT_EQ(F.TimeMs, 0.02);
  EXPECT_EQ(F.OverheadPct, 20.0);
  std::string J = R.metricsJson();
  EXPECT_NE(J.find("\"transpose_count\": 1,"), std::string::npos);
  EXPECT_NE(J.find("\"transpose_time_ms\": 0.02,"), std::string::npos);
  EXPECT_NE(J.find("\"transpose_overhead_percent\": 20.0,"),
            std::string::npos);
  // Impact: conv 0.9 * 0.08 / 0.2 * 100 = 36 high, 31.5 mid, 27 low;
  // transpose 0.8 * 0.02 / 0.2 * 100 = 8 high, 7 mid, 6 low. Both are
  // (memory, Unknown, 0-30): one group, mid 38.5.
  ASSERT_EQ(R.Findings.size(), 1u);
  const CategoryFinding &G = R.Findings.front();
  EXPECT_EQ(G.BoundType, "memory");
  EXPECT_EQ(G.Mid, 38.5);
  EXPECT_EQ(G.Low, 33.0);
  EXPECT_EQ(G.High, 44.0);
  // 20 % > 10 %: channels-last.
  Resolution Res = H.Resolve(R, G);
  EXPECT_EQ(Res.Mechanism, "layout change (channels-last)");
  EXPECT_NE(Res.Action.find("20.00% of convolution time"), std::string::npos);
  // 20 % <= 25 %: the generic memory-bound advice.
  Resolution Low = convHooks(/*ChannelsLastPct=*/25).Resolve(R, G);
  EXPECT_EQ(Low.Mechanism, "layout change, fused epilogue");
}

} // namespace
