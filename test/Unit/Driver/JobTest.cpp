//===- JobTest.cpp - Jobs: inputs, rank resolution, the rank table --------===//
//
// The expectations follow from the claims, traces and summaries the tests
// write (docs/Distributed.md).
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/JobInputs.h"
#include "tl/Driver/JobReport.h"
#include "tl/Driver/RankResolution.h"
#include "tl/Driver/RankTable.h"
#include "tl/Import/Importer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

std::string id(llvm::StringRef P) { return P.str(); }

DistributedIds ids(std::optional<int64_t> Rank,
                   std::optional<int64_t> World = std::nullopt) {
  DistributedIds I;
  I.Rank = Rank;
  I.WorldSize = World;
  return I;
}

TEST(RankResolution, RanksFromDistributedInfo) {
  RankResolver R(2);
  auto A = R.claim("a.json", 0, ids(1, 2));
  ASSERT_TRUE(bool(A));
  EXPECT_EQ(A->Rank, 1);
  EXPECT_EQ(A->Source, RankSource::DistributedInfo);
  auto B = R.claim("b.json", 1, ids(0, 2));
  ASSERT_TRUE(bool(B));
  EXPECT_EQ(B->Rank, 0);
  EXPECT_EQ(R.expectedRanks(), 2);
  EXPECT_TRUE(R.missingRanks().empty());
  EXPECT_TRUE(R.warnings(id).empty());
}

TEST(RankResolution, DuplicateRankNamesBothFiles) {
  RankResolver R(2);
  ASSERT_TRUE(bool(R.claim("x.json", 0, ids(3))));
  auto Y = R.claim("y.json", 1, ids(3));
  ASSERT_FALSE(bool(Y));
  EXPECT_EQ(llvm::toString(Y.takeError()),
            "y.json and x.json both are rank 3 (distributedInfo.rank, "
            "distributedInfo.rank); a job takes one trace per rank");
}

TEST(RankResolution, PositionFallbackWarnsAndCanCollide) {
  RankResolver R(3);
  auto A = R.claim("dir/a.json", 0, ids(std::nullopt));
  ASSERT_TRUE(bool(A));
  EXPECT_EQ(A->Rank, 0);
  EXPECT_EQ(A->Source, RankSource::Position);
  // A trace saying rank 0 collides with the position-ranked one.
  auto B = R.claim("dir/b.json", 1, ids(0));
  ASSERT_FALSE(bool(B));
  EXPECT_EQ(llvm::toString(B.takeError()),
            "dir/b.json and dir/a.json both are rank 0 (distributedInfo.rank, "
            "position); a job takes one trace per rank");
  ASSERT_TRUE(bool(R.claim("dir/c.json", 2, ids(std::nullopt))));
  // Show rewrites the path (analysis.md: relative to the report).
  std::vector<std::string> W =
      R.warnings([](llvm::StringRef P) { return llvm::sys::path::filename(P).str(); });
  // Claimed: 0 and 2 of 3 traces -> rank 1 missing.
  ASSERT_EQ(W.size(), 3u);
  EXPECT_EQ(W[0], "a.json: no distributedInfo.rank; rank 0 from its position in the job");
  EXPECT_EQ(W[1], "c.json: no distributedInfo.rank; rank 2 from its position in the job");
  EXPECT_EQ(W[2], "partial job: 2 of 3 ranks; no trace for rank 1");
}

TEST(RankResolution, MissingRanksUpToWorldSize) {
  // Ranks 0, 2, 3 of a world of 8: 1 and 4..7 missing.
  RankResolver R(3);
  const std::vector<int64_t> Ranks{0, 2, 3};
  for (size_t Pos = 0; Pos < Ranks.size(); ++Pos)
    ASSERT_TRUE(bool(
        R.claim("r" + std::to_string(Ranks[Pos]), Pos, ids(Ranks[Pos], 8))));
  EXPECT_EQ(R.expectedRanks(), 8);
  EXPECT_EQ(R.missingRanks(), (std::vector<int64_t>{1, 4, 5, 6, 7}));
  std::vector<std::string> W = R.warnings(id);
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0], "partial job: 3 of 8 ranks; no trace for ranks 1, 4-7");
}

