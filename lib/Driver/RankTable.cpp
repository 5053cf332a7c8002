//===- RankTable.cpp - The job's per-rank GPU timeline table --------------===//
#include "tl/Driver/RankTable.h"

#include "tl/Analysis/GpuTimeline.h"
#include "tl/IR/Trace.h"
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

CsvTable ranksTable(ArrayRef<RankSummary> Ranks, StringRef OutDir) {
  // gpu_timeline.csv's rows, in its order; the percent of total_time is
  // always 100 and left out.
  CsvTable Tab({"rank", "file", "rank_source", "wall_time_ms",
                "computation_time_ms", "computation_time_pct",
                "exposed_comm_time_ms", "exposed_comm_time_pct",
                "exposed_memcpy_time_ms", "exposed_memcpy_time_pct",
                "busy_time_ms", "busy_time_pct", "idle_time_ms",
                "idle_time_pct", "total_time_ms", "total_comm_time_ms",
                "total_comm_time_pct", "total_memcpy_time_ms",
                "total_memcpy_time_pct"});
  std::vector<const RankSummary *> Order;
  for (const RankSummary &R : Ranks)
    Order.push_back(&R);
  llvm::sort(Order, [](const RankSummary *A, const RankSummary *B) {
    return A->Claim.Rank < B->Claim.Rank;
  });
  for (const RankSummary *R : Order) {
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
    Tab.addRow(std::move(Row));
  }
  return Tab;
}

} // namespace tl
