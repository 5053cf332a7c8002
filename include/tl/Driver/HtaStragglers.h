//===- HtaStragglers.h - HTA-style straggler candidates of a job -*- C++
//-*-===//
//
// Spec multi-rank.md §5.2: HTA's get_potential_stragglers(num_candidates=2)
// for HTA users, with the comm regex instead of HTA's `ncclKernel` prefix
// (which no NCCL >= 2.19 kernel has). Over the steps every rank's trace
// analyses: mean_iter_time = (last end - first start of the events of
// those steps) / their number; per (rank, stream, step, kernel name) the
// last comm kernel of at least 1 % of it; the (stream, name) family whose
// durations vary most across ranks (sample std, averaged over the steps);
// per step the ranks whose family kernel starts among the 2 latest; the 2
// ranks flagged most often. Written as job_summary.csv's
// hta_style_candidates, set against tl's straggler (Stragglers.h).
// docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_HTASTRAGGLERS_H
#define TL_DRIVER_HTASTRAGGLERS_H

#include "tl/Report/CsvTable.h"
#include "tl/Support/SharedName.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class Trace;
struct JobReport;
struct StepWindow;

/// A comm kernel of one rank: its stream, the step that launched it.
struct HtaCommKernel {
  int64_t Stream = -1, Step = 0;
  SharedName Name;
  double Ts = 0, Dur = 0;
};

/// What the job keeps of a rank for the HTA-style candidates.
struct HtaStragglerInput {
  /// The rank's ProfilerStep numbers.
  std::vector<int64_t> Steps;
  /// First start and last end over the events of the steps (host events
  /// whose ts is in a step's CPU range, GPU events its host events
  /// launched); meaningful only with steps.
  double FirstTs = 0, LastEnd = 0;
  /// Per (stream, step, name), in order of their last kernel: the kernels
  /// longer than every later one of the group, last first. The last kernel
  /// of at least a threshold is the first of these that is: a few per
  /// group instead of every kernel.
  std::vector<HtaCommKernel> Kernels;
};

/// The rank's input, Steps its step windows (none: no steps, no input).
HtaStragglerInput collectHtaStragglerInput(const Trace &T,
                                           llvm::ArrayRef<StepWindow> Steps);

/// The candidates over the job.
struct HtaStragglerResult {
  /// Flag count descending, ties the lower rank first; at most
  /// NumCandidates. Empty: see Why.
  std::vector<int64_t> Candidates;
  /// Why there are none ("" with candidates).
  std::string Why;
  /// The family the ranking used.
  int64_t Stream = -1;
  std::string Kernel;
  size_t NumSteps = 0;
  double MeanIterUs = 0;
};

/// One rank's input, its rank and what was added to its times (the
/// collectives' clock shift, ClockAlign.h).
struct HtaRankInput {
  int64_t Rank = 0;
  const HtaStragglerInput *In = nullptr;
  double ShiftUs = 0;
};

constexpr unsigned HtaNumCandidates = 2;

HtaStragglerResult
htaStyleCandidates(llvm::ArrayRef<HtaRankInput> Ranks,
                   unsigned NumCandidates = HtaNumCandidates);

/// "1;3".
std::string candidatesText(const HtaStragglerResult &R);

/// job_summary.csv: world_size, ranks, steps, collectives, tl_straggler,
/// hta_style_candidates, hta_style_kernel, agree (one row).
CsvTable jobSummaryTable(const JobReport &J);

/// The analysis.md paragraph: the candidates and where they differ from
/// tl's straggler.
std::string htaStyleMarkdown(const JobReport &J);

} // namespace tl

#endif // TL_DRIVER_HTASTRAGGLERS_H
