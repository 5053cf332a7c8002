//===- Recompute.h - Events re-run by activation checkpointing -*- C++ -*-===//
//
// Spec tracelens-perf-report.md §2.10: an event is a recompute when it lies
// under a python_function whose name contains both
// "torch/utils/checkpoint.py" and "recompute_fn". GPU events inherit the
// mark through their launching runtime call.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_RECOMPUTE_H
#define TL_ANALYSIS_RECOMPUTE_H

#include "tl/IR/Trace.h"

#include <vector>

namespace tl {

class AnalysisManager;

class RecomputeMarks {
public:
  static constexpr llvm::StringLiteral Name = "recompute-marks";
  RecomputeMarks(const Trace &T, AnalysisManager &AM);

  bool isRecompute(EventId E) const { return Marks[E]; }
  /// True when any event is a recompute.
  bool any() const { return Any; }

private:
  std::vector<bool> Marks;
  bool Any = false;
};

} // namespace tl

#endif // TL_ANALYSIS_RECOMPUTE_H
