//===- StatsTest.cpp - numpy-compatible statistics -------------------------===//
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace tl;

TEST(Stats, PairwiseSmallIsSequential) {
  // n < 8: left to right from 0.0. 0.1+0.2+0.3 = 0.6000000000000001.
  EXPECT_EQ(numpySum({0.1, 0.2, 0.3}), 0.6000000000000001);
}

TEST(Stats, PairwiseEightAccumulators) {
  // n = 9: r0..r7 = a[0..7]; ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) =
  // ((1e16+1)+2)+(2+2) = (1e16+2)+4 = 1e16+6 (1e16+1 ties to even 1e16),
  // then + a[8] = 1e16+7 ties to 1e16+8. Sequential summation gives 1e16.
  std::vector<double> A(9, 1.0);
  A[0] = 1e16;
  EXPECT_EQ(numpySum(A), 1.0000000000000008e16);
}

TEST(Stats, PairwiseSplitAbove128) {
  // n = 136 splits at n2 = 68 - 68 % 8 = 64. Left (64): r0 = 1e16 (its 7
  // extra ones are each lost to ties-to-even), r1..r7 = 8 each:
  // ((1e16+8)+16)+(16+16) = 1e16+56. Right (72 ones) = 72. Total 1e16+128.
  std::vector<double> A(136, 1.0);
  A[0] = 1e16;
  EXPECT_EQ(numpySum(A), 1.0000000000000128e16);
}

TEST(Stats, MeanStdMedian) {
  std::vector<double> A = {1, 2, 3, 4};
  EXPECT_EQ(numpyMean(A), 2.5);
  // population: sqrt((2.25+0.25+0.25+2.25)/4) = sqrt(1.25)
  EXPECT_EQ(numpyStd(A, 0), std::sqrt(1.25));
  // sample: sqrt(5/3)
  EXPECT_EQ(numpyStd(A, 1), std::sqrt(5.0 / 3.0));
  EXPECT_DOUBLE_EQ(pandasGroupStd(A, 1), std::sqrt(5.0 / 3.0));
  EXPECT_TRUE(std::isnan(pandasGroupStd({7.0}, 1)));
  EXPECT_EQ(numpyStd({7.0}, 0), 0.0);
  EXPECT_EQ(numpyMedian({3, 1, 2}), 2.0);
  EXPECT_EQ(numpyMedian(A), 2.5);
  EXPECT_EQ(minOf(A), 1.0);
  EXPECT_EQ(maxOf(A), 4.0);
  EXPECT_TRUE(std::isnan(numpyMean({})));
}

TEST(Stats, Histogram) {
  // np.histogram([0,1,2,3,4], 4): edges [0,1,2,3,4], counts [1,1,1,2]
  // (last bin closed on the right).
  Histogram H = numpyHistogram({0, 1, 2, 3, 4}, 4);
  EXPECT_EQ(H.Edges, (std::vector<double>{0, 1, 2, 3, 4}));
  EXPECT_EQ(H.Counts, (std::vector<int64_t>{1, 1, 1, 2}));
  // min == max widens by 0.5: np.histogram([5,5], 2) -> [0, 2], [4.5, 5, 5.5]
  H = numpyHistogram({5, 5}, 2);
  EXPECT_EQ(H.Edges, (std::vector<double>{4.5, 5, 5.5}));
  EXPECT_EQ(H.Counts, (std::vector<int64_t>{0, 2}));
  // 0.3 with 10 bins over [0,1]: guess int(0.3*10) = 3, but edge[3] =
  // 3*0.1 = 0.30000000000000004 > 0.3, so it moves down to bin 2.
  H = numpyHistogram({0, 0.3, 1}, 10);
  EXPECT_EQ(H.Edges[3], 0.30000000000000004);
  EXPECT_EQ(H.Counts[2], 1);
  EXPECT_EQ(H.Counts[3], 0);
  EXPECT_EQ(H.Counts[9], 1);
}

TEST(Stats, PandasKahan) {
  // Kahan on [1e16, 1, 1]: the first 1 is lost (1e16+1 ties to 1e16) but
  // the compensation (-1) is carried: y = 1 - (-1) = 2, sum = 1e16 + 2.
  // Plain left-to-right summation gives 1e16.
  EXPECT_EQ(pandasGroupSum({1e16, 1.0, 1.0}), 1.0000000000000002e16);
  EXPECT_EQ(pandasGroupMean({1e16, 1.0, 1.0}), 1.0000000000000002e16 / 3);
  EXPECT_EQ(pandasGroupSum({}), 0.0);
  EXPECT_TRUE(std::isnan(pandasGroupMean({})));
}

TEST(Stats, NumpyRound) {
  // np.round(2.675, 2): 2.675*100 == 267.5 exactly in doubles, rint -> 268
  // -> 2.68 (Python's round gives 2.67). np.round(0.125, 2): rint(12.5) = 12
  // -> 0.12. np.round(0.285, 2): 28.499999999999996 -> 28 -> 0.28.
  EXPECT_EQ(numpyRound(2.675, 2), 2.68);
  EXPECT_EQ(numpyRound(0.125, 2), 0.12);
  EXPECT_EQ(numpyRound(0.285, 2), 0.28);
  EXPECT_EQ(numpyRound(1250.0, -2), 1200.0);
}
