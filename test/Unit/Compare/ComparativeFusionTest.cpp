//===- ComparativeFusionTest.cpp - §6.10 comparative fusion estimate ------===//
#include "tl/Analysis/Compare/ComparativeFusion.h"

#include <gtest/gtest.h>

using namespace tl;

namespace {

/// A candidate with trace-1 kernels (name, type, dur) and trace-2 total.
/// Kernel names and types are literals: FusionKernel::Name and ::Type
/// refer to them.
ComparativeFusionCandidate
candidate(std::string Module,
          std::vector<std::tuple<const char *, const char *, double>> K1,
          size_t N2, double Total2Us, uint64_t Instances = 1) {
  ComparativeFusionCandidate C;
  C.Base.ModuleName = Module;
  C.Base.BaseName = fusionBaseName(Module);
  C.Base.InstanceCount = Instances;
  for (auto &[Name, Type, Dur] : K1) {
    FusionKernel K;
    K.Name = Name;
    K.Type = Type;
    K.DurUs = Dur;
    C.Base.Kernels.push_back(K);
    C.Base.TotalKernelTimeUs += Dur * Instances;
  }
  C.Base.KernelCount = C.N1 = C.Base.Kernels.size();
  C.N2 = N2;
  C.TotalTime2Us = Total2Us;
  return C;
}

FusionParams params() {
  FusionParams P;
  P.BaselineMs = 10; // E2E 10 ms: 2 % = 200 us
  return P;
}

TEST(ComparativeFusion, MeasuredGapIsTheImpact) {
  // t1 = 3 x 200 = 600 us, t2 = 300 us: gap 300 us = 0.3 ms of 10 ms ->
  // high 3.0 %, low 0.75 x = 2.25, mid 0.875 x = 2.625 (rounded to two
  // decimals: 2.62 or 2.63 depending on the last bit of the product).
  std::vector<ComparativeFusionCandidate> Cs = {candidate(
      "nn.Module: LayerNorm_0",
      {{"mean_k", "Reduce", 200}, {"var_k", "Reduce", 200},
       {"norm_k", "Elementwise", 200}},
      1, 300)};
  FusionResult R = estimateComparativeFusion(Cs, params());
  ASSERT_EQ(R.Estimates.size(), 1u);
  const FusionEstimate &E = R.Estimates[0];
  EXPECT_EQ(E.Operation, "LayerNorm");
  EXPECT_DOUBLE_EQ(E.ImpactHigh, 3.0);
  EXPECT_DOUBLE_EQ(E.ImpactLow, 2.25);
  EXPECT_NEAR(E.ImpactMid, 2.62, 0.011);
  EXPECT_EQ(E.Estimation, "measured");
  EXPECT_EQ(E.BoundType, "memory");
  EXPECT_EQ(E.FusionType, "memory_bound");
  EXPECT_EQ(E.KernelCount, 3u);
  EXPECT_EQ(E.ModeledKernelCount, 3u);
  EXPECT_EQ(E.DeltaKernelCount, std::optional<size_t>(2));
  EXPECT_DOUBLE_EQ(E.TimeMs, 0.6);
  // Name signal (layernorm) and composition signal (no matrix kernel, 3
  // kernels: elementwise chain) -> high; its kernels enter the map.
  EXPECT_EQ(E.Confidence, "high");
  EXPECT_EQ(R.HighConfidenceMap.size(), 3u);
}

TEST(ComparativeFusion, Gates) {
  FusionParams P = params();
  // Not slower than trace 2: no estimate (but still a candidate).
  std::vector<ComparativeFusionCandidate> Cs = {
      candidate("aten::a", {{"k1", "GEMM", 150}, {"k2", "Elementwise", 150}},
                1, 300)};
  FusionResult R = estimateComparativeFusion(Cs, P);
  EXPECT_FALSE(R.NoData);
  EXPECT_EQ(R.CandidateCount, 1u);
  EXPECT_TRUE(R.Estimates.empty());
  // Gap 90 us = 0.09 ms < min-savings 0.1 ms.
  Cs = {candidate("aten::b", {{"k1", "GEMM", 200}, {"k2", "Elementwise", 90}},
                  1, 200)};
  EXPECT_TRUE(estimateComparativeFusion(Cs, P).Estimates.empty());
  // Below 2 % of E2E (200 us) the pre-filter drops it: NO_DATA.
  Cs = {candidate("aten::c", {{"k1", "GEMM", 100}, {"k2", "Elementwise", 50}},
                  1, 10)};
  EXPECT_TRUE(estimateComparativeFusion(Cs, P).NoData);
  // More than 15 trace-1 kernels: dropped by the pre-filter.
  std::vector<std::string> ManyNames; // outlive the candidate
  ManyNames.reserve(16);
  std::vector<std::tuple<const char *, const char *, double>> Many;
  for (int I = 0; I < 16; ++I) {
    ManyNames.push_back("k" + std::to_string(I));
    Many.emplace_back(ManyNames.back().c_str(), "Elementwise", 100);
  }
  Cs = {candidate("aten::d", Many, 1, 100)};
  EXPECT_TRUE(estimateComparativeFusion(Cs, P).NoData);
  // A GEMM among trace 1's kernels: compute-bound, matrix_compute.
  Cs = {candidate("aten::e", {{"k1", "GEMM", 400}, {"k2", "Elementwise", 100}},
                  1, 300)};
  R = estimateComparativeFusion(Cs, P);
  ASSERT_EQ(R.Estimates.size(), 1u);
  EXPECT_EQ(R.Estimates[0].BoundType, "compute");
  EXPECT_EQ(R.Estimates[0].FusionType, "matrix_compute");
}

} // namespace
