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
