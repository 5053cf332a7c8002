//===- JobReport.h - The report of a multi-rank job ------------*- C++ -*-===//
//
// What a job writes next to its ranks' own reports (out/rank<N>/):
// out/analysis.md, the per-rank GPU timeline table with the slowest rank
// named and the job's warnings, and out/multirank/ranks.csv, the same table
// (RankTable.h). docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_JOBREPORT_H
#define TL_DRIVER_JOBREPORT_H

#include "tl/Driver/ClockAlign.h"
#include "tl/Driver/CollectiveBandwidth.h"
#include "tl/Driver/CollectiveMatch.h"
#include "tl/Driver/CompatTables.h"
#include "tl/Driver/HtaStragglers.h"
#include "tl/Driver/JobCriticalPath.h"
#include "tl/Driver/RankTable.h"
#include "tl/Driver/Stragglers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tl {

struct JobReport {
  /// The directory the traces came from ("" for a list of files).
  std::string Directory;
  size_t NumTraces = 0;
  /// The job should have ranks 0..ExpectedRanks-1.
  int64_t ExpectedRanks = 0;
  /// Rank order.
  std::vector<RankSummary> Ranks;
  std::vector<std::string> Warnings;
  /// Cross-rank analysis (crossRankAnalysis), from the summaries.
  std::vector<MatchedCollective> Collectives;
  /// Every rank's deviceProperties length when they agree and it is >= 2
  /// (spec §3.2 rule 4).
  std::optional<int64_t> GpusPerNode;
  StragglerAnalysis Stragglers;
  /// TraceLens's view of the same collectives (compat/, CompatTables.h).
  TraceLensCompat Compat;
  /// HTA's get_potential_stragglers with the comm regex (§5.2).
  HtaStragglerResult HtaStyle;
  /// The job's critical path across ranks (JobCriticalPath.h).
  JobCriticalPath CriticalPath;
  /// --align=collective (spec §3.3); the clock offsets found.
  bool AlignCollective = false;
  ClockAlignment Clock;
  /// A fixed --arch file's link peaks, for MR-COLL-BW.
  LinkPeaks Links;
};

/// Match the ranks' collectives and fill J's cross-rank fields.
void crossRankAnalysis(JobReport &J);

/// analysis.md's text; paths relative to OutDir.
std::string jobMarkdown(const JobReport &J, llvm::StringRef OutDir);

/// Write OutDir/analysis.md and OutDir/multirank/ranks.csv, atomically.
/// WriteDir ("" = OutDir) is where the files go (a staging directory);
/// the paths they print are relative to OutDir.
llvm::Error writeJobReport(const JobReport &J, llvm::StringRef OutDir,
                           llvm::StringRef WriteDir = "");

} // namespace tl

#endif // TL_DRIVER_JOBREPORT_H
