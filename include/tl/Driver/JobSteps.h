//===- JobSteps.h - A job's steps per rank and its step matrix -*- C++ -*-===//
//
// Spec multi-rank.md §2.4 and §7.1: steps.csv, one row per rank and
// ProfilerStep (C(N), G(N), GPU lag, W(N), T(N), K(N), the step's flags and
// whether the job analyses it), and step_matrix.csv, one row per step every
// rank has (T_job = the slowest rank's T(N), that rank, every rank's
// T(N)). A rank's rows are taken while its IR is alive and kept in its
// RankSummary (docs/Distributed.md, "Steps across ranks").
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_JOBSTEPS_H
#define TL_DRIVER_JOBSTEPS_H

#include "tl/Report/CsvTable.h"
#include "tl/Support/Intervals.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class Trace;
struct RankSummary;
struct StepWindows;

/// §2.4's step flags, in steps.csv's order.
enum class StepFlag : uint8_t {
  Truncated = 1,
  NoGpu = 2,
  PartialStart = 4,
  Warmup = 8,
  Outlier = 16,
};

/// One ProfilerStep of a rank (µs).
struct RankStep {
  int64_t Number = -1;
  double CpuStart = 0, CpuEnd = 0;       // C(N)
  std::optional<Interval> Gpu;           // G(N)
  double WindowStart = 0, WindowEnd = 0; // W(N)
  uint64_t GpuEvents = 0;                // K(N)
  /// StepFlag bits.
  uint8_t Flags = 0;

  bool has(StepFlag F) const { return Flags & uint8_t(F); }
  double stepTime() const { return WindowEnd - WindowStart; }
};

/// The rows of W, the windows of T's steps (computeStepWindows). On a
/// --steps window the warm-up, outlier, truncated and partial-start flags
/// are the recorded trace's (TraceWindow); no_gpu is among the steps kept.
std::vector<RankStep> summarizeRankSteps(const Trace &T, const StepWindows &W);

/// The ProfilerStep numbers every rank has, ascending: the steps the job
/// analyses (spec §2.4, "step numbers differ across ranks").
std::vector<int64_t> jobStepNumbers(llvm::ArrayRef<RankSummary> Ranks);

/// "truncated;warmup", "" (§7.1's names, in its order).
std::string stepFlagsText(uint8_t Flags);

/// steps.csv: rank order, then step order; `selected` is 1 for the steps
/// of jobStepNumbers.
CsvTable jobStepsTable(llvm::ArrayRef<RankSummary> Ranks);

/// step_matrix.csv: the steps of jobStepNumbers; slowest_rank the one with
/// the largest T(N) (ties: the lower rank); a column per rank, ascending.
CsvTable stepMatrixTable(llvm::ArrayRef<RankSummary> Ranks);

} // namespace tl

#endif // TL_DRIVER_JOBSTEPS_H
