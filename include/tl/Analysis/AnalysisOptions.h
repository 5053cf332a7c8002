//===- AnalysisOptions.h - Settings every analysis can read ----*- C++ -*-===//
#ifndef TL_ANALYSIS_ANALYSISOPTIONS_H
#define TL_ANALYSIS_ANALYSISOPTIONS_H

#include "tl/Analysis/ArchSpec.h"

#include <optional>
#include <string>

namespace tl {

class AnalysisManager;
class Trace;

/// Run-wide choices that change what analyses compute. Set by the driver
/// (command line / config file) before any analysis runs; read-only after.
struct AnalysisOptions {
  /// Peak numbers for roofline; nullopt means no roofline columns.
  std::optional<ArchSpec> Arch;
  /// Include GPU events with no launch in the timeline and launcher tables.
  bool IncludeUnlinked = false;
  /// --step-mode=launch: StepTable measures each step over the GPU events
  /// it launched instead of inside its window.
  bool StepLaunchMode = false;
  /// Short-kernel threshold (µs) and histogram bins (spec 6.9).
  double ShortKernelThresholdUs = 10.0;
  unsigned ShortKernelBins = 100;
  /// Split the timeline and the ops_* tables into recompute and
  /// non-recompute rows (activation checkpointing; spec §2.10, §6.11).
  bool DetectRecompute = false;
  /// Agent-reference flavour of the perf tables (spec perf-report §6.11,
  /// traces README): `num_kernels` as a group key of the perf sheets
  /// (--group-by-num-kernels) and `entry_point` / `call_stack_full` columns
  /// in unified_perf_summary (--include-call-stack).
  bool GroupByNumKernels = false;
  bool IncludeCallStack = false;
  /// The inference generator's layout (spec tracelens-inference.md §A,
  /// --mode): ops tables by parent module with call stacks, `_fwd` sheet
  /// names, empty missing param cells, no kernel-summary sheets.
  bool Inference = false;
  /// Comparative mode (tl-opt --compare): the reference trace ("trace 2")
  /// and its own AnalysisManager; both outlive this one. Null = standalone.
  const Trace *Reference = nullptr;
  AnalysisManager *ReferenceAM = nullptr;
};

} // namespace tl

#endif // TL_ANALYSIS_ANALYSISOPTIONS_H
