//===- RankTimeline.h - Per-rank temporal breakdown of a job ----*- C++ -*-===//
//
// Spec multi-rank.md §6 and §7.1 (rank_timeline.csv, rank_timeline_stats.csv):
// per rank, the gpu_timeline buckets over the analysed range (the steps'
// windows W(first).start..W(last).end, else first to last GPU event), the
// idle time of that range by cause (host_wait / sync_wait / other / tail)
// and HTA's temporal breakdown and comp-comm overlap with HTA's
// kernel-type rules; across ranks, min/median/max and the imbalanced ranks;
// the findings MR-COMPUTE-SKEW, MR-EXPOSED-COMM and MR-LOW-OVERLAP (§7.2).
// Computed while the rank's IR is alive, kept in its RankSummary.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_RANKTIMELINE_H
#define TL_DRIVER_RANKTIMELINE_H

#include "tl/Report/CsvTable.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

class GpuTimeline;
class Trace;
struct JobFinding;
struct MatchedCollective;
struct RankSummary;
struct StepWindow;

/// One row of rank_timeline.csv (µs).
struct RankTimeline {
  /// False: no GPU event in the range (every column empty).
  bool HasGpu = false;
  double RangeStart = 0, RangeEnd = 0;
  double ComputationUs = 0, ExposedCommUs = 0, ExposedMemcpyUs = 0, BusyUs = 0,
         TotalCommUs = 0, TotalMemcpyUs = 0;
  /// Idle gaps by cause; they add up to idleUs().
  double HostWaitIdleUs = 0, SyncWaitIdleUs = 0, OtherIdleUs = 0,
         TailIdleUs = 0;
  /// HTA get_temporal_breakdown / get_comm_comp_overlap.
  double HtaIdleUs = 0, HtaComputeUs = 0, HtaNonComputeUs = 0, HtaKernelUs = 0;
  /// Empty without HTA-communication kernels (HTA's NaN).
  std::optional<double> HtaOverlapPct;

  double totalUs() const { return RangeEnd - RangeStart; }
  double idleUs() const { return totalUs() - BusyUs; }
  /// (total_comm - exposed_comm) / total_comm, %; empty without comm.
  std::optional<double> commHiddenPct() const;
};

/// HTA's kernel types (spec §6, first match wins).
enum class HtaKernelType { Communication, Memory, Computation, Other };
HtaKernelType htaKernelType(llvm::StringRef Name);

/// The rank's row over TL's events, the range from Steps (the trace's
/// step windows; empty: the GPU events' own span).
RankTimeline computeRankTimeline(const Trace &T, const GpuTimeline &TL,
                                 llvm::ArrayRef<StepWindow> Steps);

/// rank_timeline.csv, ranks in rank order.
CsvTable rankTimelineTable(llvm::ArrayRef<RankSummary> Ranks);
/// rank_timeline_stats.csv: one row per metric of rank_timeline.csv.
CsvTable rankTimelineStatsTable(llvm::ArrayRef<RankSummary> Ranks);

/// MR-COMPUTE-SKEW, MR-EXPOSED-COMM, MR-LOW-OVERLAP over the ranks' rows.
std::vector<JobFinding>
timelineFindings(llvm::ArrayRef<RankSummary> Ranks,
                 llvm::ArrayRef<MatchedCollective> Collectives);

} // namespace tl

#endif // TL_DRIVER_RANKTIMELINE_H
