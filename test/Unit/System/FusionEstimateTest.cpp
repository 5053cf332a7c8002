//===- FusionEstimateTest.cpp - Roofline savings of a fusion sub-group ----===//
//
// The worked cases of tracelens-analysis §6.10 step 6 (both with the
// reference's 10^6 bytes per MB), and the 2^20 fix.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/FusionEstimate.h"

#include <gtest/gtest.h>

using namespace tl;

namespace {

FusionParams params(double BytesPerMB) {
  FusionParams P;
  P.BytesPerMB = BytesPerMB;
  P.PeakBwBytesPerSec = 1e12;
  P.VectorTflops = 1;
  P.MatrixTflops = 1;
  return P;
}

TEST(FusionEstimate, OneKernelMemoryBound) {
  // 10 us, in = out = 1 MB at 1e12 B/s: fused = 2e6 B / 1e12 B/s = 2 us;
  // savings = 10 - 2 = 8 us.
  RooflineKernel K{10, false, true, 1.0, 1.0, 2.0, std::nullopt};
  EXPECT_DOUBLE_EQ(roofLineSavingsUs({K}, params(1e6)), 8.0);
}

TEST(FusionEstimate, TwoKernelsWithVectorFlops) {
  // t_mem = 2 us (1 MB in, 1 MB out); t_vec = 0.001 GFLOP / 1 TFLOP/s =
  // 1 us; fused = 2 + 0.15 x (3 - 2) = 2.15 us; savings = 20 - 2.15.
  RooflineKernel A{10, false, true, 1.0, std::nullopt, 2.0, 0.0005};
  RooflineKernel B{10, false, true, std::nullopt, 1.0, 2.0, 0.0005};
  EXPECT_NEAR(roofLineSavingsUs({A, B}, params(1e6)), 17.85, 1e-12);
}

TEST(FusionEstimate, MegabyteIsTwoToTheTwenty) {
  // Same kernel as above with 2^20 bytes per MB: t_mem = 2.097152 us.
  RooflineKernel K{10, false, true, 1.0, 1.0, 2.0, std::nullopt};
  EXPECT_NEAR(roofLineSavingsUs({K}, params(1048576)), 10 - 2.097152, 1e-12);
}

TEST(FusionEstimate, UnmodelledTimeIsNotSaved) {
  // The unmodelled kernel's 5 us stay: 15 - 2 - 5 = 8.
  RooflineKernel A{10, false, true, 1.0, 1.0, 2.0, std::nullopt};
  RooflineKernel U{5, false, false, std::nullopt, std::nullopt, std::nullopt,
                   std::nullopt};
  EXPECT_DOUBLE_EQ(roofLineSavingsUs({A, U}, params(1e6)), 8.0);
  EXPECT_DOUBLE_EQ(roofLineSavingsUs({U}, params(1e6)), 0.0);
}

} // namespace
