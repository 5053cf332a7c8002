//===- CollectiveMatchTest.cpp - Collectives matched across ranks ---------===//
//
// Instances written by the tests; the expected matches, skews, waits and
// bandwidths are worked by hand in the comments (spec multi-rank.md §4-§5).
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/CollectiveMatch.h"
#include "tl/Driver/Stragglers.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

CollectiveInstance inst(double Start, double End,
                        std::optional<int64_t> Seq = std::nullopt,
                        int64_t In = 1024) {
  CollectiveInstance I;
  I.Pg = SharedName("0");
  I.Seq = Seq;
  I.CollName = SharedName("allreduce");
  I.CollType = SharedName("allreduce");
  I.Dtype = SharedName("Float");
  I.InNelems = I.OutNelems = In;
  I.GroupSize = 3;
  I.PgRanks = {0, 1, 2};
  I.Stream = 20;
  I.Start = Start;
  I.End = End;
  I.NumKernels = 1;
  return I;
}

RankCollectives rank(int64_t R, std::vector<CollectiveInstance> Is) {
  RankCollectives C;
  C.Rank = R;
  C.Instances = std::move(Is);
  return C;
}

TEST(CollectiveMatch, RankLists) {
  bool Trunc = false;
  EXPECT_EQ(parseRankList("[0, 1, 2, 3]", Trunc),
            (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_FALSE(Trunc);
  EXPECT_EQ(parseRankList("[0, 1, ..., 127]", Trunc),
            (std::vector<int64_t>{0, 1, 127}));
  EXPECT_TRUE(Trunc);
}

TEST(CollectiveMatch, TypesAndFactors) {
  EXPECT_EQ(collectiveType("_allgather_base", ""), "allgather");
  EXPECT_EQ(collectiveType("reduce_scatter_tensor_coalesced", ""),
            "reducescatter");
  EXPECT_EQ(collectiveType("", "ncclKernel_ReduceScatter_RING_LL_Sum_bf16"),
            "reducescatter");
  EXPECT_EQ(collectiveType("", "ncclDevKernel_Generic"), "unknown");
  EXPECT_EQ(collectiveDtypeBytes("Float8_e4m3fn"), 1u);
  EXPECT_EQ(collectiveDtypeBytes("ComplexDouble"), 16u);
  EXPECT_EQ(collectiveDtypeBytes("Quux"), 0u);
  EXPECT_DOUBLE_EQ(*busFactor("allreduce", 4), 1.5);
  EXPECT_DOUBLE_EQ(*busFactor("allgather", 4), 0.75);
  EXPECT_FALSE(busFactor("alltoallv", 4));
}

// Seq 1 on ranks 0, 1, 2: starts 10, 30, 20, ends 100, 100, 101.
// Skew 20, end skew 1, last 1, first 0, transfer min(90, 70, 81) = 70,
// waits 20, 0, 10 -> blame 30, mean 10. S = 1024 x 4 = 4096 B: algbw
// 4096 / 70 / 1e3 = 0.058514.. GB/s, busbw x 2 x 2/3 = 0.078019..
TEST(CollectiveMatch, BySeq) {
  std::vector<RankCollectives> Rs = {rank(0, {inst(10, 100, 1)}),
                                     rank(1, {inst(30, 100, 1)}),
                                     rank(2, {inst(20, 101, 1)})};
  auto Cs = matchCollectives(Rs);
  ASSERT_EQ(Cs.size(), 1u);
  const MatchedCollective &C = Cs[0];
  EXPECT_EQ(C.Key, MatchKey::Seq);
  EXPECT_EQ(C.Status, MatchStatus::Ok);
  EXPECT_EQ(C.Seq, 1);
  EXPECT_DOUBLE_EQ(C.ArrivalSkew, 20);
  EXPECT_DOUBLE_EQ(C.EndSkew, 1);
  EXPECT_EQ(C.LastRank, 1);
  EXPECT_EQ(C.FirstRank, 0);
  EXPECT_DOUBLE_EQ(C.Transfer, 70);
  EXPECT_DOUBLE_EQ(C.Blame, 30);
  EXPECT_DOUBLE_EQ(C.MeanWait, 10);
  EXPECT_DOUBLE_EQ(*C.AlgBw, 4096.0 / 70 / 1e3);
  EXPECT_DOUBLE_EQ(*C.BusBw, 4096.0 / 70 / 1e3 * 4 / 3);
}

// Rank 2 records other nelems: mismatch, kept out of the statistics.
TEST(CollectiveMatch, SignatureMismatch) {
  std::vector<RankCollectives> Rs = {rank(0, {inst(10, 100, 1)}),
                                     rank(1, {inst(30, 100, 1)}),
                                     rank(2, {inst(20, 101, 1, 2048)})};
  auto Cs = matchCollectives(Rs);
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Status, MatchStatus::Mismatch);
  EXPECT_FALSE(Cs[0].countsForStragglers());
}

// Order fallback. Ranks 0 and 1 have instances at [0,10] and [100,110];
// rank 2 only the second one. At shift 0 rank 2's [100,110] pairs with
// [0,10]: 100 > 10, invalid. Shift +1 for rank 2 matches 2 + 3 members
// (shift -1 only 2 + 2): order_shifted, instance 0 incomplete {0,1},
// instance 1 complete.
TEST(CollectiveMatch, OrderShift) {
  std::vector<RankCollectives> Rs = {
      rank(0, {inst(0, 10), inst(100, 110)}),
      rank(1, {inst(1, 10), inst(101, 110)}),
      rank(2, {inst(102, 110)})};
  auto Cs = matchCollectives(Rs);
  ASSERT_EQ(Cs.size(), 2u);
  EXPECT_EQ(Cs[0].Key, MatchKey::OrderShifted);
  EXPECT_EQ(Cs[0].Status, MatchStatus::Incomplete);
  EXPECT_EQ(Cs[0].Present.size(), 2u);
  EXPECT_EQ(Cs[1].Status, MatchStatus::Ok);
  EXPECT_EQ(Cs[1].Present.size(), 3u);
  EXPECT_DOUBLE_EQ(Cs[1].ArrivalSkew, 2);
  EXPECT_EQ(Cs[1].LastRank, 2);
}

// No shift can fix a group whose every instance violates the time check:
// unaligned.
TEST(CollectiveMatch, Unaligned) {
  std::vector<RankCollectives> Rs = {rank(0, {inst(0, 10)}),
                                     rank(1, {inst(50, 60)}),
                                     rank(2, {inst(100, 110)})};
  auto Cs = matchCollectives(Rs);
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Status, MatchStatus::Unaligned);
}

