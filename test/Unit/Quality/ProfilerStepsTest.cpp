//===- ProfilerStepsTest.cpp - Step statistics ----------------------------===//

#include "tl/Analysis/ProfilerSteps.h"
#include "tl/Analysis/TraceQuality.h"

#include <gtest/gtest.h>

using namespace tl;

TEST(ProfilerSteps, MedianExcluding) {
  // Steps 30, 10, 12, 11: without the first, median of {10, 12, 11} = 11.
  double D[] = {30, 10, 12, 11};
  EXPECT_DOUBLE_EQ(*medianExcluding(D, 0), 11.0);
  // Without the last: median of {30, 10, 12} = 12.
  EXPECT_DOUBLE_EQ(*medianExcluding(D, 3), 12.0);
  // Even count: {10, 12} -> 11.
  double E[] = {10, 12, 99};
  EXPECT_DOUBLE_EQ(*medianExcluding(E, 2), 11.0);
  double One[] = {5};
  EXPECT_FALSE(medianExcluding(One, 0).has_value());
}

TEST(ProfilerSteps, TypicalStep) {
  // Warm-up 4000 then 1000, 1000: middle = {1000} -> 1000 (not 2500).
  double W[] = {4000, 1000, 1000};
  EXPECT_DOUBLE_EQ(*typicalStepValue(W), 1000.0);
  // Truncated 2000, 2000, 500: middle = {2000} -> 2000 (not 1250).
  double T[] = {2000, 2000, 500};
  EXPECT_DOUBLE_EQ(*typicalStepValue(T), 2000.0);
  // Five steps: middle {10, 12, 14} -> 12.
  double F[] = {50, 10, 12, 14, 1};
  EXPECT_DOUBLE_EQ(*typicalStepValue(F), 12.0);
  // Two steps: the second one.
  double Two[] = {30, 10};
  EXPECT_DOUBLE_EQ(*typicalStepValue(Two), 10.0);
  EXPECT_FALSE(typicalStepValue({}).has_value());
}

TEST(ProfilerSteps, WarmupThresholdArithmetic) {
  // 30 > 1.5 x 11 = 16.5 -> warm-up; 16 is not.
  double D[] = {30, 10, 12, 11};
  EXPECT_GT(D[0], QualityThresholds::WarmupStepRatio * *medianExcluding(D, 0));
  double D2[] = {16, 10, 12, 11};
  EXPECT_LT(D2[0], QualityThresholds::WarmupStepRatio * *medianExcluding(D2, 0));
}

TEST(ProfilerSteps, Names) {
  EXPECT_EQ(verdictName(QualityVerdict::GpuOnly), "gpu-only");
  EXPECT_EQ(capabilityName(Capability::PerfModels), "perf-models");
  EXPECT_EQ(capabilityName(Capability::StepStats), "step-stats");
  EXPECT_EQ(severityName(IssueSeverity::Info), "info");
}
