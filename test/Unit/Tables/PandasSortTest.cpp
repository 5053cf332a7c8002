//===- PandasSortTest.cpp - pandas groupby sums and sort order ------------===//
#include "tl/Support/PandasStats.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace tl;

TEST(PandasStats, KahanGroupSum) {
  // 1e16 + 1 + 1: naive left-to-right loses both ones (1e16 + 1 rounds back
  // to 1e16); Kahan's compensation recovers them -> 1e16 + 2.
  std::vector<double> V = {1e16, 1.0, 1.0};
  EXPECT_EQ(pandasGroupSum(V), 1e16 + 2.0);
  EXPECT_EQ(pandasGroupSum({}), 0.0);
  EXPECT_TRUE(std::isnan(pandasGroupMean({})));
  EXPECT_EQ(pandasGroupMedian(std::vector<double>{3.0, 1.0, 2.0, 10.0}), 2.5);
}

TEST(PandasStats, DescendingTiesSmall) {
  // Keys [1, 2, 2, 3] descending. nargsort reverses ([3, 2, 2, 1], index
  // [3, 2, 1, 0]), numpy insertion-sorts (stable below 17 elements):
  // [1, 2, 2, 3] from positions [3, 1, 2, 0] -> indices [0, 2, 1, 3], then
  // reverses: [3, 1, 2, 0]. Ties keep their original order.
  std::vector<size_t> O = pandasSortValuesOrder({1, 2, 2, 3}, false);
  EXPECT_EQ(O, (std::vector<size_t>{3, 1, 2, 0}));
}

TEST(PandasStats, NaNsLast) {
  std::vector<size_t> O = pandasSortValuesOrder({NAN, 1, 5}, false);
  EXPECT_EQ(O, (std::vector<size_t>{2, 1, 0}));
}

TEST(PandasStats, QuickArgsortSorts) {
  // Large enough for partitioning (> 16) with many ties: the result must be
  // a permutation in ascending key order.
  std::vector<double> V;
  for (int I = 0; I < 1000; ++I)
    V.push_back(double((I * 7919) % 37));
  std::vector<size_t> O = numpyQuickArgsort(V);
  ASSERT_EQ(O.size(), V.size());
  for (size_t I = 1; I < O.size(); ++I)
    EXPECT_LE(V[O[I - 1]], V[O[I]]);
  std::vector<size_t> S = O;
  std::sort(S.begin(), S.end());
  for (size_t I = 0; I < S.size(); ++I)
    EXPECT_EQ(S[I], I);
}

TEST(PandasStats, QuickArgsortMedianOfThree) {
  // 18 equal keys: one partition step. Median-of-three leaves index 0, 8
  // and 17 (no swaps on equal keys); the pivot (index 8) swaps with 16;
  // the scans stop on every equal element and swap pairs (1,15), (2,14),
  // ..., (7,9); then pi = 8 swaps with 16 -> position 8 holds index 8 again.
  // Both sides (<= 16 elements) are then insertion-sorted without moves.
  std::vector<double> V(18, 1.0);
  std::vector<size_t> O = numpyQuickArgsort(V);
  std::vector<size_t> Want = {0, 15, 14, 13, 12, 11, 10, 9, 8,
                              7, 6, 5, 4, 3, 2, 1, 16, 17};
  EXPECT_EQ(O, Want);
}
