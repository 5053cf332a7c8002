//===- JobStepsTest.cpp - steps.csv, step_matrix.csv, kernel_by_rank.csv --===//
//
// The per-rank steps and kernels of a small trace, and the job tables over
// summaries written here; every expectation is worked out in the comments
// (spec multi-rank.md §2.4, §6, §7.1).
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/StepSelection.h"
#include "tl/Driver/JobSteps.h"
#include "tl/Driver/KernelByRank.h"
#include "tl/Driver/RankTable.h"
#include "tl/Import/Importer.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

// Steps #1 [100,200), #2 [200,300), #3 [300,400). A kernel without a launch
// runs [50,130]: it ends before the first launched GPU work (150) and after
// C(1).start = 100 -> pre-trace, partial_start. #1 launches gemm [150,180]
// and a memset [185,190]; #2 launches nothing (no_gpu); #3 launches gemm
// [320,340], a memcpy [345,350] and an all-reduce [350,390].
const char *StepsTrace = R"json({"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 200, "dur": 100},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 300, "dur": 100},
  {"ph": "X", "cat": "kernel", "name": "leftover", "pid": 0, "tid": 7, "ts": 50, "dur": 80, "args": {"stream": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 110, "dur": 5, "args": {"correlation": 1}},
  {"ph": "s", "cat": "ac2g", "id": 1, "pid": 1, "tid": 1, "ts": 110},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 150, "dur": 30, "args": {"correlation": 1, "stream": 7}},
  {"ph": "f", "cat": "ac2g", "id": 1, "pid": 0, "tid": 7, "ts": 150, "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "pid": 1, "tid": 1, "ts": 120, "dur": 5, "args": {"correlation": 2}},
  {"ph": "s", "cat": "ac2g", "id": 2, "pid": 1, "tid": 1, "ts": 120},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 185, "dur": 5, "args": {"correlation": 2, "stream": 7}},
  {"ph": "f", "cat": "ac2g", "id": 2, "pid": 0, "tid": 7, "ts": 185, "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 310, "dur": 5, "args": {"correlation": 3}},
  {"ph": "s", "cat": "ac2g", "id": 3, "pid": 1, "tid": 1, "ts": 310},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 320, "dur": 20, "args": {"correlation": 3, "stream": 7}},
  {"ph": "f", "cat": "ac2g", "id": 3, "pid": 0, "tid": 7, "ts": 320, "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 320, "dur": 5, "args": {"correlation": 4}},
  {"ph": "s", "cat": "ac2g", "id": 4, "pid": 1, "tid": 1, "ts": 320},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 345, "dur": 5, "args": {"correlation": 4, "stream": 7}},
  {"ph": "f", "cat": "ac2g", "id": 4, "pid": 0, "tid": 7, "ts": 345, "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 330, "dur": 5, "args": {"correlation": 5}},
  {"ph": "s", "cat": "ac2g", "id": 5, "pid": 1, "tid": 1, "ts": 330},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 20, "ts": 350, "dur": 40, "args": {"correlation": 5, "stream": 20}},
  {"ph": "f", "cat": "ac2g", "id": 5, "pid": 0, "tid": 20, "ts": 350, "bp": "e"}
]})json";

Trace importSteps() {
  auto T = importTraceFromBuffer(StepsTrace, "steps.json");
  EXPECT_TRUE(bool(T)) << (T ? "" : llvm::toString(T.takeError()));
  return T ? std::move(*T) : Trace();
}

TEST(JobSteps, RowsAndFlagsOfARank) {
  Trace T = importSteps();
  StepWindows W = computeStepWindows(T);
  std::vector<RankStep> S = summarizeRankSteps(T, W);
  ASSERT_EQ(S.size(), 3u);
  // W(1) = [max(C.start 100, leftover end 130), max(C.end 200, G.end 190)]
  // = [130, 200], T 70; W(2) = [200, 300] (no GPU work), T 100; W(3) =
  // [300, max(400, 390)] = [300, 400], T 100. Steady rule on 70, 100, 100:
  // m 100, MAD 0, tol 25: |70 - 100| = 30 > 25 -> #1 an outlier.
  EXPECT_EQ(S[0].Number, 1);
  EXPECT_EQ(S[0].WindowStart, 130);
  EXPECT_EQ(S[0].WindowEnd, 200);
  ASSERT_TRUE(S[0].Gpu);
  EXPECT_EQ(S[0].Gpu->Start, 150);
  EXPECT_EQ(S[0].Gpu->End, 190);
  EXPECT_EQ(S[0].GpuEvents, 2u);
  EXPECT_EQ(stepFlagsText(S[0].Flags), "partial_start;outlier");
  EXPECT_FALSE(S[1].Gpu);
  EXPECT_EQ(S[1].GpuEvents, 0u);
  EXPECT_EQ(S[1].stepTime(), 100);
  EXPECT_EQ(stepFlagsText(S[1].Flags), "no_gpu");
  EXPECT_EQ(S[2].GpuEvents, 3u);
  EXPECT_EQ(S[2].Gpu->End, 390);
  EXPECT_EQ(stepFlagsText(S[2].Flags), "");
}

