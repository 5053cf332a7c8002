//===- RankTimelineTest.cpp - HTA's kernel types and clock offsets --------===//
#include "tl/Driver/RankTimeline.h"
#include "tl/Driver/ClockAlign.h"

#include "gtest/gtest.h"

using namespace tl;

// HTA's rules (spec multi-rank.md §6): re.match anchors at the start,
// first match wins: COMMUNICATION, MEMORY, then the COMPUTATION exclusions.
TEST(RankTimeline, HtaKernelTypes) {
  EXPECT_EQ(htaKernelType("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(x)"),
            HtaKernelType::Communication);
  EXPECT_EQ(htaKernelType("void ncclKernel_AllGather_RING_LL(x)"),
            HtaKernelType::Communication);
  EXPECT_EQ(htaKernelType("hipMemcpyAsync"), HtaKernelType::Communication);
  EXPECT_EQ(htaKernelType("Memcpy HtoD (Pageable -> Device)"),
            HtaKernelType::Memory);
  EXPECT_EQ(htaKernelType("Memset (Device)"), HtaKernelType::Memory);
  EXPECT_EQ(htaKernelType("dma_copy"), HtaKernelType::Memory);
  // Not anchored: OTHER, not MEMORY.
  EXPECT_EQ(htaKernelType("void copy_Memcpy_kernel"), HtaKernelType::Other);
  EXPECT_EQ(htaKernelType("Context Sync"), HtaKernelType::Other);
  EXPECT_EQ(htaKernelType("Stream Wait Event"), HtaKernelType::Other);
  EXPECT_EQ(htaKernelType("cudaLaunchKernel"), HtaKernelType::Other);
  // RCCL's generic kernel does not start with nccl: computation for HTA.
  EXPECT_EQ(htaKernelType("void rcclGenericKernel<1, false>(ncclDevComm*)"),
            HtaKernelType::Computation);
  EXPECT_EQ(htaKernelType("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_kernel"),
            HtaKernelType::Computation);
}

static CollectiveInstance inst(int64_t Seq, double Start, double End) {
  CollectiveInstance I;
  I.Pg = SharedName("0");
  I.Seq = Seq;
  I.CollName = I.CollType = SharedName("allreduce");
  I.Dtype = SharedName("Float");
  I.InNelems = I.OutNelems = 1024;
  I.GroupSize = 2;
  I.Stream = 20;
  I.Start = Start;
  I.End = End;
  I.NumKernels = 1;
  return I;
}

// Two ranks on two nodes (1 GPU each). Rank 1's clock is 10 us ahead and
// its trace's base 5000 ns later (its ts 5 us smaller for one instant):
// after rebasing, its ends read 10 later than rank 0's: offset 10, above
// 10 % of the 20 us transfer.
TEST(ClockAlign, BaseTimesThenNodeOffset) {
  RankCollectives R0, R1;
  R0.Rank = 0;
  R1.Rank = 1;
  R0.PgConfig["0"] = R1.PgConfig["0"] = {0, 1};
  R0.Instances = {inst(1, 100, 150), inst(2, 200, 240)};
  // True starts 130, 200; every end the same true instant.
  R1.Instances = {inst(1, 130 + 10 - 5, 150 + 10 - 5),
                  inst(2, 220 + 10 - 5, 240 + 10 - 5)};
  std::vector<std::optional<int64_t>> Bases{1000000, 1005000};
  ClockAlignment A;
  std::vector<MatchedCollective> Raw =
      matchOnAlignedClocks({R0, R1}, Bases, 1, /*Align=*/false, A);
  EXPECT_EQ(A.BaseShiftUs.at(1), 5);
  EXPECT_EQ(A.NodeOffsetUs.at(0), 0);
  EXPECT_EQ(A.NodeOffsetUs.at(1), 10);
  EXPECT_EQ(A.rankOffset(1), std::optional<double>(10));
  // Transfers min(50, 20) = 20 and min(40, 20) = 20.
  EXPECT_EQ(A.MedianTransferUs, 20);
  EXPECT_EQ(A.LargeNodes, std::vector<int64_t>{1});
  ASSERT_EQ(Raw.size(), 2u);
  EXPECT_EQ(Raw[0].ArrivalSkew, 40); // 140 - 100 on the raw clocks
  std::vector<MatchedCollective> Aligned =
      matchOnAlignedClocks({R0, R1}, Bases, 1, /*Align=*/true, A);
  EXPECT_TRUE(A.Applied);
  ASSERT_EQ(Aligned.size(), 2u);
  EXPECT_EQ(Aligned[0].ArrivalSkew, 30); // the true 130 - 100
  EXPECT_EQ(Aligned[1].ArrivalSkew, 20);
  EXPECT_EQ(Aligned[0].EndSkew, 0);
  ASSERT_TRUE(clockFinding(A).has_value());
  EXPECT_EQ(clockFinding(A)->Id, "MR-CLOCK");
  // Without the GPUs per node: no nodes, no offsets.
  matchOnAlignedClocks({R0, R1}, Bases, std::nullopt, true, A);
  EXPECT_FALSE(A.rankOffset(1).has_value());
  EXPECT_FALSE(clockFinding(A).has_value());
}
