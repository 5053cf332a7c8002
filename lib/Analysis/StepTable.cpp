//===- StepTable.cpp - Per-step GPU timeline ------------------------------===//
#include "tl/Analysis/StepTable.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"

#include <algorithm>

using namespace tl;

double tl::clippedLength(llvm::ArrayRef<Interval> V, double S, double E) {
  auto It = std::upper_bound(
      V.begin(), V.end(), S,
      [](double X, const Interval &I) { return X < I.End; });
  double Sum = 0;
  for (; It != V.end() && It->Start < E; ++It)
    Sum += std::min(E, It->End) - std::max(S, It->Start);
  return Sum;
}

StepTable::StepTable(const Trace &T, AnalysisManager &AM) {
  const TraceWindow *Win = traceWindow(T);
  // A window keeps the first step's start measured on the recorded trace
  // (the work of the step before it is not in the IR any more).
  StepWindows W = computeStepWindows(
      T, Win ? std::optional<double>(Win->GpuStart) : std::nullopt);
  if (Win) {
    Flagged = Win->Flags;
    Rule.Median = Win->SteadyMedian;
    Rule.Tol = Win->SteadyTol;
    Rule.TooFew = Win->SteadyTooFew;
  } else {
    Rule = W.Steady;
    for (const StepWindow &S : W.Steps) {
      if (S.Warmup)
        Flagged.push_back({S.Number, "warm-up"});
      if (S.Outlier)
        Flagged.push_back({S.Number, "outlier"});
      if (S.Truncated)
        Flagged.push_back({S.Number, "truncated"});
    }
  }
  if (W.Steps.empty())
    return;
  if (AM.options().StepLaunchMode) {
    LaunchMode = true;
    std::vector<std::vector<EventId>> Launched =
        launchedGpuEvents(T, W.Steps);
    for (size_t I = 0; I < W.Steps.size(); ++I) {
      GpuTimeline S(T, std::move(Launched[I]));
      StepRow R = markedRow(W.Steps[I], Win);
      R.Computation = S.computationTime();
      R.ExposedComm = S.exposedCommTime();
      R.ExposedMemcpy = S.exposedMemcpyTime();
      R.Busy = S.busyTime();
      R.TotalComm = S.totalCommTime();
      R.TotalMemcpy = S.totalMemcpyTime();
      R.Total = S.totalTime();
      Rows.push_back(R);
    }
    return;
  }
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  std::vector<Interval> Comp(TL.merged(GpuBucket::Computation).begin(),
                             TL.merged(GpuBucket::Computation).end());
  std::vector<Interval> Comm(TL.merged(GpuBucket::Communication).begin(),
                             TL.merged(GpuBucket::Communication).end());
  std::vector<Interval> Copy(TL.merged(GpuBucket::Memcpy).begin(),
                             TL.merged(GpuBucket::Memcpy).end());
  // gpu_timeline's exposed sets (GpuTimeline.cpp): comm not under compute,
  // memcpy under neither.
  std::vector<Interval> ExpComm = subtractIntervals(Comp, Comm);
  std::vector<Interval> ExpCopy =
      subtractIntervals(Comm, subtractIntervals(Comp, Copy));
  for (const StepWindow &S : W.Steps) {
    StepRow R = markedRow(S, Win);
    R.Total = S.time();
    R.Computation = clippedLength(Comp, S.Start, S.End);
    R.ExposedComm = clippedLength(ExpComm, S.Start, S.End);
    R.ExposedMemcpy = clippedLength(ExpCopy, S.Start, S.End);
    R.Busy = clippedLength(TL.mergedAll(), S.Start, S.End);
    R.TotalComm = clippedLength(Comm, S.Start, S.End);
    R.TotalMemcpy = clippedLength(Copy, S.Start, S.End);
    Rows.push_back(R);
  }
}

StepRow StepTable::markedRow(const StepWindow &S,
                             const TraceWindow *Win) const {
  StepRow R;
  R.W = S;
  // In a window the flags are the recorded trace's.
  if (Win) {
    R.W.Warmup = R.W.Truncated = R.W.Outlier = false;
    for (const auto &[N, What] : Flagged)
      if (N == S.Number) {
        R.W.Warmup |= What == "warm-up";
        R.W.Outlier |= What == "outlier";
        R.W.Truncated |= What == "truncated";
      }
  }
  return R;
}

std::string StepTable::flagsOf(int64_t Number) const {
  std::string Out;
  for (const auto &[N, What] : Flagged)
    if (N == Number)
      Out += (Out.empty() ? "" : ";") + What;
  return Out;
}
