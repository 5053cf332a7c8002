//===- RankTable.cpp - The job's per-rank GPU timeline table --------------===//
#include "tl/Driver/RankTable.h"

#include "tl/Analysis/CollectiveInstances.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/StepSelection.h"
#include "tl/Driver/ClockAlign.h"
#include "tl/IR/Trace.h"
#include "tl/IR/TraceWindow.h"
#include "tl/Support/RelativePath.h"

#include <algorithm>
#include <limits>

using namespace llvm;

namespace tl {

RankSummary summarizeRank(const Trace &T, const GpuTimeline &TL,
                          RankClaim Claim) {
  RankSummary S;
  S.Claim = std::move(Claim);
  double First = std::numeric_limits<double>::infinity(),
         Last = -std::numeric_limits<double>::infinity();
  for (EventId E = 0, N = EventId(T.size()); E < N; ++E) {
    First = std::min(First, T.ts(E));
    Last = std::max(Last, T.end(E));
  }
  S.WallUs = T.size() ? Last - First : 0;
  S.HasGpu = TL.hasGpuEvents();
  S.ComputationUs = TL.computationTime();
  S.ExposedCommUs = TL.exposedCommTime();
  S.ExposedMemcpyUs = TL.exposedMemcpyTime();
  S.BusyUs = TL.busyTime();
  S.IdleUs = TL.idleTime();
  S.TotalUs = TL.totalTime();
  S.TotalCommUs = TL.totalCommTime();
  S.TotalMemcpyUs = TL.totalMemcpyTime();
  ArgValue Props = T.topLevel().get("deviceProperties");
  S.DeviceCount = Props.isArray() ? Props.size() : 0;
  // A --steps window keeps the first step's start measured on the recorded
  // trace, as the rank's own steps.csv (StepTable).
  const TraceWindow *Win = traceWindow(T);
  StepWindows W = computeStepWindows(
      T, Win ? std::optional<double>(Win->GpuStart) : std::nullopt);
  for (const StepWindow &Step : W.Steps)
    S.StepTimes.push_back({Step.Number, Step.time()});
  S.Steps = summarizeRankSteps(T, W);
  S.Kernels = summarizeRankKernels(T, TL);
  S.BaseTimeNs = T.topLevel().get("baseTimeNanoseconds").asInt();
  S.Timeline = computeRankTimeline(T, TL, W.Steps);
  S.HtaStraggler = collectHtaStragglerInput(T, W.Steps);
  S.IdleByStream = computeStreamIdle(T);
  S.Collectives.Rank = S.Claim.Rank;
  S.Collectives.Instances = collectCollectiveInstances(T, W.Steps);
  for (CollectiveInstance &I : S.Collectives.Instances) {
    if (!I.PgRanks.empty() && !I.PgRanksTruncated && !I.Pg.empty())
      S.Collectives.PgRanks.try_emplace(I.Pg.str(), I.PgRanks);
    I.PgRanks = {};
  }
  // Kept until the job's matching, a rank's share of the job's memory: no
  // growth slack.
  S.Collectives.Instances.shrink_to_fit();
  ArgValue Cfg = T.topLevel().get("distributedInfo").get("pg_config");
  for (size_t I = 0, N = Cfg.isArray() ? Cfg.size() : 0; I < N; ++I) {
    ArgValue G = Cfg[I];
    ArgValue Name = G.get("pg_name"), Ranks = G.get("ranks");
    if (!Name.isString() || !Ranks.isArray())
      continue;
    std::vector<int64_t> Rs;
    for (size_t J = 0, M = Ranks.size(); J < M; ++J)
      if (std::optional<int64_t> R = Ranks[J].asInt())
        Rs.push_back(*R);
    S.Collectives.PgConfig.try_emplace(Name.getString().str(), std::move(Rs));
  }
  return S;
}

const RankSummary *slowestRank(ArrayRef<RankSummary> Ranks) {
  const RankSummary *Best = nullptr;
  for (const RankSummary &R : Ranks)
    if (R.HasGpu &&
        (!Best || R.TotalUs > Best->TotalUs ||
         (R.TotalUs == Best->TotalUs && R.Claim.Rank < Best->Claim.Rank)))
      Best = &R;
  return Best;
}

std::vector<const RankSummary *> inRankOrder(ArrayRef<RankSummary> Ranks) {
  std::vector<const RankSummary *> Order;
  for (const RankSummary &R : Ranks)
    Order.push_back(&R);
  llvm::stable_sort(Order, [](const RankSummary *A, const RankSummary *B) {
    return A->Claim.Rank < B->Claim.Rank;
  });
  return Order;
}

CsvTable ranksTable(ArrayRef<RankSummary> Ranks, StringRef OutDir,
                    const ClockAlignment *Clock) {
  // gpu_timeline.csv's rows, in its order; the percent of total_time is
  // always 100 and left out.
  CsvTable Tab({"rank", "file", "rank_source", "wall_time_ms",
                "computation_time_ms", "computation_time_pct",
                "exposed_comm_time_ms", "exposed_comm_time_pct",
                "exposed_memcpy_time_ms", "exposed_memcpy_time_pct",
                "busy_time_ms", "busy_time_pct", "idle_time_ms",
                "idle_time_pct", "total_time_ms", "total_comm_time_ms",
                "total_comm_time_pct", "total_memcpy_time_ms",
                "total_memcpy_time_pct", "clock_offset_us"});
  for (const RankSummary *R : inRankOrder(Ranks)) {
    std::vector<PyValue> Row{pyInt(R->Claim.Rank),
                             pyText(relativePath(R->Claim.Path, OutDir)),
                             pyText(rankSourceName(R->Claim.Source)),
                             pyFloat(R->WallUs / 1e3)};
    // As gpuTimelineTable: µs / 1e3 and percent() of the same doubles.
    auto Add = [&](double Us, bool Pct) {
      Row.push_back(R->HasGpu ? pyFloat(Us / 1e3) : PyValue::none());
      if (Pct)
        Row.push_back(R->HasGpu ? pyFloat(R->pct(Us)) : PyValue::none());
    };
    Add(R->ComputationUs, true);
    Add(R->ExposedCommUs, true);
    Add(R->ExposedMemcpyUs, true);
    Add(R->BusyUs, true);
    Add(R->IdleUs, true);
    Add(R->TotalUs, false);
    Add(R->TotalCommUs, true);
    Add(R->TotalMemcpyUs, true);
    std::optional<double> Off =
        Clock ? Clock->rankOffset(R->Claim.Rank) : std::nullopt;
    Row.push_back(Off ? pyFloat(*Off) : PyValue::none());
    Tab.addRow(std::move(Row));
  }
  return Tab;
}

} // namespace tl