TEST(RankResolution, RankAboveTraceCountWithoutWorldSize) {
  // Two traces, ranks 0 and 5, no world size: 0..5 expected.
  RankResolver R(2);
  ASSERT_TRUE(bool(R.claim("a", 0, ids(0))));
  ASSERT_TRUE(bool(R.claim("b", 1, ids(5))));
  EXPECT_EQ(R.expectedRanks(), 6);
  EXPECT_EQ(R.missingRanks(), (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(RankResolution, DisagreeingWorldSizes) {
  RankResolver R(2);
  ASSERT_TRUE(bool(R.claim("a", 0, ids(0, 2))));
  ASSERT_TRUE(bool(R.claim("b", 1, ids(1, 4))));
  std::vector<std::string> W = R.warnings(id);
  ASSERT_EQ(W.size(), 2u);
  EXPECT_EQ(W[0], "the traces disagree on distributedInfo.world_size: a says "
                  "2, b says 4");
  EXPECT_EQ(W[1], "partial job: 2 of 4 ranks; no trace for ranks 2-3");
}

TEST(RankResolution, RankRanges) {
  EXPECT_EQ(rankRanges({}), "");
  EXPECT_EQ(rankRanges({4}), "4");
  EXPECT_EQ(rankRanges({0, 1, 2, 5, 7, 8}), "0-2, 5, 7-8");
}

DistributedIds idsOf(llvm::StringRef Json) {
  auto T = importTraceFromBuffer(Json, "t.json");
  EXPECT_TRUE(bool(T)) << (T ? "" : llvm::toString(T.takeError()));
  return T ? distributedIds(*T) : DistributedIds();
}

TEST(RankResolution, DistributedIdsFromTheTrace) {
  // Compact JSON (no space after the colon) is read like any other.
  DistributedIds A =
      idsOf(R"({"distributedInfo":{"rank":3,"world_size":8},"traceEvents":[]})");
  EXPECT_EQ(A.Rank, 3);
  EXPECT_EQ(A.WorldSize, 8);
  DistributedIds B = idsOf(R"({"traceEvents": []})");
  EXPECT_FALSE(B.Rank);
  EXPECT_FALSE(B.WorldSize);
  // A negative or non-integer rank is no rank; a world of 0 no world size.
  DistributedIds C = idsOf(
      R"({"distributedInfo": {"rank": -1, "world_size": 0}, "traceEvents": []})");
  EXPECT_FALSE(C.Rank);
  EXPECT_FALSE(C.WorldSize);
  DistributedIds D =
      idsOf(R"({"distributedInfo": {"rank": "2"}, "traceEvents": []})");
  EXPECT_FALSE(D.Rank);
}

RankSummary summary(int64_t Rank, double TotalUs, bool HasGpu = true) {
  RankSummary S;
  S.Claim = RankClaim{"t" + std::to_string(Rank) + ".json", 0, Rank,
                      RankSource::DistributedInfo};
  S.HasGpu = HasGpu;
  S.TotalUs = TotalUs;
  return S;
}

TEST(RankTable, SlowestRank) {
  std::vector<RankSummary> R{summary(2, 300), summary(0, 500),
                             summary(1, 500), summary(3, 900, false)};
  // 500 twice: the lower rank; rank 3 has no GPU events.
  ASSERT_TRUE(slowestRank(R));
  EXPECT_EQ(slowestRank(R)->Claim.Rank, 0);
  std::vector<RankSummary> None{summary(0, 0, false)};
  EXPECT_EQ(slowestRank(None), nullptr);
}

TEST(RankTable, RowsInRankOrderWithTheTimelineNumbers) {
  // Rank 1: total 200 us, computation 150, exposed comm 30 of 50 comm,
  // memcpy 10 (exposed 5), busy 185, idle 15; wall 250.
  RankSummary A = summary(1, 200);
  A.WallUs = 250;
  A.ComputationUs = 150;
  A.ExposedCommUs = 30;
  A.ExposedMemcpyUs = 5;
  A.BusyUs = 185;
  A.IdleUs = 15;
  A.TotalCommUs = 50;
  A.TotalMemcpyUs = 10;
  RankSummary B = summary(0, 0, /*HasGpu=*/false);
  B.WallUs = 40;
  std::vector<RankSummary> Ranks{A, B};
  std::string Csv = ranksTable(Ranks, ".").toString();
  EXPECT_EQ(Csv,
            "rank,file,rank_source,wall_time_ms,computation_time_ms,"
            "computation_time_pct,exposed_comm_time_ms,exposed_comm_time_pct,"
            "exposed_memcpy_time_ms,exposed_memcpy_time_pct,busy_time_ms,"
            "busy_time_pct,idle_time_ms,idle_time_pct,total_time_ms,"
            "total_comm_time_ms,total_comm_time_pct,total_memcpy_time_ms,"
            "total_memcpy_time_pct,clock_offset_us\n"
            // No GPU events: no timeline numbers; no clocks: no offset.
            "0,t0.json,distributedInfo.rank,0.04,,,,,,,,,,,,,,,,\n"
            // 150/200 = 75 %, 30/200 = 15 %, 5/200 = 2.5 %, 185/200 = 92.5 %,
            // 15/200 = 7.5 %, 50/200 = 25 %, 10/200 = 5 %.
            "1,t1.json,distributedInfo.rank,0.25,0.15,75.0,0.03,15.0,0.005,"
            "2.5,0.185,92.5,0.015,7.5,0.2,0.05,25.0,0.01,5.0,\n");
}

TEST(JobReport, MarkdownNamesTheSlowestRankAndTheWarnings) {
  JobReport J;
  J.NumTraces = 2;
  J.ExpectedRanks = 3;
  J.Ranks = {summary(0, 100), summary(2, 150)};
  J.Warnings = {"partial job: 2 of 3 ranks; no trace for rank 1"};
  std::string Md = jobMarkdown(J, ".");
  // 150 - 100 = 50 us = 0.050 ms, 50 % of the fastest.
  EXPECT_NE(Md.find("**Slowest rank: rank 2** (`t2.json`): GPU timeline "
                    "0.150 ms, 0.050 ms (50.00 %) longer than the fastest, "
                    "rank 0 (0.100 ms)."),
            std::string::npos)
      << Md;
  EXPECT_NE(Md.find("2 traces, 2 of 3 ranks."), std::string::npos) << Md;
  EXPECT_NE(Md.find("## Warnings\n\n- partial job: 2 of 3 ranks; no trace "
                    "for rank 1\n"),
            std::string::npos)
      << Md;
}

class JobInputsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tl-job", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string touch(llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    return std::string(P);
  }
  llvm::SmallString<256> Dir;
};

TEST_F(JobInputsTest, DirectoryTracesSorted) {
  touch("b.json");
  touch("a.json.gz");
  touch("notes.txt");
  touch(".hidden.json");
  llvm::SmallString<256> Sub(Dir);
  llvm::sys::path::append(Sub, "sub.json");
  ASSERT_FALSE(llvm::sys::fs::create_directory(Sub));
  std::vector<std::string> Args{std::string(Dir)};
  EXPECT_TRUE(isJob(Args));
  auto In = collectJobInputs(Args);
  ASSERT_TRUE(bool(In)) << llvm::toString(In.takeError());
  ASSERT_EQ(In->Traces.size(), 2u);
  EXPECT_EQ(llvm::sys::path::filename(In->Traces[0]), "a.json.gz");
  EXPECT_EQ(llvm::sys::path::filename(In->Traces[1]), "b.json");
  EXPECT_EQ(In->Directory, std::string(Dir));
  EXPECT_EQ(In->DefaultOutDir, (Dir + "/analysis_output").str());
}

TEST_F(JobInputsTest, FilesInTheGivenOrder) {
  std::string B = touch("b.json"), A = touch("a.json");
  std::vector<std::string> One{A};
  EXPECT_FALSE(isJob(One));
  std::vector<std::string> Args{B, A};
  EXPECT_TRUE(isJob(Args));
  auto In = collectJobInputs(Args);
  ASSERT_TRUE(bool(In)) << llvm::toString(In.takeError());
  EXPECT_EQ(In->Traces, Args);
  EXPECT_EQ(In->Directory, "");
  EXPECT_EQ(In->DefaultOutDir, (Dir + "/analysis_output").str());
}

TEST_F(JobInputsTest, Errors) {
  std::string A = touch("a.json");
  std::string Missing = (Dir + "/nope.json").str();
  auto E1 = collectJobInputs({A, Missing});
  ASSERT_FALSE(bool(E1));
  EXPECT_EQ(llvm::toString(E1.takeError()), Missing + ": no such file");
  auto E2 = collectJobInputs({A, std::string(Dir)});
  ASSERT_FALSE(bool(E2));
  EXPECT_EQ(llvm::toString(E2.takeError()),
            std::string(Dir) +
                ": a job is one directory or several trace files, not both");
  llvm::sys::fs::remove(A);
  auto E3 = collectJobInputs({std::string(Dir)});
  ASSERT_FALSE(bool(E3));
  EXPECT_EQ(llvm::toString(E3.takeError()),
            std::string(Dir) +
                ": no trace files (*.json, *.json.gz) in the directory");
}

} // namespace
