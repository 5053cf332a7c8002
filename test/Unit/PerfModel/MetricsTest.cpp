//===- MetricsTest.cpp - §5.1 metric columns ------------------------------===//
#include "TestUtil.h"

#include "tl/Analysis/ArchSpec.h"

#include <cmath>

using namespace tl;
using namespace tl::test;

static PerfModelResult qwenMm() {
  return model(makeOp("aten::mm", "[[8944, 1024], [1024, 2816]]",
                      "['c10::BFloat16', 'c10::BFloat16']", "", "['', '']"));
}

// h100/Qwen..._perf_report_csvs/GEMM.csv aten::mm row: the slowest call
// (Kernel Time (µs)_max 86.912109375) gives TFLOPS/s_min 593.490952675431
// and TB/s_min 0.8566940617991415; the fastest (82.27197265625) gives
// TFLOPS/s_max 626.9638240901165.
TEST(Metrics, RatesMatchReferenceExtremes) {
  PerfModelResult R = qwenMm();
  auto Slow = computeMetrics(R, 86.912109375, false);
  ASSERT_TRUE(!!Slow);
  EXPECT_EQ(pyRepr(Slow->TFLOPSs), "593.490952675431");
  EXPECT_EQ(pyRepr(Slow->TBs), "0.8566940617991415");
  auto Fast = computeMetrics(R, 82.27197265625, false);
  ASSERT_TRUE(!!Fast);
  EXPECT_EQ(pyRepr(Fast->TFLOPSs), "626.9638240901165");
  EXPECT_FALSE(Fast->HasRoofline);
}

// Quirk 11: zero kernel time -> NaN rates; bytes None -> NaN columns.
TEST(Metrics, NaNRules) {
  PerfModelResult R = qwenMm();
  auto M = computeMetrics(R, 0, false);
  ASSERT_TRUE(!!M);
  EXPECT_TRUE(std::isnan(M->TFLOPSs));
  EXPECT_TRUE(std::isnan(M->TBs));
  R.Bytes.reset();
  M = computeMetrics(R, 5, false);
  ASSERT_TRUE(!!M);
  EXPECT_TRUE(std::isnan(M->DataMovedMB));
  EXPECT_TRUE(std::isnan(M->FlopsPerByte));
  EXPECT_TRUE(std::isnan(M->TBs));
  EXPECT_FALSE(std::isnan(M->TFLOPSs));
  R.Bytes = 0;
  M = computeMetrics(R, 5, false);
  ASSERT_TRUE(!!M);
  EXPECT_TRUE(std::isnan(M->FlopsPerByte));
}

// Roofline on MI300X (matrix_bf16 708 TF, 5300 GB/s), same mm at 86.912 µs:
// compute = 51581550592/(708e12)*1e6 = 72.85529744632768 µs, memory =
// 74457088/(5300e9)*1e6 = 14.048507169811321 µs -> COMPUTE_BOUND,
// pct = 72.855.../86.912109375*100 = 83.82640574511736.
TEST(Metrics, Roofline) {
  ArchSpec A;
  A.Name = "MI300X";
  A.MemBwGBps = 5300;
  A.MaxTflops["matrix_bf16"] = 708;
  auto M = computeMetrics(qwenMm(), 86.912109375, false, &A);
  ASSERT_TRUE(!!M);
  ASSERT_TRUE(M->HasRoofline);
  EXPECT_EQ(pyRepr(M->RooflineTimeUs), "72.85529744632768");
  EXPECT_EQ(M->RooflineBound, "COMPUTE_BOUND");
  EXPECT_EQ(pyRepr(M->PctRoofline), "83.82640574511736");
  A.MaxTflops.clear();
  M = computeMetrics(qwenMm(), 86.912109375, false, &A);
  ASSERT_TRUE(!!M);
  EXPECT_FALSE(M->HasRoofline);
}

// No roofline without FLOPs, bytes or not: sglang_prefilldecode's agent
// reference leaves sglang::store_cache (0 GFLOPS, 120 MB, vector_bf16)
// without Roofline Bound / Pct Roofline.
TEST(Metrics, NoRooflineWithoutFlops) {
  ArchSpec A;
  A.Name = "MI300X";
  A.MemBwGBps = 5300;
  A.MaxTflops["matrix_bf16"] = 708;
  PerfModelResult R = qwenMm();
  R.Flops = 0;
  auto M = computeMetrics(R, 86.912109375, false, &A);
  ASSERT_TRUE(!!M);
  EXPECT_FALSE(M->HasRoofline);
  EXPECT_EQ(pyRepr(M->GFLOPS), "0.0");
  EXPECT_EQ(pyRepr(M->DataMovedMB), pyRepr(*R.Bytes / 1048576.0));
}
