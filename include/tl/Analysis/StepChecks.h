//===- StepChecks.h - Warm-up and truncation checks ------*- C++ -*-===//
//
// The checks the quality gate runs on ProfilerSteps (TraceQuality.cpp,
// thresholds in QualityThresholds), shared with --steps=steady so that the
// steps it leaves out are the ones the report flags.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_STEPCHECKS_H
#define TL_ANALYSIS_STEPCHECKS_H

#include "tl/Analysis/ProfilerSteps.h"
#include "tl/Support/Intervals.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

/// The Kineto "PyTorch Profiler (N)" span (first start, last end), if any.
std::optional<Interval> profilerSpan(const Trace &T);

/// Evidence when the first step took more than WarmupStepRatio x the
/// typical step (typicalStepValue).
std::optional<std::string>
warmupStepEvidence(llvm::ArrayRef<ProfilerStep> Steps);

/// The truncation checks of the last step (its time, its GPU events, the
/// profiler's end ProfilerEnd when known): a line per check that fires.
std::vector<std::string>
truncatedStepEvidence(llvm::ArrayRef<ProfilerStep> Steps,
                      std::optional<double> ProfilerEnd);

} // namespace tl

#endif // TL_ANALYSIS_STEPCHECKS_H
