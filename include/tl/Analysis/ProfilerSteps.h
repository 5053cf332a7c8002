//===- ProfilerSteps.h - ProfilerStep#N ranges and their stats -*- C++ -*-===//
//
// torch.profiler marks each iteration with a `ProfilerStep#N` user
// annotation. The quality gate uses them to spot warm-up iterations and a
// final step cut short; the helpers are pure so they can be unit-tested.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_PROFILERSTEPS_H
#define TL_ANALYSIS_PROFILERSTEPS_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tl {

/// One profiler step (host-side annotation), with the GPU work launched in it.
struct ProfilerStep {
  int64_t Number = -1; // N of ProfilerStep#N (-1 if not a number)
  EventId Event = NoEvent;
  double Start = 0, End = 0; // µs
  double duration() const { return End - Start; }
  /// GPU events whose launching runtime call starts inside [Start, End).
  uint64_t GpuEvents = 0;
  /// Sum of those GPU events' durations (µs).
  double GpuTime = 0;
};

/// The steps of T in start order (host `user_annotation` events only).
std::vector<ProfilerStep> collectProfilerSteps(const Trace &T);

/// Median of every value except Skip (index), or nullopt when nothing is
/// left.
std::optional<double> medianExcluding(llvm::ArrayRef<double> Values,
                                      size_t Skip);

/// The "typical step" the first and last steps are compared to: the median
/// of the middle values (all but the first and last) when there are at least
/// three, else the median of all but the first; nullopt when empty. Using
/// the middle keeps a warm-up step and a truncated step from masking each
/// other.
std::optional<double> typicalStepValue(llvm::ArrayRef<double> Values);

} // namespace tl

#endif // TL_ANALYSIS_PROFILERSTEPS_H
