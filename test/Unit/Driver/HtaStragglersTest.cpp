//===- HtaStragglersTest.cpp - HTA-style candidates and idle per stream ---===//
//
// The HTA algorithms of spec multi-rank.md §5.2 (get_potential_stragglers)
// and §6 (get_idle_time_breakdown), on inputs worked by hand.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/HtaStragglers.h"
#include "tl/Analysis/StepSelection.h"
#include "tl/Driver/StreamIdle.h"
#include "tl/Import/Importer.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>

using namespace tl;

namespace {

const char *AllReduce = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL("
                        "ncclDevKernelArgsStorage<4096ul>)";
const char *AllGather =
    "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

HtaCommKernel kernel(int64_t Step, const char *Name, double Ts, double End) {
  HtaCommKernel K;
  K.Stream = 20;
  K.Step = Step;
  K.Name = SharedName(Name);
  K.Ts = Ts;
  K.Dur = End - Ts;
  return K;
}

/// The spec's 4-rank job (§8.1 table): per rank the NCCL kernels (stream
/// 20) of steps 10 and 11; one kernel per (step, name), so each is its
/// group's last.
std::vector<HtaStragglerInput> mr4(bool BothSteps) {
  const double Ar1[4][2] = {
      {1130, 1270}, {1150, 1271}, {1135, 1270}, {1210, 1272}};
  const double Ag[4][2] = {
      {1270, 1301}, {1271, 1302}, {1270, 1380}, {1350, 1381}};
  const double Ar2[4][2] = {
      {1301, 1441}, {1355, 1441}, {1380, 1442}, {1381, 1441}};
  std::vector<HtaStragglerInput> Out(4);
  for (int R = 0; R < 4; ++R) {
    HtaStragglerInput &In = Out[R];
    In.FirstTs = 1000;
    In.Kernels.push_back(kernel(10, AllReduce, Ar1[R][0], Ar1[R][1]));
    if (BothSteps) {
      In.Steps = {10, 11};
      In.LastEnd = Ar2[R][1];
      In.Kernels.push_back(kernel(11, AllGather, Ag[R][0], Ag[R][1]));
      In.Kernels.push_back(kernel(11, AllReduce, Ar2[R][0], Ar2[R][1]));
    } else {
      // HTA's default drops the last step: gemm 1 and all-reduce 1 end it.
      In.Steps = {10};
      In.LastEnd = Ar1[R][1];
    }
  }
  return Out;
}

std::vector<HtaRankInput> inputs(const std::vector<HtaStragglerInput> &Ins) {
  std::vector<HtaRankInput> Out;
  for (size_t R = 0; R < Ins.size(); ++R)
    Out.push_back({int64_t(R), &Ins[R], 0});
  return Out;
}

} // namespace

// §8.4, include_last_profiler_step=True: mean_iter_time = (1442 - 1000) / 2
// = 221. All-gather durations 31, 31, 110, 31: sample std 39.5; all-reduce
// step 10 (140, 121, 135, 62) std 35.91, step 11 (140, 86, 62, 60) std
// 37.26, mean 36.58 < 39.5: the all-gather family. Its starts 1270, 1271,
// 1270, 1350: the 2nd latest is 1271 -> ranks 3 and 1, once each; ties
// by rank: [1, 3], as HTA returns.
TEST(HtaStragglers, SpecJobBothSteps) {
  std::vector<HtaStragglerInput> Ins = mr4(true);
  HtaStragglerResult R = htaStyleCandidates(inputs(Ins));
  EXPECT_EQ(R.Candidates, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(R.NumSteps, 2u);
  EXPECT_EQ(R.MeanIterUs, 221);
  EXPECT_EQ(R.Stream, 20);
  EXPECT_EQ(R.Kernel, AllGather);
  EXPECT_EQ(candidatesText(R), "1;3");
  // One candidate: the latest start, rank 3.
  EXPECT_EQ(htaStyleCandidates(inputs(Ins), 1).Candidates,
            std::vector<int64_t>{3});
}

// HTA's default (the last step dropped): one step, mean 1272 - 1000 = 272,
// only the all-reduce family; starts 1130, 1150, 1135, 1210 -> 3 and 1.
TEST(HtaStragglers, SpecJobFirstStep) {
  std::vector<HtaStragglerInput> Ins = mr4(false);
  HtaStragglerResult R = htaStyleCandidates(inputs(Ins));
  EXPECT_EQ(R.Candidates, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(R.MeanIterUs, 272);
  EXPECT_EQ(R.Kernel, AllReduce);
}

// The last kernel of a group at least 1 % of the mean iteration: rank 0's
// last all-reduce (ts 500, 5 us) is under 1 % of 1000 us, so its earlier
// one (ts 100, 100 us) counts. Starts 100, 300, 200: with one candidate,
// rank 1 (rank 0 with the short kernel).
TEST(HtaStragglers, ShortKernelsAreSkipped) {
  std::vector<HtaStragglerInput> Ins(3);
  for (HtaStragglerInput &In : Ins) {
    In.Steps = {1};
    In.FirstTs = 0;
    In.LastEnd = 1000;
  }
  // The stored order: per group its last kernel first.
  Ins[0].Kernels = {kernel(1, AllReduce, 500, 505),
                    kernel(1, AllReduce, 100, 200)};
  Ins[1].Kernels = {kernel(1, AllReduce, 300, 350)};
  Ins[2].Kernels = {kernel(1, AllReduce, 200, 260)};
  HtaStragglerResult R = htaStyleCandidates(inputs(Ins), 1);
  EXPECT_EQ(R.MeanIterUs, 1000);
  EXPECT_EQ(R.Candidates, std::vector<int64_t>{1});
  // A clock shift moves rank 2 300 us later: now it starts latest.
  std::vector<HtaRankInput> Shifted = inputs(Ins);
  Shifted[2].ShiftUs = 300;
  EXPECT_EQ(htaStyleCandidates(Shifted, 1).Candidates, std::vector<int64_t>{2});
}

TEST(HtaStragglers, NothingToRank) {
  std::vector<HtaStragglerInput> Ins(2);
  HtaStragglerResult R = htaStyleCandidates(inputs(Ins));
  EXPECT_TRUE(R.Candidates.empty());
  EXPECT_EQ(R.Why, "no rank has a ProfilerStep");
  // Steps but one rank's kernel only: no std across ranks.
  for (HtaStragglerInput &In : Ins) {
    In.Steps = {1};
    In.LastEnd = 100;
  }
  Ins[0].Kernels = {kernel(1, AllReduce, 10, 50)};
  R = htaStyleCandidates(inputs(Ins));
  EXPECT_TRUE(R.Candidates.empty());
  EXPECT_EQ(R.Why, "no communication kernel that two ranks run in one step");
}

namespace {

/// A trace of one process: Events is the traceEvents text.
Trace trace(const std::string &Events) {
  std::string Json = "{\"traceEvents\": [" + Events + "]}";
  auto T = importTraceFromBuffer(Json, "t.json");
  EXPECT_TRUE(bool(T)) << (T ? "" : llvm::toString(T.takeError()));
  return std::move(*T);
}

/// cudaLaunchKernel at Launch, the kernel Name on Stream at [Ts, Ts+Dur],
/// linked by correlation Id and its ac2g flow.
std::string launch(int Id, double Launch, const std::string &Name, int Stream,
                   double Ts, double Dur) {
  std::string I = std::to_string(Id), L = std::to_string(Launch),
              S = std::to_string(Stream), T = std::to_string(Ts);
  return "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
         "\"cudaLaunchKernel\", \"pid\": 100, \"tid\": 100, \"ts\": " +
         L + ", \"dur\": 1, \"args\": {\"correlation\": " + I +
         "}},\n{\"ph\": \"s\", \"cat\": \"ac2g\", \"name\": \"ac2g\", "
         "\"id\": " +
         I + ", \"pid\": 100, \"tid\": 100, \"ts\": " + L +
         "},\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + Name +
         "\", \"pid\": 0, \"tid\": " + S + ", \"ts\": " + T +
         ", \"dur\": " + std::to_string(Dur) +
         ", \"args\": {\"device\": 0, \"stream\": " + S +
         ", \"correlation\": " + I +
         "}},\n{\"ph\": \"f\", \"bp\": \"e\", \"cat\": \"ac2g\", \"name\": "
         "\"ac2g\", \"id\": " +
         I + ", \"pid\": 0, \"tid\": " + S + ", \"ts\": " + T + "}";
}

std::string step(int N, double Ts, double Dur) {
  return "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
         "\"ProfilerStep#" +
         std::to_string(N) +
         "\", \"pid\": 100, \"tid\": 100, \"ts\": " + std::to_string(Ts) +
         ", \"dur\": " + std::to_string(Dur) + "}";
}

} // namespace

// Per (stream, step, name) the kernels longer than every later one, last
// first: all-reduces of 100, 30, 60, 5 us in step 1 keep 5, 60, 100 (30
// is shorter than the later 60). The step's events span [0, 1000)
// (the step) and the kernels up to 905: FirstTs 0, LastEnd 1000. A kernel
// launched outside every step has no iteration.
TEST(HtaStragglers, CollectKeepsTheLastLongKernels) {
  Trace T =
      trace(step(1, 0, 1000) + ",\n" + launch(1, 10, AllReduce, 20, 100, 100) +
            ",\n" + launch(2, 20, AllReduce, 20, 300, 30) + ",\n" +
            launch(3, 30, AllReduce, 20, 400, 60) + ",\n" +
            launch(4, 40, AllReduce, 20, 900, 5) + ",\n" +
            launch(5, 50, "sm90_gemm", 7, 60, 30) + ",\n" +
            launch(6, 1500, AllReduce, 20, 1600, 50));
  StepWindows W = computeStepWindows(T);
  ASSERT_EQ(W.Steps.size(), 1u);
  HtaStragglerInput In = collectHtaStragglerInput(T, W.Steps);
  EXPECT_EQ(In.Steps, std::vector<int64_t>{1});
  EXPECT_EQ(In.FirstTs, 0);
  EXPECT_EQ(In.LastEnd, 1000);
  ASSERT_EQ(In.Kernels.size(), 3u);
  EXPECT_EQ(In.Kernels[0].Ts, 900);
  EXPECT_EQ(In.Kernels[1].Ts, 400);
  EXPECT_EQ(In.Kernels[2].Ts, 100);
  for (const HtaCommKernel &K : In.Kernels) {
    EXPECT_EQ(K.Stream, 20);
    EXPECT_EQ(K.Step, 1);
    EXPECT_EQ(K.Name, AllReduce);
  }
}

// get_idle_time_breakdown on stream 7: [100,150] (launched 90), [160,200]
// (launched 95 < 150, gap 10 < 30: kernel_wait), [300,350] (launched 120
// < 200, gap 100: other), [400,410] (launched 380 > 350: host_wait 50).
// Stream 8 has one kernel: no gap.
TEST(StreamIdle, HtaCategories) {
  Trace T = trace(launch(1, 90, "k", 7, 100, 50) + ",\n" +
                  launch(2, 95, "k", 7, 160, 40) + ",\n" +
                  launch(3, 120, "k", 7, 300, 50) + ",\n" +
                  launch(4, 380, "k", 7, 400, 10) + ",\n" +
                  launch(5, 130, "k", 8, 140, 10));
  std::vector<StreamIdle> S = computeStreamIdle(T);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Stream, 7);
  EXPECT_EQ(S[0].HostWaitUs, 50);
  EXPECT_EQ(S[0].KernelWaitUs, 10);
  EXPECT_EQ(S[0].OtherUs, 100);
  EXPECT_EQ(S[1].Stream, 8);
  EXPECT_EQ(S[1].totalUs(), 0);
}
