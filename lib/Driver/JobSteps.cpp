//===- JobSteps.cpp - A job's steps per rank and its step matrix ----------===//
#include "tl/Driver/JobSteps.h"

#include "tl/Analysis/StepSelection.h"
#include "tl/Driver/RankTable.h"
#include "tl/IR/TraceWindow.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <set>

using namespace llvm;

namespace tl {

std::vector<RankStep> summarizeRankSteps(const Trace &T, const StepWindows &W) {
  std::vector<RankStep> Rows;
  const TraceWindow *Win = traceWindow(T);
  bool AnyGpu = false;
  for (const StepWindow &S : W.Steps)
    AnyGpu |= S.GpuEvents > 0;
  for (const StepWindow &S : W.Steps) {
    RankStep R;
    R.Number = S.Number;
    R.CpuStart = S.CpuStart;
    R.CpuEnd = S.CpuEnd;
    R.Gpu = S.Gpu;
    R.WindowStart = S.Start;
    R.WindowEnd = S.End;
    R.GpuEvents = S.GpuEvents;
    auto Set = [&](StepFlag F, bool On) {
      if (On)
        R.Flags |= uint8_t(F);
    };
    // A window's IR lacks the steps around it: the recorded trace's flags.
    bool Warmup = S.Warmup, Outlier = S.Outlier, Truncated = S.Truncated;
    if (Win) {
      Warmup = Outlier = Truncated = false;
      for (const auto &[N, What] : Win->Flags)
        if (N == S.Number) {
          Warmup |= What == "warm-up";
          Outlier |= What == "outlier";
          Truncated |= What == "truncated";
        }
    }
    bool First = Rows.empty();
    bool Partial = Win ? First && Win->PartialStart && !Win->AllSteps.empty() &&
                             Win->AllSteps.front() == S.Number
                       : First && W.PartialStart;
    Set(StepFlag::Truncated, Truncated);
    Set(StepFlag::NoGpu, AnyGpu && S.GpuEvents == 0);
    Set(StepFlag::PartialStart, Partial);
    Set(StepFlag::Warmup, Warmup);
    Set(StepFlag::Outlier, Outlier);
    Rows.push_back(R);
  }
  return Rows;
}


std::vector<int64_t> jobStepNumbers(ArrayRef<RankSummary> Ranks) {
  std::map<int64_t, size_t> Count;
  for (const RankSummary &R : Ranks) {
    // A number twice on one rank counts once.
    std::set<int64_t> Own;
    for (const RankStep &S : R.Steps)
      if (Own.insert(S.Number).second)
        ++Count[S.Number];
  }
  std::vector<int64_t> Out;
  for (const auto &[N, C] : Count)
    if (C == Ranks.size())
      Out.push_back(N);
  return Out;
}

std::string stepFlagsText(uint8_t Flags) {
  static constexpr std::pair<StepFlag, const char *> Names[] = {
      {StepFlag::Truncated, "truncated"},
      {StepFlag::NoGpu, "no_gpu"},
      {StepFlag::PartialStart, "partial_start"},
      {StepFlag::Warmup, "warmup"},
      {StepFlag::Outlier, "outlier"}};
  std::string Out;
  for (const auto &[F, Name] : Names)
    if (Flags & uint8_t(F))
      Out += (Out.empty() ? "" : ";") + std::string(Name);
  return Out;
}

CsvTable jobStepsTable(ArrayRef<RankSummary> Ranks) {
  CsvTable Tab({"rank", "step", "cpu_start_us", "cpu_end_us", "cpu_dur_us",
                "gpu_start_us", "gpu_end_us", "gpu_lag_us", "window_start_us",
                "window_end_us", "step_time_us", "gpu_events", "flags",
                "selected"});
  std::vector<int64_t> Job = jobStepNumbers(Ranks);
  for (const RankSummary *R : inRankOrder(Ranks))
    for (const RankStep &S : R->Steps) {
      // G(N) and the lag are empty for a step that launched nothing.
      PyValue GpuStart, GpuEnd, Lag;
      if (S.Gpu) {
        GpuStart = pyFloat(S.Gpu->Start);
        GpuEnd = pyFloat(S.Gpu->End);
        Lag = pyFloat(S.Gpu->End - S.CpuEnd);
      }
      Tab.addRow({pyInt(R->Claim.Rank), pyInt(S.Number), pyFloat(S.CpuStart),
                  pyFloat(S.CpuEnd), pyFloat(S.CpuEnd - S.CpuStart), GpuStart,
                  GpuEnd, Lag, pyFloat(S.WindowStart), pyFloat(S.WindowEnd),
                  pyFloat(S.stepTime()), pyInt(int64_t(S.GpuEvents)),
                  pyText(stepFlagsText(S.Flags)),
                  pyInt(llvm::binary_search(Job, S.Number) ? 1 : 0)});
    }
  return Tab;
}

CsvTable stepMatrixTable(ArrayRef<RankSummary> Ranks) {
  std::vector<const RankSummary *> Order = inRankOrder(Ranks);
  std::vector<std::string> Cols = {"step", "T_job_us", "slowest_rank"};
  for (const RankSummary *R : Order)
    Cols.push_back("rank_" + std::to_string(R->Claim.Rank) + "_step_time_us");
  CsvTable Tab(std::move(Cols));
  for (int64_t N : jobStepNumbers(Ranks)) {
    std::vector<double> Times;
    const RankSummary *Slowest = nullptr;
    double Max = 0;
    for (const RankSummary *R : Order) {
      auto S = llvm::find_if(R->Steps,
                             [&](const RankStep &X) { return X.Number == N; });
      Times.push_back(S->stepTime());
      // Ascending ranks: a tie keeps the lower one.
      if (!Slowest || S->stepTime() > Max) {
        Slowest = R;
        Max = S->stepTime();
      }
    }
    std::vector<PyValue> Row = {pyInt(N), pyFloat(Max),
                                pyInt(Slowest->Claim.Rank)};
    for (double T : Times)
      Row.push_back(pyFloat(T));
    Tab.addRow(std::move(Row));
  }
  return Tab;
}

} // namespace tl