TEST(JobSteps, FlagNamesInTheSpecsOrder) {
  EXPECT_EQ(stepFlagsText(0), "");
  EXPECT_EQ(stepFlagsText(uint8_t(StepFlag::Outlier) |
                          uint8_t(StepFlag::Truncated) |
                          uint8_t(StepFlag::Warmup)),
            "truncated;warmup;outlier");
}

TEST(KernelByRank, StatsOfARank) {
  Trace T = importSteps();
  // The timeline's events (linked only): "leftover" has no launch.
  GpuTimeline TL(T, std::vector<EventId>(T.gpuEvents().begin(),
                                         T.gpuEvents().end()));
  std::vector<EventId> Linked;
  for (EventId E : T.gpuEvents())
    if (T.isLinked(E))
      Linked.push_back(E);
  GpuTimeline LinkedTL(T, Linked);
  std::vector<RankKernelStats> K = summarizeRankKernels(T, LinkedTL);
  // By name: Memcpy..., Memset..., gemm, nccl... (ASCII: upper case first).
  ASSERT_EQ(K.size(), 4u);
  EXPECT_EQ(K[0].Name, "Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(K[0].Type, KernelByRankType::Memcpy);
  EXPECT_EQ(K[1].Name, "Memset (Device)");
  EXPECT_EQ(K[1].Type, KernelByRankType::Memset);
  // gemm 30 and 20: total 50, min 20, max 30.
  EXPECT_EQ(K[2].Name, "gemm");
  EXPECT_EQ(K[2].Type, KernelByRankType::Compute);
  EXPECT_EQ(K[2].Count, 2u);
  EXPECT_EQ(K[2].TotalUs, 50);
  EXPECT_EQ(K[2].MinUs, 20);
  EXPECT_EQ(K[2].MaxUs, 30);
  EXPECT_EQ(K[3].Type, KernelByRankType::Comm);
  EXPECT_EQ(K[3].TotalUs, 40);
  // With every GPU event, the leftover kernel is a name of its own.
  EXPECT_EQ(summarizeRankKernels(T, TL).size(), 5u);
}

RankSummary rank(int64_t R, bool HasGpu = true) {
  RankSummary S;
  S.Claim = RankClaim{"r" + std::to_string(R) + ".json", 0, R,
                      RankSource::DistributedInfo};
  S.HasGpu = HasGpu;
  return S;
}

RankStep step(int64_t N, double Start, double End,
              std::optional<Interval> Gpu = std::nullopt) {
  RankStep S;
  S.Number = N;
  S.CpuStart = Start;
  S.CpuEnd = Start + 10;
  S.Gpu = Gpu;
  S.WindowStart = Start;
  S.WindowEnd = End;
  S.GpuEvents = Gpu ? 1 : 0;
  return S;
}

TEST(JobSteps, TablesOverTheStepsEveryRankHas) {
  // Rank 1 has #5..#7, rank 0 #6 and #7 (listed out of rank order): the
  // job's steps are 6 and 7; #5 of rank 1 is not selected.
  RankSummary R1 = rank(1), R0 = rank(0);
  R1.Steps = {step(5, 0, 50, Interval{5, 40}), step(6, 50, 80),
              step(7, 80, 100, Interval{85, 100})};
  R0.Steps = {step(6, 50, 90), step(7, 90, 100)};
  R0.Steps[1].Flags = uint8_t(StepFlag::Truncated);
  std::vector<RankSummary> Ranks{R1, R0};
  // #6: T 40 (rank 0) vs 30 -> 40, rank 0. #7: T 10 vs 20 -> 20, rank 1.
  EXPECT_EQ(stepMatrixTable(Ranks).toString(),
            "step,T_job_us,slowest_rank,rank_0_step_time_us,"
            "rank_1_step_time_us\n"
            "6,40.0,0,40.0,30.0\n"
            "7,20.0,1,10.0,20.0\n");
  // CPU dur 10 each; G and the lag (G.end - C.end) empty without GPU work:
  // rank 1 #5 lag 40 - 10 = 30, #7 100 - 90 = 10.
  EXPECT_EQ(jobStepsTable(Ranks).toString(),
            "rank,step,cpu_start_us,cpu_end_us,cpu_dur_us,gpu_start_us,"
            "gpu_end_us,gpu_lag_us,window_start_us,window_end_us,"
            "step_time_us,gpu_events,flags,selected\n"
            "0,6,50.0,60.0,10.0,,,,50.0,90.0,40.0,0,,1\n"
            "0,7,90.0,100.0,10.0,,,,90.0,100.0,10.0,0,truncated,1\n"
            "1,5,0.0,10.0,10.0,5.0,40.0,30.0,0.0,50.0,50.0,1,,0\n"
            "1,6,50.0,60.0,10.0,,,,50.0,80.0,30.0,0,,1\n"
            "1,7,80.0,90.0,10.0,85.0,100.0,10.0,80.0,100.0,20.0,1,,1\n");
  // Ties go to the lower rank.
  R1.Steps[1].WindowEnd = 90;
  std::vector<RankSummary> Tie{R0, R1};
  EXPECT_EQ(stepMatrixTable(Tie).toString(),
            "step,T_job_us,slowest_rank,rank_0_step_time_us,"
            "rank_1_step_time_us\n"
            "6,40.0,0,40.0,40.0\n"
            "7,20.0,1,10.0,20.0\n");
  // A rank without steps: no step every rank has.
  std::vector<RankSummary> None{R0, rank(2)};
  EXPECT_TRUE(jobStepNumbers(None).empty());
}

RankKernelStats kernel(llvm::StringRef Name, KernelByRankType Type,
                       uint64_t Count, double Total, double Min, double Max) {
  return {SharedName(Name), Type, Count, Total, Min, Max};
}

TEST(KernelByRank, TableAcrossRanks) {
  // Rank 0: gemm 2 x (10, 20) = 30, nccl 5. Rank 2: gemm 50, copy 4 kernels
  // 5 us (1..2). Rank 1 has no GPU events: not a row, not in the spread.
  RankSummary R0 = rank(0), R1 = rank(1, false), R2 = rank(2);
  R0.Kernels = {kernel("gemm", KernelByRankType::Compute, 2, 30, 10, 20),
                kernel("nccl", KernelByRankType::Comm, 1, 5, 5, 5)};
  R2.Kernels = {kernel("copy", KernelByRankType::Memcpy, 4, 5, 1, 2),
                kernel("gemm", KernelByRankType::Compute, 1, 50, 50, 50)};
  std::vector<RankSummary> Ranks{R2, R1, R0};
  // Totals: gemm 80, copy 5, nccl 5 (the tie by name). Spread of the
  // per-rank totals: gemm (50 - 30) / 40 = 50 %; copy 0 and 5, mean 2.5:
  // 200 %; nccl 5 and 0: 200 %. A rank without the name: count 0.
  EXPECT_EQ(kernelByRankTable(Ranks).toString(),
            "name,kernel_type,rank,count,total_us,mean_us,min_us,max_us,"
            "rank_spread_pct\n"
            "gemm,compute,0,2,30.0,15.0,10.0,20.0,50.0\n"
            "gemm,compute,2,1,50.0,50.0,50.0,50.0,50.0\n"
            "copy,memcpy,0,0,0.0,,,,200.0\n"
            "copy,memcpy,2,4,5.0,1.25,1.0,2.0,200.0\n"
            "nccl,comm,0,1,5.0,5.0,5.0,5.0,200.0\n"
            "nccl,comm,2,0,0.0,,,,200.0\n");
}

TEST(KernelByRank, TwentyNamesAtMost) {
  // 22 names n00..n21 with totals 1..22: the 20 largest, n21 down to n02.
  RankSummary R = rank(0);
  for (int I = 0; I < 22; ++I) {
    char Name[8];
    snprintf(Name, sizeof(Name), "n%02d", I);
    R.Kernels.push_back(
        kernel(Name, KernelByRankType::Compute, 1, I + 1, I + 1, I + 1));
  }
  CsvTable Tab = kernelByRankTable({R});
  ASSERT_EQ(Tab.numRows(), KernelByRankNames);
  EXPECT_EQ(pyStr(Tab.row(0)[0]), "n21");
  EXPECT_EQ(pyStr(Tab.row(19)[0]), "n02");
  // One rank: no spread.
  EXPECT_EQ(pyStr(Tab.row(0)[8]), "0.0");
}

} // namespace