// Comms Id on every member: matched by it, whatever the order on each
// rank. Ids 2^64 - 59 and 2^64 - 58 are one double; as uint64 they are two
// instances. Without Seq they are numbered by first start.
TEST(CollectiveMatch, ByCommsIdAboveInt64) {
  const uint64_t A = 18446744073709551557ull, B = A + 1;
  auto withId = [](CollectiveInstance I, uint64_t Id) {
    I.CommsId = Id;
    return I;
  };
  std::vector<RankCollectives> Rs = {
      rank(0, {withId(inst(0, 10), A), withId(inst(100, 110), B)}),
      rank(1, {withId(inst(2, 10), A), withId(inst(104, 110), B)}),
      rank(2, {withId(inst(1, 10), A), withId(inst(101, 111), B)})};
  auto Cs = matchCollectives(Rs);
  ASSERT_EQ(Cs.size(), 2u);
  EXPECT_EQ(Cs[0].Key, MatchKey::CommsId);
  EXPECT_EQ(Cs[0].Seq, 0);
  EXPECT_DOUBLE_EQ(Cs[0].ArrivalSkew, 2);
  EXPECT_EQ(Cs[1].Seq, 1);
  EXPECT_EQ(Cs[1].Status, MatchStatus::Ok);
  EXPECT_DOUBLE_EQ(Cs[1].ArrivalSkew, 4);
  EXPECT_EQ(Cs[1].LastRank, 1);
  EXPECT_EQ(matchKeyName(Cs[1].Key), "comms_id");
}

// One member without its Comms Id: the group falls back to (pg, Seq).
TEST(CollectiveMatch, CommsIdOnSomeMembersOnly) {
  CollectiveInstance A = inst(0, 10, 7), B = inst(2, 10, 7);
  A.CommsId = 5;
  std::vector<RankCollectives> Rs = {rank(0, {A}), rank(1, {B}),
                                     rank(2, {inst(1, 10, 7)})};
  auto Cs = matchCollectives(Rs);
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Key, MatchKey::Seq);
  EXPECT_EQ(Cs[0].Seq, 7);
  EXPECT_EQ(Cs[0].Status, MatchStatus::Ok);
}

CollectiveInstance p2p(const char *Name, double Start, double End,
                       int64_t Seq) {
  CollectiveInstance I = inst(Start, End, Seq);
  I.CollName = SharedName(Name);
  I.CollType = SharedName("sendrecv");
  return I;
}

