//===- IntervalsTest.cpp - interval union primitives -----------------------===//
#include "tl/Support/Intervals.h"

#include "gtest/gtest.h"

using namespace tl;

TEST(Intervals, MergeTouching) {
  auto M = mergeIntervals({{5, 6}, {0, 2}, {2, 3}, {1, 1.5}, {7, 9}, {8, 8.5}});
  EXPECT_EQ(M, (std::vector<Interval>{{0, 3}, {5, 6}, {7, 9}}));
  EXPECT_EQ(totalLength(M), 3 + 1 + 2);
  EXPECT_EQ(busyTime({{0, 1}, {0.5, 2}}), 2.0);
  EXPECT_TRUE(mergeIntervals({}).empty());
}

TEST(Intervals, MergeEqualStartsAnyOrder) {
  // Equal starts in either order give the same union (the merge sorts
  // unstably, in place): [0,4] u [0,1] u [4,5] = [0,5]; [6,7] u [6,6.5].
  auto A = mergeIntervals({{0, 1}, {6, 6.5}, {0, 4}, {4, 5}, {6, 7}});
  auto B = mergeIntervals({{6, 7}, {0, 4}, {4, 5}, {0, 1}, {6, 6.5}});
  EXPECT_EQ(A, (std::vector<Interval>{{0, 5}, {6, 7}}));
  EXPECT_EQ(A, B);
  // Many intervals merging into one leave no spare capacity behind.
  std::vector<Interval> Many;
  for (int I = 0; I < 1000; ++I)
    Many.push_back({double(I % 7), 10});
  auto M = mergeIntervals(std::move(Many));
  EXPECT_EQ(M, (std::vector<Interval>{{0, 10}}));
  EXPECT_LE(M.capacity(), 2u);
}

TEST(Intervals, SubtractIsBMinusA) {
  std::vector<Interval> A = {{1, 2}, {4, 5}};
  std::vector<Interval> B = {{0, 3}, {4, 5}, {6, 7}};
  // [0,3]-[1,2] = [0,1],[2,3]; [4,5] fully covered (no zero pieces); [6,7] kept.
  EXPECT_EQ(subtractIntervals(A, B),
            (std::vector<Interval>{{0, 1}, {2, 3}, {6, 7}}));
  // A touching B's edges leaves nothing of zero length.
  EXPECT_EQ(subtractIntervals({{0, 1}, {1, 2}}, {{0, 2}}),
            (std::vector<Interval>{}));
  // One A spanning several Bs.
  EXPECT_EQ(subtractIntervals({{0, 10}}, {{1, 2}, {3, 4}}),
            (std::vector<Interval>{}));
  EXPECT_EQ(subtractIntervals({}, B), B);
}
