//===- SteadyRuleTest.cpp - The steady-state step rule ---------------------===//
//
// Spec multi-rank.md §2.4 and §9 test 3, numbers worked by hand.
//
//===----------------------------------------------------------------------===//

#include "tl/Analysis/StepSelection.h"

#include <gtest/gtest.h>

using namespace tl;

TEST(SteadyRule, SpecSequence) {
  // Sorted: 198 200 201 202 | 205 210 400 500 -> m = (202 + 205) / 2 =
  // 203.5. |T - m| sorted: 1.5 1.5 2.5 3.5 | 5.5 6.5 196.5 296.5 -> MAD =
  // 4.5. tol = max(0.25 x 203.5, 3 x 1.4826 x 4.5) = max(50.875, 20.015).
  double T[] = {500, 210, 200, 205, 198, 400, 202, 201};
  SteadyRule R = steadyRule(T);
  EXPECT_DOUBLE_EQ(R.Median, 203.5);
  EXPECT_DOUBLE_EQ(R.Mad, 4.5);
  EXPECT_DOUBLE_EQ(R.Tol, 50.875);
  EXPECT_FALSE(R.TooFew);
  // 500 > 254.375: warm-up; 210 is not. 400 is 196.5 away: outlier. Runs
  // {1..4} and {6, 7}: the longer one.
  EXPECT_EQ(R.Warmup, std::vector<size_t>{0});
  EXPECT_EQ(R.Outliers, std::vector<size_t>{5});
  ASSERT_TRUE(R.Selection.has_value());
  EXPECT_EQ(*R.Selection, (std::pair<size_t, size_t>{1, 4}));
}

TEST(SteadyRule, TooFew) {
  double T[] = {100, 100};
  SteadyRule R = steadyRule(T);
  EXPECT_TRUE(R.TooFew);
  EXPECT_EQ(*R.Selection, (std::pair<size_t, size_t>{0, 1}));
  EXPECT_TRUE(steadyRule({}).Selection == std::nullopt);
}

TEST(SteadyRule, TiesTakeTheLaterRun) {
  // m = 100, MAD = 0 (five of seven at 100), tol = 25. 300 in the middle
  // is an outlier; runs {0, 1, 2} and {4, 5, 6} tie: the later one.
  double T[] = {100, 100, 100, 300, 100, 100, 90};
  SteadyRule R = steadyRule(T);
  EXPECT_DOUBLE_EQ(R.Tol, 25.0);
  EXPECT_TRUE(R.Warmup.empty());
  EXPECT_EQ(R.Outliers, std::vector<size_t>{3});
  EXPECT_EQ(*R.Selection, (std::pair<size_t, size_t>{4, 6}));
}

TEST(SteadyRule, WarmupKeepsTwoCandidates) {
  // m = 300 (of 900, 800, 300, 100, 100 -> sorted middle 300), |T - m|:
  // 600 500 0 200 200 -> MAD 200, tol = max(75, 889.56) = 889.56: nothing
  // beyond it, so no warm-up even though the first step is 3 x m.
  double T[] = {900, 800, 300, 100, 100};
  SteadyRule R = steadyRule(T);
  EXPECT_DOUBLE_EQ(R.Median, 300.0);
  EXPECT_DOUBLE_EQ(R.Mad, 200.0);
  EXPECT_NEAR(R.Tol, 889.56, 1e-9);
  EXPECT_TRUE(R.Warmup.empty());
  // Three steps, two slow: 1000, 1000, 10 -> m = 1000, MAD = 0, tol = 250;
  // the first is not beyond m + tol; 10 is an outlier.
  double U[] = {1000, 1000, 10};
  SteadyRule S = steadyRule(U);
  EXPECT_TRUE(S.Warmup.empty());
  EXPECT_EQ(S.Outliers, std::vector<size_t>{2});
  EXPECT_EQ(*S.Selection, (std::pair<size_t, size_t>{0, 1}));
}

TEST(SteadyRule, WarmupStopsAtTwoLeft) {
  // 4000, 4000, 4000, 100, 100, 100, 100: m = 100, MAD = 0, tol = 25:
  // warm-up trimming removes all three 4000s (4 candidates remain after
  // the last removal), then nothing is an outlier.
  double T[] = {4000, 4000, 4000, 100, 100, 100, 100};
  SteadyRule R = steadyRule(T);
  EXPECT_EQ(R.Warmup, (std::vector<size_t>{0, 1, 2}));
  EXPECT_TRUE(R.Outliers.empty());
  EXPECT_EQ(*R.Selection, (std::pair<size_t, size_t>{3, 6}));
  // 900, 100, 100 with m = 100, MAD = 0, tol = 25: the first goes (two
  // remain), the selection is {1, 2}.
  double U[] = {900, 100, 100};
  SteadyRule S = steadyRule(U);
  EXPECT_EQ(S.Warmup, std::vector<size_t>{0});
  EXPECT_EQ(*S.Selection, (std::pair<size_t, size_t>{1, 2}));
}
