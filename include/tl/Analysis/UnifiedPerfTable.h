//===- UnifiedPerfTable.h - One row per unique op with perf data -*- C++ -*-===//
//
// The reference's `unified_perf_summary` (spec tracelens-perf-report.md §6.7):
// the ops that own GPU work (perf-modelled ops, sole backward ops of modelled
// forwards, leaf launchers, synthetic ops), grouped by name, category, thread
// and argument signature, with kernel-time and perf-model statistics. The
// compute-tier passes and the fusion analysis read it; the CSV emitter prints
// it.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_UNIFIEDPERFTABLE_H
#define TL_ANALYSIS_UNIFIEDPERFTABLE_H

#include "tl/IR/Trace.h"
#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl {

class AnalysisManager;

/// pandas-style aggregate of one column over a group (std is the sample
/// std, ddof 1, missing for one value; nullopt when every value was
/// missing; Sum is 0 then).
struct ColumnStats {
  std::optional<double> Mean, Median, Std, Min, Max, Sum;
};

/// One entry of kernel_details_summary (spec §6.5).
struct KernelStat {
  std::string Name;
  int64_t Stream = -1;
  uint64_t Count = 0;
  double TotalUs = 0, MeanUs = 0, MedianUs = 0, StdUs = 0, MinUs = 0,
         MaxUs = 0;
  /// Index of this kernel in the template (first non-empty) instance's
  /// list: call_stack_full lists its tails in summary order.
  size_t Position = 0;
};

struct UnifiedPerfRow {
  // Group keys.
  std::string Name;
  std::string Category; // "op category" ("" when missing)
  std::string ProcessName, ProcessLabel, ThreadName;
  // Python-literal text, exactly as the reference CSV prints it.
  std::string InputDims, InputType, InputStrides, ConcreteInputs;

  /// Only with AnalysisOptions::DetectRecompute (a group key then).
  std::optional<bool> IsRecompute;
  uint64_t ExUid = 0; // UID of the first instance
  uint64_t OperationCount = 0;
  ColumnStats DurationUs; // CPU duration of the op
  std::optional<double> Gflops, DataMovedMB, FlopsPerByte; // first
  std::string ComputeSpec;                                 // "" when none
  std::string RooflineBound; // COMPUTE_BOUND / MEMORY_BOUND / ""
  std::optional<double> RooflineTimeUs;
  ColumnStats PctRoofline;
  ColumnStats TBs, TFLOPSs, KernelTimeUs;
  std::vector<KernelStat> KernelDetails; // sorted as the reference sorts
  /// perf_params as ordered (key, Python-literal value) pairs; nullopt = None.
  std::optional<std::vector<std::pair<std::string, std::string>>> PerfParams;
  bool HasPerfModel = false;
  double Percentage = 0, CumulativePercentage = 0;
  /// First `.py` frame of the call stack ("Not found" when none) and the
  /// call stack text of the reference's call_stack_full column.
  std::string EntryPoint;
  std::string CallStackFull;
  /// `nn.Module` frames above the first instance, outermost first.
  std::vector<std::string> ModuleChain;
  /// The op events of this group (synthetic ops: their launching event).
  std::vector<EventId> Instances;
  bool IsSynthetic = false;
};

struct TextTable;

class UnifiedPerfTable {
public:
  static constexpr llvm::StringLiteral Name = "unified-perf-table";
  UnifiedPerfTable(const Trace &T, AnalysisManager &AM);

  /// Rows sorted by Kernel Time (µs)_sum desc, then ExUid asc.
  llvm::ArrayRef<UnifiedPerfRow> rows() const { return Rows; }

  /// The unified_perf_summary sheet as the reference CSV prints it; with
  /// Roofline the roofline columns, with CallStack entry_point and
  /// call_stack_full (agent-reference flavour). Formatted once per Roofline
  /// flavour (compute-input and two emitters ask, from any thread) and
  /// copied from there.
  TextTable toTable(bool Roofline, bool CallStack) const;

  /// Per-instance collection results (spec §6.7), for tests and passes:
  /// the collected events in DFS order (synthetic ops excluded).
  llvm::ArrayRef<EventId> collected() const { return Collected; }
  /// Number of synthetic ops made.
  size_t numSynthetic() const { return NumSynthetic; }

private:
  /// The table with CallStack, as toTable prints it.
  TextTable format(bool Roofline) const;

  std::vector<UnifiedPerfRow> Rows;
  std::vector<EventId> Collected;
  size_t NumSynthetic = 0;
  bool HasRecompute = false;
  struct TableCache;
  std::shared_ptr<TableCache> Tables;
};

} // namespace tl

#endif // TL_ANALYSIS_UNIFIEDPERFTABLE_H
