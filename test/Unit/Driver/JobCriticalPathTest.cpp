//===- JobCriticalPathTest.cpp - Stitching ranks' chains ------------------===//
//
// computeJobCriticalPath on hand-made rank summaries (critical-path.md
// §6.8): the walk goes to the last arriver of a complete collective, stays
// on the rank otherwise, and ends on chains that point back at themselves.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/JobCriticalPath.h"
#include "tl/Driver/RankTable.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

CpChain chain(double From, double To, CpCategory C, int64_t Stop) {
  CpChain Ch;
  Ch.From = From;
  Ch.To = To;
  Ch.ByCategory[unsigned(C)] = To - From;
  Ch.Stop = Stop;
  return Ch;
}

double us(const JobCpShare &S, CpCategory C) {
  return S.ByCategory[unsigned(C)];
}

/// Rank 0: step 1 [0, 100], its sink chain [80, 100] cpu_op back to the
/// end of its all-reduce (start 50, end 80; before it [0, 50] GPU
/// compute). Rank 1: the same window, its all-reduce [70, 80] after
/// [0, 70] GPU compute.
std::vector<RankSummary> twoRanks() {
  std::vector<RankSummary> Rs(2);
  for (int R = 0; R < 2; ++R) {
    Rs[R].Claim.Rank = R;
    RankCpWindow W;
    W.Step = 1;
    W.Start = 0;
    W.End = 100;
    W.Sink = chain(80, 100, CpCategory::CpuOp, 0);
    Rs[R].CriticalPath.Windows.push_back(W);
    double Start = R == 0 ? 50 : 70;
    Rs[R].CriticalPath.Collectives.push_back(
        {chain(0, Start, CpCategory::GpuCompute, -1), 80});
  }
  return Rs;
}

MatchedCollective allReduce(MatchStatus S) {
  MatchedCollective C;
  C.CollType = "allreduce";
  C.Status = S;
  C.Members = {0, 1};
  for (int R = 0; R < 2; ++R) {
    MatchedMember M;
    M.Rank = R;
    M.Start = R == 0 ? 50 : 70;
    M.End = 80;
    M.Index = 0;
    C.Present.push_back(M);
  }
  return C;
}

TEST(JobCriticalPath, GoesToTheLastArriver) {
  std::vector<RankSummary> Rs = twoRanks();
  JobCriticalPath P =
      computeJobCriticalPath(Rs, {allReduce(MatchStatus::Ok)});
  ASSERT_EQ(P.Steps.size(), 1u);
  const JobCpStep &S = P.Steps[0];
  EXPECT_EQ(S.SinkRank, 0); // equal ends: the lowest rank
  EXPECT_EQ(S.Jumps, 1u);
  EXPECT_EQ(S.Start, 0);
  EXPECT_EQ(S.End, 100);
  // Rank 0: its 20 us after the all-reduce. Rank 1: [70, 80] gpu_comm
  // (the COLL segment from its start) and its 70 us before.
  EXPECT_EQ(S.Ranks[0].CriticalUs, 20);
  EXPECT_EQ(us(S.Ranks[0], CpCategory::CpuOp), 20);
  EXPECT_EQ(S.Ranks[1].CriticalUs, 80);
  EXPECT_EQ(us(S.Ranks[1], CpCategory::GpuComm), 10);
  EXPECT_EQ(us(S.Ranks[1], CpCategory::GpuCompute), 70);
  ASSERT_NE(P.owner(), nullptr);
  EXPECT_EQ(P.owner()->Rank, 1);
  EXPECT_EQ(P.totalUs(), 100);
}

TEST(JobCriticalPath, IncompleteOrMismatchedStaysOnTheRank) {
  for (MatchStatus St : {MatchStatus::Incomplete, MatchStatus::Mismatch}) {
    std::vector<RankSummary> Rs = twoRanks();
    JobCriticalPath P = computeJobCriticalPath(Rs, {allReduce(St)});
    ASSERT_EQ(P.Steps.size(), 1u);
    const JobCpStep &S = P.Steps[0];
    EXPECT_EQ(S.Jumps, 0u);
    // Rank 0 alone: 20 cpu_op, its kernel's span [50, 80], 50 compute.
    EXPECT_EQ(S.Ranks[0].CriticalUs, 100);
    EXPECT_EQ(us(S.Ranks[0], CpCategory::GpuComm), 30);
    EXPECT_EQ(S.Ranks[1].CriticalUs, 0);
  }
}

TEST(JobCriticalPath, ChainsThatLoopEnd) {
  // A chain back to its own instance (what clock noise could make): each
  // instance is entered once, then the walk stops.
  std::vector<RankSummary> Rs(1);
  RankCpWindow W;
  W.Step = 3;
  W.End = 100;
  W.Sink = chain(80, 100, CpCategory::CpuOp, 0);
  Rs[0].CriticalPath.Windows.push_back(W);
  Rs[0].CriticalPath.Collectives.push_back(
      {chain(60, 70, CpCategory::GpuGap, 0), 80});
  JobCriticalPath P = computeJobCriticalPath(Rs, {});
  ASSERT_EQ(P.Steps.size(), 1u);
  EXPECT_EQ(P.Steps[0].Ranks[0].CriticalUs, 20 + 10 + 10);
}

TEST(JobCriticalPath, NoWindowsNoPath) {
  std::vector<RankSummary> Rs(2);
  Rs[1].Claim.Rank = 1;
  JobCriticalPath P = computeJobCriticalPath(Rs, {});
  EXPECT_TRUE(P.Steps.empty());
  EXPECT_EQ(P.owner(), nullptr);
}

} // namespace
