//===- RankOutcomeCodecTest.cpp - Rank outcomes through bytes and back ----===//
//
// What an MPI process sends must come back field for field: the values
// below are arbitrary, distinct per field, and compared one by one.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/RankOutcomeCodec.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tl;

namespace {

RankOutcome sample() {
  RankOutcome O;
  O.Position = 7;
  O.Started = true;
  O.Imported = true;
  O.Ids.Rank = 5;
  O.Ids.WorldSize = 64;
  O.FailedPasses = true;
  O.FailOnTripped = false;
  RankSummary S;
  S.Claim = {"job/rank5.json", 7, 5, RankSource::DistributedInfo};
  S.WallUs = 1234.5;
  S.HasGpu = true;
  S.ComputationUs = 0.1;
  S.ExposedCommUs = 1.0 / 3.0;
  S.ExposedMemcpyUs = 3;
  S.BusyUs = 4;
  S.IdleUs = 5;
  S.TotalUs = 6e10;
  S.TotalCommUs = -0.0;
  S.TotalMemcpyUs = 8;
  S.Collectives.Rank = 5;
  CollectiveInstance I;
  I.Pg = SharedName("0");
  I.PgDesc = SharedName("default_pg");
  I.Seq = 42;
  I.CollName = SharedName("allreduce");
  I.CollType = SharedName("allreduce");
  I.Dtype = SharedName("BFloat16");
  I.InNelems = 1048576;
  I.GroupSize = 64;
  I.PgRanks = {0, 1, 63};
  I.PgRanksTruncated = true;
  I.Stream = 20;
  I.Start = 1000.125;
  I.End = 2000.25;
  I.NumKernels = 2;
  I.Kernel = SharedName("ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  I.Step = 6;
  I.CommsId = 18446744073709551557ull; // above INT64_MAX
  I.GroupRank = 3;
  I.PeerRank = 9;
  I.InSplit = {1, 2, 3};
  I.OutSplit = {4, 5};
  S.Collectives.Instances.push_back(I);
  CollectiveInstance J; // every optional empty
  J.Kernel = SharedName("ncclKernel");
  S.Collectives.Instances.push_back(J);
  // The names again: sent by their number in the name table.
  CollectiveInstance K = I;
  K.Seq = 43;
  S.Collectives.Instances.push_back(K);
  S.Collectives.PgConfig["0"] = {0, 1, 2};
  S.Collectives.PgConfig["1"] = {};
  S.Collectives.PgRanks["3"] = {6, 7};
  S.DeviceCount = 8;
  S.StepTimes = {{5, 10.5}, {6, 11.25}};
  RankCpWindow W;
  W.Step = 5;
  W.Start = 100.5;
  W.End = 300.25;
  for (unsigned K = 0; K < NumCpCategories; ++K)
    W.ByCategory[K] = K + 0.5;
  W.Sink.From = 250;
  W.Sink.To = 300.25;
  W.Sink.ByCategory[2] = 50.25;
  W.Sink.Stop = 1;
  S.CriticalPath.Windows.push_back(W);
  RankCpCollective C;
  C.Chain.From = 100.5;
  C.Chain.To = 1000.125;
  C.Chain.ByCategory[12] = 899.625;
  C.End = 2000.25;
  S.CriticalPath.Collectives.push_back(C);
  S.CriticalPath.Collectives.push_back({});
  S.BaseTimeNs = 1700000000123456789;
  RankTimeline &T = S.Timeline;
  T.HasGpu = true;
  T.RangeStart = 1000;
  T.RangeEnd = 1441;
  T.ComputationUs = 180;
  T.ExposedCommUs = 231;
  T.ExposedMemcpyUs = 1.5;
  T.BusyUs = 411;
  T.TotalCommUs = 311;
  T.TotalMemcpyUs = 2.5;
  T.HostWaitIdleUs = 20;
  T.SyncWaitIdleUs = 4;
  T.OtherIdleUs = 5;
  T.TailIdleUs = 1;
  T.HtaIdleUs = 7;
  T.HtaComputeUs = 170;
  T.HtaNonComputeUs = 234;
  T.HtaKernelUs = 411.25;
  T.HtaOverlapPct = 25.72;
  RankStep St;
  St.Number = 10;
  St.CpuStart = 1000;
  St.CpuEnd = 1100.5;
  St.Gpu = Interval{1030.25, 1270};
  St.WindowStart = 999.5;
  St.WindowEnd = 1270.125;
  St.GpuEvents = 12345;
  St.Flags = uint8_t(StepFlag::PartialStart) | uint8_t(StepFlag::Outlier);
  S.Steps.push_back(St);
  S.Steps.push_back({}); // no GPU work, no flags
  S.Kernels.push_back({SharedName("sm90_gemm"), KernelByRankType::Compute, 7,
                       700.5, 90.25, 110.75});
  // A name the instances sent already goes by its number.
  S.Kernels.push_back({SharedName("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"),
                       KernelByRankType::Comm, 2, 3, 1, 2});
  S.Kernels.push_back({SharedName(), KernelByRankType::Memset, 1, 0, 0, 0});
  S.HtaStraggler.Steps = {10, 11};
  S.HtaStraggler.FirstTs = 1000.5;
  S.HtaStraggler.LastEnd = 1442.25;
  HtaCommKernel HK;
  HK.Stream = 20;
  HK.Step = 11;
  HK.Name = SharedName("ncclDevKernel_AllGather_RING_LL");
  HK.Ts = 1350.125;
  HK.Dur = 31.5;
  S.HtaStraggler.Kernels = {HK, HK};
  S.HtaStraggler.Kernels[1].Step = 10;
  S.IdleByStream = {{7, 1.5, 2.5, 3.5}, {20, 53, 0, 78.25}};
  O.Summary = S;
  return O;
}

TEST(RankOutcomeCodec, EveryFieldComesBack) {
  RankOutcome Failed;
  Failed.Position = 3;
  Failed.Started = true;
  Failed.Error = "job/rank3.json: not a trace";
  std::string Bytes = encodeRankOutcomes({sample(), Failed});
  std::vector<RankOutcome> Out;
  ASSERT_FALSE(bool(decodeRankOutcomes(Bytes, Out)));
  ASSERT_EQ(Out.size(), 2u);

  const RankOutcome &O = Out[0];
  EXPECT_EQ(O.Position, 7u);
  EXPECT_TRUE(O.Started);
  EXPECT_TRUE(O.Imported);
  EXPECT_EQ(O.Ids.Rank, 5);
  EXPECT_EQ(O.Ids.WorldSize, 64);
  EXPECT_TRUE(O.FailedPasses);
  EXPECT_FALSE(O.FailOnTripped);
  EXPECT_TRUE(O.Error.empty());
  ASSERT_TRUE(O.Summary.has_value());
  const RankSummary &S = *O.Summary;
  EXPECT_EQ(S.Claim.Path, "job/rank5.json");
  EXPECT_EQ(S.Claim.Position, 7u);
  EXPECT_EQ(S.Claim.Rank, 5);
  EXPECT_EQ(S.Claim.Source, RankSource::DistributedInfo);
  EXPECT_EQ(S.WallUs, 1234.5);
  EXPECT_TRUE(S.HasGpu);
  EXPECT_EQ(S.ComputationUs, 0.1);
  EXPECT_EQ(S.ExposedCommUs, 1.0 / 3.0);
  EXPECT_EQ(S.ExposedMemcpyUs, 3);
  EXPECT_EQ(S.BusyUs, 4);
  EXPECT_EQ(S.IdleUs, 5);
  EXPECT_EQ(S.TotalUs, 6e10);
  EXPECT_TRUE(std::signbit(S.TotalCommUs));
  EXPECT_EQ(S.TotalMemcpyUs, 8);
  EXPECT_EQ(S.Collectives.Rank, 5);
  ASSERT_EQ(S.Collectives.Instances.size(), 3u);
  const CollectiveInstance &I = S.Collectives.Instances[0];
  EXPECT_EQ(I.Pg, "0");
  EXPECT_EQ(I.PgDesc, "default_pg");
  EXPECT_EQ(I.Seq, 42);
  EXPECT_EQ(I.CollName, "allreduce");
  EXPECT_EQ(I.CollType, "allreduce");
  EXPECT_EQ(I.Dtype, "BFloat16");
  EXPECT_EQ(I.InNelems, 1048576);
  EXPECT_FALSE(I.OutNelems.has_value());
  EXPECT_EQ(I.GroupSize, 64);
  EXPECT_EQ(I.PgRanks, (std::vector<int64_t>{0, 1, 63}));
  EXPECT_TRUE(I.PgRanksTruncated);
  EXPECT_EQ(I.Stream, 20);
  EXPECT_EQ(I.Start, 1000.125);
  EXPECT_EQ(I.End, 2000.25);
  EXPECT_EQ(I.NumKernels, 2u);
  EXPECT_EQ(I.Kernel, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  EXPECT_EQ(I.Step, 6);
  EXPECT_EQ(I.CommsId, 18446744073709551557ull);
  EXPECT_EQ(I.GroupRank, 3);
  EXPECT_EQ(I.PeerRank, 9);
  EXPECT_EQ(I.InSplit, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(I.OutSplit, (std::vector<int64_t>{4, 5}));
  const CollectiveInstance &J = S.Collectives.Instances[1];
  EXPECT_FALSE(J.Seq || J.InNelems || J.GroupSize || J.Step || J.CommsId ||
               J.GroupRank || J.PeerRank);
  EXPECT_TRUE(J.InSplit.empty() && J.OutSplit.empty());
  EXPECT_EQ(J.Stream, -1);
  EXPECT_EQ(J.Kernel, "ncclKernel");
  EXPECT_TRUE(J.Pg.empty() && J.CollName.empty() && J.Dtype.empty());
  const CollectiveInstance &K = S.Collectives.Instances[2];
  EXPECT_EQ(K.Seq, 43);
  EXPECT_EQ(K.Pg, "0");
  EXPECT_EQ(K.PgDesc, "default_pg");
  EXPECT_EQ(K.CollName, "allreduce");
  EXPECT_EQ(K.CollType, "allreduce");
  EXPECT_EQ(K.Dtype, "BFloat16");
  EXPECT_EQ(K.Kernel, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  EXPECT_EQ(S.Collectives.PgConfig.size(), 2u);
  EXPECT_EQ(S.Collectives.PgConfig.at("0"), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_TRUE(S.Collectives.PgConfig.at("1").empty());
  EXPECT_EQ(S.Collectives.PgRanks.at("3"), (std::vector<int64_t>{6, 7}));
  EXPECT_EQ(S.DeviceCount, 8u);
  ASSERT_EQ(S.StepTimes.size(), 2u);
  EXPECT_EQ(S.StepTimes[1], (std::pair<int64_t, double>{6, 11.25}));
  ASSERT_EQ(S.CriticalPath.Windows.size(), 1u);
  const RankCpWindow &W = S.CriticalPath.Windows[0];
  EXPECT_EQ(W.Step, 5);
  EXPECT_EQ(W.Start, 100.5);
  EXPECT_EQ(W.End, 300.25);
  for (unsigned K = 0; K < NumCpCategories; ++K)
    EXPECT_EQ(W.ByCategory[K], K + 0.5);
  EXPECT_EQ(W.Sink.From, 250);
  EXPECT_EQ(W.Sink.To, 300.25);
  EXPECT_EQ(W.Sink.ByCategory[2], 50.25);
  EXPECT_EQ(W.Sink.ByCategory[3], 0);
  EXPECT_EQ(W.Sink.Stop, 1);
  ASSERT_EQ(S.CriticalPath.Collectives.size(), 2u);
  const RankCpCollective &C = S.CriticalPath.Collectives[0];
  EXPECT_EQ(C.Chain.From, 100.5);
  EXPECT_EQ(C.Chain.To, 1000.125);
  EXPECT_EQ(C.Chain.ByCategory[12], 899.625);
  EXPECT_EQ(C.Chain.Stop, -1);
  EXPECT_EQ(C.End, 2000.25);
  EXPECT_EQ(S.CriticalPath.Collectives[1].End, 0);
  EXPECT_EQ(S.BaseTimeNs, std::optional<int64_t>(1700000000123456789));
  const RankTimeline &T = S.Timeline;
  EXPECT_TRUE(T.HasGpu);
  EXPECT_EQ(T.RangeStart, 1000);
  EXPECT_EQ(T.RangeEnd, 1441);
  EXPECT_EQ(T.ComputationUs, 180);
  EXPECT_EQ(T.ExposedCommUs, 231);
  EXPECT_EQ(T.ExposedMemcpyUs, 1.5);
  EXPECT_EQ(T.BusyUs, 411);
  EXPECT_EQ(T.TotalCommUs, 311);
  EXPECT_EQ(T.TotalMemcpyUs, 2.5);
  EXPECT_EQ(T.HostWaitIdleUs, 20);
  EXPECT_EQ(T.SyncWaitIdleUs, 4);
  EXPECT_EQ(T.OtherIdleUs, 5);
  EXPECT_EQ(T.TailIdleUs, 1);
  EXPECT_EQ(T.HtaIdleUs, 7);
  EXPECT_EQ(T.HtaComputeUs, 170);
  EXPECT_EQ(T.HtaNonComputeUs, 234);
  EXPECT_EQ(T.HtaKernelUs, 411.25);
  EXPECT_EQ(T.HtaOverlapPct, std::optional<double>(25.72));
  ASSERT_EQ(S.Steps.size(), 2u);
  const RankStep &St = S.Steps[0];
  EXPECT_EQ(St.Number, 10);
  EXPECT_EQ(St.CpuStart, 1000);
  EXPECT_EQ(St.CpuEnd, 1100.5);
  ASSERT_TRUE(St.Gpu);
  EXPECT_EQ(St.Gpu->Start, 1030.25);
  EXPECT_EQ(St.Gpu->End, 1270);
  EXPECT_EQ(St.WindowStart, 999.5);
  EXPECT_EQ(St.WindowEnd, 1270.125);
  EXPECT_EQ(St.GpuEvents, 12345u);
  EXPECT_EQ(St.Flags,
            uint8_t(StepFlag::PartialStart) | uint8_t(StepFlag::Outlier));
  EXPECT_EQ(S.Steps[1].Number, -1);
  EXPECT_FALSE(S.Steps[1].Gpu);
  EXPECT_EQ(S.Steps[1].Flags, 0);
  ASSERT_EQ(S.Kernels.size(), 3u);
  const RankKernelStats &Kn = S.Kernels[0];
  EXPECT_EQ(Kn.Name, "sm90_gemm");
  EXPECT_EQ(Kn.Type, KernelByRankType::Compute);
  EXPECT_EQ(Kn.Count, 7u);
  EXPECT_EQ(Kn.TotalUs, 700.5);
  EXPECT_EQ(Kn.MinUs, 90.25);
  EXPECT_EQ(Kn.MaxUs, 110.75);
  EXPECT_EQ(S.Kernels[1].Name, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  EXPECT_EQ(S.Kernels[1].Type, KernelByRankType::Comm);
  EXPECT_EQ(S.Kernels[1].TotalUs, 3);
  EXPECT_TRUE(S.Kernels[2].Name.empty());
  EXPECT_EQ(S.Kernels[2].Type, KernelByRankType::Memset);
  const HtaStragglerInput &H = S.HtaStraggler;
  EXPECT_EQ(H.Steps, (std::vector<int64_t>{10, 11}));
  EXPECT_EQ(H.FirstTs, 1000.5);
  EXPECT_EQ(H.LastEnd, 1442.25);
  ASSERT_EQ(H.Kernels.size(), 2u);
  EXPECT_EQ(H.Kernels[0].Stream, 20);
  EXPECT_EQ(H.Kernels[0].Step, 11);
  EXPECT_EQ(H.Kernels[1].Step, 10);
  EXPECT_EQ(H.Kernels[1].Name, "ncclDevKernel_AllGather_RING_LL");
  EXPECT_EQ(H.Kernels[0].Ts, 1350.125);
  EXPECT_EQ(H.Kernels[0].Dur, 31.5);
  ASSERT_EQ(S.IdleByStream.size(), 2u);
  EXPECT_EQ(S.IdleByStream[0].Stream, 7);
  EXPECT_EQ(S.IdleByStream[0].HostWaitUs, 1.5);
  EXPECT_EQ(S.IdleByStream[0].KernelWaitUs, 2.5);
  EXPECT_EQ(S.IdleByStream[0].OtherUs, 3.5);
  EXPECT_EQ(S.IdleByStream[1].Stream, 20);
  EXPECT_EQ(S.IdleByStream[1].OtherUs, 78.25);

  EXPECT_EQ(Out[1].Position, 3u);
  EXPECT_EQ(Out[1].Error, "job/rank3.json: not a trace");
  EXPECT_FALSE(Out[1].Summary.has_value());
  EXPECT_FALSE(Out[1].Imported);
  // And the same bytes again.
  EXPECT_EQ(encodeRankOutcomes(Out), Bytes);
}

TEST(RankOutcomeCodec, TruncatedOrForeignBytesAreAnError) {
  std::string Bytes = encodeRankOutcomes({sample()});
  for (size_t N = 0; N < Bytes.size(); ++N) {
    std::vector<RankOutcome> Out;
    llvm::Error E = decodeRankOutcomes(llvm::StringRef(Bytes).take_front(N),
                                       Out);
    EXPECT_TRUE(bool(E)) << "prefix of " << N << " bytes";
    llvm::consumeError(std::move(E));
  }
  std::string Other = Bytes;
  Other[0] = 9; // another version
  std::vector<RankOutcome> Out;
  llvm::Error E = decodeRankOutcomes(Other, Out);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "rank summaries: unknown format version");
  llvm::Error Extra = decodeRankOutcomes(Bytes + "x", Out);
  EXPECT_TRUE(bool(Extra));
  llvm::consumeError(std::move(Extra));
}

} // namespace
