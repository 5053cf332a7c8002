//===- AlignTest.cpp - Name alignment of the TraceDiff tree merge ---------===//
#include "tl/Analysis/Compare/TraceDiff.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tl;

namespace {

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

TEST(CompareAlign, LongestCommonSubsequenceTieSkipsTrace1First) {
  // a b c d vs a c b d: two LCSs of length 3 (a b d, a c d). At the tie
  // (b vs c) the trace-1 op is left unmatched first, so c pairs: a c d.
  std::vector<std::string> A = {"a", "b", "c", "d"}, B = {"a", "c", "b", "d"};
  EXPECT_EQ(alignByName(A, B), (Pairs{{0, 0}, {2, 1}, {3, 3}}));
}

TEST(CompareAlign, MissingAndExtraOps) {
  // The reference has mul between relu and softmax; the trace has none.
  std::vector<std::string> A = {"linear", "relu", "softmax"},
                           B = {"linear", "relu", "mul", "softmax"};
  EXPECT_EQ(alignByName(A, B), (Pairs{{0, 0}, {1, 1}, {2, 3}}));
  EXPECT_EQ(alignByName(B, A), (Pairs{{0, 0}, {1, 1}, {3, 2}}));
}

TEST(CompareAlign, EmptyAndDisjoint) {
  std::vector<std::string> A = {"x", "y"}, B = {"p", "q"}, E;
  EXPECT_TRUE(alignByName(A, B).empty());
  EXPECT_TRUE(alignByName(A, E).empty());
  EXPECT_TRUE(alignByName(E, B).empty());
}

TEST(CompareAlign, RepeatedNamesPairInOrder) {
  // 3 addmm vs 2 addmm: the first two pair up.
  std::vector<std::string> A = {"addmm", "addmm", "addmm"},
                           B = {"addmm", "addmm"};
  EXPECT_EQ(alignByName(A, B), (Pairs{{0, 0}, {1, 1}}));
}

TEST(CompareAlign, LargeSequencesStayLinearInMemory) {
  // 6000 x 6000 middle (36M cells) exceeds the table bound: the greedy
  // in-order match still pairs every equal name.
  std::vector<std::string> A, B;
  A.push_back("start");
  B.push_back("other-start");
  for (int I = 0; I < 6000; ++I) {
    A.push_back("op" + std::to_string(I));
    B.push_back("op" + std::to_string(I));
  }
  A.push_back("end");
  B.push_back("other-end");
  Pairs P = alignByName(A, B);
  ASSERT_EQ(P.size(), 6000u);
  EXPECT_EQ(P.front(), (std::pair<uint32_t, uint32_t>{1, 1}));
  EXPECT_EQ(P.back(), (std::pair<uint32_t, uint32_t>{6000, 6000}));
}

TEST(CompareAlign, NormalizeName) {
  EXPECT_EQ(TraceDiff::normalizeName("nn.Module: Linear_12"),
            "nn.Module: Linear");
  EXPECT_EQ(TraceDiff::normalizeName("nn.Module: Net"), "nn.Module: Net");
  EXPECT_EQ(TraceDiff::normalizeName("ProfilerStep#7"), "ProfilerStep");
  // cpu op names keep their digits.
  EXPECT_EQ(TraceDiff::normalizeName("aten::conv2d"), "aten::conv2d");
  EXPECT_EQ(TraceDiff::normalizeName("my_op_2"), "my_op_2");
}

} // namespace
