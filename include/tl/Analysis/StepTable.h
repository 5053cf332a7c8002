//===- StepTable.h - Per-step GPU timeline --------------------*- C++ -*-===//
//
// One row per ProfilerStep of the trace (of the --steps window when the IR
// was restricted): the step's window W(N) (tl/Analysis/StepSelection.h)
// and, inside it, the gpu_timeline buckets of GpuTimeline clipped to the
// window (spec multi-rank.md §2.4, step mode `window`): computation,
// exposed communication, exposed memcpy, busy and idle = T(N) - busy. The
// rows of consecutive steps add up to the time they tile. With
// --step-mode=launch the buckets are gpu_timeline's over the GPU events the
// step launched, wherever they ran, and idle is measured from their first
// start to their last end.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_STEPTABLE_H
#define TL_ANALYSIS_STEPTABLE_H

#include "tl/Analysis/StepSelection.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// A step and its timeline inside W(N), in µs.
struct StepRow {
  StepWindow W;
  double Computation = 0, ExposedComm = 0, ExposedMemcpy = 0, Busy = 0,
         TotalComm = 0, TotalMemcpy = 0;
  /// What the buckets are measured over: T(N) (window mode) or the first
  /// start to last end of the launched GPU events (launch mode).
  double Total = 0;
  double idle() const { return Total - Busy; }
};

class StepTable {
public:
  static constexpr llvm::StringLiteral Name = "step-table";
  StepTable(const Trace &T, AnalysisManager &AM);

  llvm::ArrayRef<StepRow> rows() const { return Rows; }
  /// --step-mode=launch measured the rows.
  bool launchMode() const { return LaunchMode; }
  bool empty() const { return Rows.empty(); }
  /// Flagged steps of the recorded trace, (number, "warm-up" / "outlier" /
  /// "truncated"), whether or not the window keeps them.
  llvm::ArrayRef<std::pair<int64_t, std::string>> flagged() const {
    return Flagged;
  }
  /// Flags of one step, "warm-up", "truncated", "warm-up;truncated" or "".
  std::string flagsOf(int64_t Number) const;
  /// The steady-state rule's median, tolerance and too-few verdict on the
  /// recorded trace (its selection is in the window, if any).
  const SteadyRule &steadyRule() const { return Rule; }

private:
  StepRow markedRow(const StepWindow &S, const TraceWindow *Win) const;
  SteadyRule Rule;
  bool LaunchMode = false;
  std::vector<StepRow> Rows;
  std::vector<std::pair<int64_t, std::string>> Flagged;
};

/// Length of the part of the sorted, disjoint intervals V inside [S, E).
double clippedLength(llvm::ArrayRef<Interval> V, double S, double E);

} // namespace tl

#endif // TL_ANALYSIS_STEPTABLE_H
