//===- GemmTest.cpp - The gemm pass's logic, linked directly --------------===//
#include "RunPass.h"

#include "Gemm/GemmPass.h"
#include "tl/Analysis/ArchSpec.h"
#include "tl/Import/Importer.h"

#include "gtest/gtest.h"

using namespace tl;
using namespace tl::test;

namespace {

// test/Passes/Inputs/compute-small.json on H100 peaks: two aten::mm
// (64x128)·(128x256) bf16 with kernels of 20 and 30 µs; kernels span
// 1000..1530 µs, so E2E = 0.53 ms. Worked by hand (as in
// test/Passes/compute-gemm-other.test): bytes = (64*128 + 128*256 +
// 64*256) * 2 = 114688 and FLOPs = 2*64*128*256 = 4194304, 36.57 FLOPs per
// byte < ridge 989 / 3.35 -> memory-bound; roofline time 114688 B /
// 3.35e12 B/s = 0.0342352 µs -> 0.1712 % at 20 µs, 0.1141 % at 30 µs: the
// 0-30 % bucket. Impact: gap 0.9986 * 0.05 / 0.53 * 100 = 9.4207 (high),
// * 0.875 = 8.2431 -> 8.24 (the score), * 0.75 = 7.0655 (low).
TEST(GemmPass, SmallMemoryBoundGemms) {
  auto T = importTrace(std::string(TL_SOURCE_DIR) +
                       "/test/Passes/Inputs/compute-small.json");
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  auto Arch = resolveArchSpec("H100", std::string(TL_SOURCE_DIR) + "/data");
  ASSERT_TRUE(bool(Arch)) << llvm::toString(Arch.takeError());
  AnalysisOptions Opts;
  Opts.Arch = std::move(*Arch);
  std::vector<Finding> F = runPasses(registerGemmPass, "gemm", *T, Opts);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Title,
            "Memory-bound GEMM kernels at 0-30% of roofline (Unknown)");
  // The typed facts the report reads, and findings.json's copy of them.
  ASSERT_TRUE(F[0].Facts.Score);
  EXPECT_DOUBLE_EQ(F[0].Facts.Score->Mid, 8.24);
  EXPECT_EQ(F[0].Facts.BoundType, "memory");
  const Metric *Impact = findMetric(F[0], "impact_score");
  ASSERT_TRUE(Impact);
  EXPECT_DOUBLE_EQ(std::get<double>(Impact->V), 8.24);
  const Metric *Bound = findMetric(F[0], "bound_type");
  ASSERT_TRUE(Bound);
  EXPECT_EQ(std::get<std::string>(Bound->V), "memory");
}

} // namespace
