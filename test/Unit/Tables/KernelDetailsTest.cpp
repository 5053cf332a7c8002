//===- KernelDetailsTest.cpp - kernel_details_summary (spec §6.5) ---------===//
#include "tl/Analysis/KernelDetails.h"

#include "gtest/gtest.h"

using namespace tl;

static KernelDetail kd(llvm::StringRef Name, double Dur, int64_t Stream = 7) {
  KernelDetail D;
  D.Name = Name;
  D.Dur = Dur;
  D.Stream = Stream;
  return D;
}

TEST(KernelDetails, SummaryPerPosition) {
  // Two ops launching (memset, gemm); a third list of another length is
  // skipped. memset: 1.0, 3.0 -> total 4, mean 2, median 2, population
  // std sqrt(((1-2)^2 + (3-2)^2) / 2) = 1. gemm: 10, 20 -> total 30.
  std::vector<KernelDetail> A = {kd("memset", 1.0), kd("gemm", 10.0)};
  std::vector<KernelDetail> B = {kd("memset", 3.0), kd("gemm", 20.0)};
  std::vector<KernelDetail> C = {kd("other", 99.0)};
  std::vector<KernelStat> S = summarizeKernelDetails({&A, &C, &B});
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Name, "memset");
  EXPECT_EQ(S[0].Count, 2u);
  EXPECT_EQ(S[0].TotalUs, 4.0);
  EXPECT_EQ(S[0].MeanUs, 2.0);
  EXPECT_EQ(S[0].MedianUs, 2.0);
  EXPECT_EQ(S[0].StdUs, 1.0);
  EXPECT_EQ(S[1].Name, "gemm");
  EXPECT_EQ(S[1].TotalUs, 30.0);
  EXPECT_EQ(S[1].MinUs, 10.0);
  EXPECT_EQ(S[1].MaxUs, 20.0);
}

TEST(KernelDetails, SummaryFromDurations) {
  // The same group as SummaryPerPosition given as the template and the
  // durations of the lists of its length, list after list: (1, 10), (3, 20).
  std::vector<KernelDetail> A = {kd("memset", 1.0), kd("gemm", 10.0)};
  std::vector<KernelStat> S =
      summarizeKernelDurations(A, {1.0, 10.0, 3.0, 20.0});
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Name, "memset");
  EXPECT_EQ(S[0].Position, 0u);
  EXPECT_EQ(S[0].Count, 2u);
  EXPECT_EQ(S[0].TotalUs, 4.0);
  EXPECT_EQ(S[0].MedianUs, 2.0);
  EXPECT_EQ(S[0].StdUs, 1.0);
  EXPECT_EQ(S[0].Stream, 7);
  EXPECT_EQ(S[1].Name, "gemm");
  EXPECT_EQ(S[1].Position, 1u);
  EXPECT_EQ(S[1].TotalUs, 30.0);
  EXPECT_EQ(S[1].MinUs, 10.0);
  EXPECT_EQ(S[1].MaxUs, 20.0);
  EXPECT_TRUE(summarizeKernelDurations({}, {}).empty());
}

TEST(KernelDetails, SortedByTotalThenName) {
  std::vector<KernelDetail> A = {kd("b", 5.0), kd("a", 5.0), kd("c", 1.0)};
  std::vector<KernelStat> S = summarizeKernelDetails({&A});
  ASSERT_EQ(S.size(), 3u);
  EXPECT_EQ(S[0].Name, "c");
  EXPECT_EQ(S[1].Name, "a");
  EXPECT_EQ(S[2].Name, "b");
}

TEST(KernelDetails, EmptyGroup) {
  std::vector<KernelDetail> E;
  EXPECT_TRUE(summarizeKernelDetails({&E}).empty());
  EXPECT_EQ(formatKernelDetailsSummary({}), "[]");
  EXPECT_EQ(formatTruncKernelDetails({}), ""); // printed as None
}

TEST(KernelDetails, Text) {
  // Reference (h100/Qwen ops_unique_args): Memset entry of aten::mm.
  KernelStat K;
  K.Name = "Memset (Device)";
  K.Stream = 7;
  K.Count = 48;
  K.TotalUs = 39.75;
  K.MeanUs = 0.828125;
  K.MedianUs = 0.8;
  K.StdUs = 0.07937112851450877;
  K.MinUs = 0.768;
  K.MaxUs = 1.057;
  EXPECT_EQ(formatKernelDetailsSummary({K}),
            "[{'name': 'Memset (Device)', 'stream': 7, 'count': 48, "
            "'total_duration_us': np.float64(39.75), 'mean_duration_us': "
            "np.float64(0.828125), 'median_duration_us': np.float64(0.8), "
            "'std_dev_duration_us': np.float64(0.07937112851450877), "
            "'min_duration_us': np.float64(0.768), 'max_duration_us': "
            "np.float64(1.057)}]");
  // mean 0.828125 -> rint(82.8125) / 100 = 0.83.
  EXPECT_EQ(formatTruncKernelDetails({K}),
            "[{'name': 'Memset (Device)', 'stream': 7, 'mean_duration_us': "
            "np.float64(0.83)}]");
}

TEST(KernelDetails, TruncatesLongNames) {
  KernelStat K;
  K.Name = std::string(64, 'x') + "tail";
  K.Stream = -1;
  K.MeanUs = 0.125; // rint(12.5) = 12 (half to even) -> 0.12
  EXPECT_EQ(formatTruncKernelDetails({K}),
            "[{'name': '" + std::string(64, 'x') +
                "...', 'stream': None, 'mean_duration_us': np.float64(0.12)}]");
  K.Name = std::string(64, 'y'); // exactly 64: kept whole
  EXPECT_EQ(formatTruncKernelDetails({K}).find("..."), std::string::npos);
}