// A send on 0 to 2 (Dst Rank) pairs with the recv on 2 from 0 (Src Rank);
// rank 1's recv names its peer by its group rank (older traces), 2 of
// [0, 1, 2] = global 2,
// but rank 2 sent nothing to 1: an incomplete pair {1, 2}. Pair 0->2:
// starts 10, 25 -> skew 15, the recv last, transfer min(20, 5) = 5, S =
// 1024 x 4 = 4096 B, F = 1: 4096 / 5 / 1e3 = 0.8192 GB/s.
TEST(CollectiveMatch, SendRecvPairs) {
  CollectiveInstance Send = p2p("send", 10, 30, 1);
  Send.PeerRank = 2;
  CollectiveInstance Recv = p2p("recv", 25, 30, 1);
  Recv.PeerRank = 0;
  CollectiveInstance Lone = p2p("recv", 40, 50, 1);
  Lone.GroupRank = 2; // older traces: the peer's rank in the group
  std::vector<RankCollectives> Rs = {rank(0, {Send}), rank(1, {Lone}),
                                     rank(2, {Recv})};
  auto Cs = matchCollectives(Rs);
  ASSERT_EQ(Cs.size(), 2u);
  const MatchedCollective &P = Cs[0];
  EXPECT_EQ(P.Src, 0);
  EXPECT_EQ(P.Dst, 2);
  EXPECT_EQ(P.Status, MatchStatus::Ok);
  EXPECT_EQ(P.CollName, "send/recv");
  EXPECT_EQ(P.Members, (std::vector<int64_t>{0, 2}));
  EXPECT_DOUBLE_EQ(P.ArrivalSkew, 15);
  EXPECT_EQ(P.LastRank, 2);
  EXPECT_DOUBLE_EQ(P.Transfer, 5);
  EXPECT_DOUBLE_EQ(*P.BusBw, 0.8192);
  EXPECT_TRUE(P.countsForStragglers());
  const MatchedCollective &L = Cs[1];
  EXPECT_EQ(L.Src, 2);
  EXPECT_EQ(L.Dst, 1);
  EXPECT_EQ(L.Status, MatchStatus::Incomplete);
  EXPECT_FALSE(L.countsForStragglers());
}

// all_to_allv: sizes may differ (no mismatch); bytes = the largest
// member's Σ In split size x 4 = (3 + 5) x 4 = 32, no bus factor.
TEST(CollectiveMatch, AllToAllvBytes) {
  auto a2a = [](double Start, std::vector<int64_t> Split) {
    CollectiveInstance I = inst(Start, 100, 1);
    I.CollName = SharedName("all_to_allv");
    I.CollType = SharedName("alltoallv");
    int64_t In = 0;
    for (int64_t X : Split)
      In += X;
    I.InNelems = In;
    I.InSplit = std::move(Split);
    return I;
  };
  std::vector<RankCollectives> Rs = {rank(0, {a2a(10, {0, 1, 1})}),
                                     rank(1, {a2a(20, {3, 0, 5})}),
                                     rank(2, {a2a(30, {1, 1, 0})})};
  auto Cs = matchCollectives(Rs);
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Status, MatchStatus::Ok);
  EXPECT_DOUBLE_EQ(*Cs[0].Bytes, 32);
  EXPECT_DOUBLE_EQ(*Cs[0].AlgBw, 32.0 / 70 / 1e3);
  EXPECT_FALSE(Cs[0].BusBw);
  EXPECT_EQ(Cs[0].GroupRanks, (std::vector<int64_t>{0, 1, 2}));
}

// Three instances, rank 2 last in all (skews 20, 20, 20; blame 40 each):
// the straggler, 3 of 3 last, blame 120 = 100 %. Σ T_job without steps =
// the longest GPU timeline, 300: caused skew 60 = 20 % -> high.
TEST(Stragglers, FindingNamesRankCollectiveAndTime) {
  std::vector<RankCollectives> Rs = {
      rank(0, {inst(0, 50, 1), inst(100, 150, 2), inst(200, 250, 3)}),
      rank(1, {inst(0, 50, 1), inst(100, 150, 2), inst(200, 250, 3)}),
      rank(2, {inst(20, 50, 1), inst(120, 150, 2), inst(220, 250, 3)})};
  auto Cs = matchCollectives(Rs);
  std::vector<RankSummary> Sum(3);
  for (int R = 0; R < 3; ++R) {
    Sum[R].Claim.Rank = R;
    Sum[R].TotalUs = 300;
    Sum[R].ComputationUs = R == 2 ? 200 : 100;
  }
  StragglerAnalysis S = analyzeStragglers(Cs, Sum);
  ASSERT_TRUE(S.Straggler);
  EXPECT_EQ(*S.Straggler, 2);
  EXPECT_EQ(S.Ranks[0].TimesLast, 3u);
  EXPECT_DOUBLE_EQ(S.Ranks[0].Blame, 120);
  EXPECT_DOUBLE_EQ(S.Ranks[0].BlameShare, 100);
  EXPECT_DOUBLE_EQ(S.SumTJob, 300);
  ASSERT_FALSE(S.Findings.empty());
  const JobFinding &F = S.Findings[0];
  EXPECT_EQ(F.Id, "MR-STRAGGLER");
  EXPECT_EQ(F.Severity, "high");
  EXPECT_DOUBLE_EQ(F.ImpactPct, 20);
  EXPECT_EQ(F.Title, "rank 2 reaches 100 % of the all-reduces last, by "
                     "20.0 us on average");
}

} // namespace
