//===- Stragglers.h - Straggler ranks of a job -----------------*- C++ -*-===//
//
// Spec multi-rank.md §5.2 (tl's table) and §7.2: over the complete
// implicit-sync collectives of the job, per rank how often it arrives last
// and the waiting it causes (blame), per step which rank is last, and the
// system-tier findings (MR-STRAGGLER, MR-IMBALANCE, MR-DATA) that name the
// rank, the collective and the time. Works on the matched collectives and
// the rank summaries only.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_STRAGGLERS_H
#define TL_DRIVER_STRAGGLERS_H

#include "tl/Driver/CollectiveMatch.h"
#include "tl/Driver/RankTable.h"
#include "tl/Report/CsvTable.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

/// stragglers.csv, one row (µs).
struct RankStragglerRow {
  int64_t Rank = 0;
  unsigned Instances = 0, TimesLast = 0, TimesFirst = 0;
  double TotalWait = 0, Blame = 0, CausedSkew = 0;
  /// IdleUs: the rank's host_wait idle (rank_timeline.csv), else its
  /// gpu_timeline idle.
  double CommKernelUs = 0, ComputationUs = 0, IdleUs = 0;
  double BlameShare = 0; // % of the job's blame
  double meanWait() const { return Instances ? TotalWait / Instances : 0; }
  double pctLast() const {
    return Instances ? 100.0 * TimesLast / Instances : 0;
  }
};

/// straggler_steps.csv: per ProfilerStep, the rank most often last.
struct StepStragglerRow {
  int64_t Step = 0;
  unsigned Instances = 0, TimesLast = 0;
  int64_t LastRank = 0;
  double MeanSkew = 0, Blame = 0;
};

/// A system-tier finding of the job (category "multirank").
struct JobFinding {
  std::string Id, Severity, Title, Detail;
  std::optional<int64_t> Rank;
  std::string Collective; // coll type the finding is about
  double TimeUs = 0;      // the time it names (mean lateness, skew)
  double ImpactPct = 0;
};

struct StragglerAnalysis {
  /// blame descending, then rank.
  std::vector<RankStragglerRow> Ranks;
  std::vector<StepStragglerRow> Steps; // step order
  /// Σ over the steps every rank has of max_r T_r(N); without steps the
  /// longest GPU timeline.
  double SumTJob = 0;
  /// Steps the sum covers (empty: none).
  std::vector<int64_t> JobSteps;
  std::optional<int64_t> Straggler;
  std::vector<JobFinding> Findings;
};

StragglerAnalysis analyzeStragglers(llvm::ArrayRef<MatchedCollective> Cs,
                                    llvm::ArrayRef<RankSummary> Ranks);

CsvTable stragglersTable(const StragglerAnalysis &S);
CsvTable stepStragglersTable(const StragglerAnalysis &S);
/// The analysis.md sections "Stragglers" and "Job findings".
std::string stragglersMarkdown(const StragglerAnalysis &S);
/// multirank/findings.json.
std::string jobFindingsJson(const StragglerAnalysis &S);

} // namespace tl

#endif // TL_DRIVER_STRAGGLERS_H
