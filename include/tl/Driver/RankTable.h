//===- RankTable.h - The job's per-rank GPU timeline table -----*- C++ -*-===//
//
// One row per rank of a job: its trace's wall time and the eight metrics of
// its own perf_report_csvs/gpu_timeline.csv (the same doubles, so the two
// files print the same numbers). Written as out/multirank/ranks.csv and as
// the table of the job's analysis.md (docs/Distributed.md).
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_RANKTABLE_H
#define TL_DRIVER_RANKTABLE_H

#include "tl/Driver/CollectiveMatch.h"
#include "tl/Driver/HtaStragglers.h"
#include "tl/Driver/JobCriticalPath.h"
#include "tl/Driver/JobSteps.h"
#include "tl/Driver/KernelByRank.h"
#include "tl/Driver/RankResolution.h"
#include "tl/Driver/RankTimeline.h"
#include "tl/Driver/StreamIdle.h"
#include "tl/Report/CsvTable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

class GpuTimeline;
class Trace;
struct ClockAlignment;

/// What the job report keeps of a rank once its IR is freed. Times in µs.
struct RankSummary {
  RankClaim Claim;
  /// Last event end - first event start over every event (CPU and GPU).
  double WallUs = 0;
  /// False: the trace has no GPU events (no gpu_timeline.csv either).
  bool HasGpu = false;
  double ComputationUs = 0, ExposedCommUs = 0, ExposedMemcpyUs = 0,
         BusyUs = 0, IdleUs = 0, TotalUs = 0, TotalCommUs = 0,
         TotalMemcpyUs = 0;
  /// The rank's collective instances and process groups (§4.1), for the
  /// cross-rank matching.
  RankCollectives Collectives;
  /// Entries of the trace's deviceProperties (GPUs the process saw).
  size_t DeviceCount = 0;
  /// (N, T(N)) of each ProfilerStep#N (window step time, §2.4).
  std::vector<std::pair<int64_t, double>> StepTimes;
  /// steps.csv's rows of the rank (JobSteps.h).
  std::vector<RankStep> Steps;
  /// Per GPU event name, by name (KernelByRank.h).
  std::vector<RankKernelStats> Kernels;
  /// The rank's critical path, reduced for the job's (JobCriticalPath.h).
  RankCriticalPath CriticalPath;
  /// The trace's baseTimeNanoseconds (spec §3.3), if any.
  std::optional<int64_t> BaseTimeNs;
  /// rank_timeline.csv's row (RankTimeline.h).
  RankTimeline Timeline;
  /// What the HTA-style straggler candidates need (HtaStragglers.h).
  HtaStragglerInput HtaStraggler;
  /// idle_by_stream.csv's rows of the rank (StreamIdle.h).
  std::vector<StreamIdle> IdleByStream;
  /// Percent of TotalUs, as gpu_timeline.csv's percent column.
  double pct(double Us) const { return TotalUs > 0 ? Us / TotalUs * 100 : 0; }
};

RankSummary summarizeRank(const Trace &T, const GpuTimeline &TL,
                          RankClaim Claim);

/// The rank whose GPU timeline is longest (ties: the lowest rank); null
/// when no rank has GPU events.
const RankSummary *slowestRank(llvm::ArrayRef<RankSummary> Ranks);

/// The summaries by rank (the job tables' row order).
std::vector<const RankSummary *>
inRankOrder(llvm::ArrayRef<RankSummary> Ranks);

/// ranks.csv: Ranks in rank order, the files relative to OutDir; the
/// last column, clock_offset_us, from Clock (empty without it).
CsvTable ranksTable(llvm::ArrayRef<RankSummary> Ranks, llvm::StringRef OutDir,
                    const ClockAlignment *Clock = nullptr);

} // namespace tl

#endif // TL_DRIVER_RANKTABLE_H
