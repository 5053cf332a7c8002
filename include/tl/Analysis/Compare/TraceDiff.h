//===- TraceDiff.h - Ops matched across a trace and a reference -*- C++ -*-===//
//
// Comparative mode (tracelens-analysis §10, docs/Comparative.md). The
// analyzed trace is "trace 1" and the --compare reference is "trace 2", as in
// TraceLens's TraceDiff (perf_report_trace1_csvs/diff_stats.csv).
//
// The two cpu-op call trees (python frames transparent) are merged top-down:
// at every matched pair of ops their child ops are aligned by normalized
// name with a longest common subsequence; aligned pairs are matched and
// merged recursively, the rest are one-sided subtrees. Matched ops get ids
// in pre-order. The lowest common ancestor (LCA) of a GPU event is the
// deepest matched op above its launching runtime call; kernels that differ between the traces (another
// library, an extra transpose, a missing op) meet at the LCA, so its kernel
// time is comparable across vendors.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_COMPARE_TRACEDIFF_H
#define TL_ANALYSIS_COMPARE_TRACEDIFF_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// The kernels of both traces that meet at one matched node.
struct LcaGroup {
  uint32_t Id = 0;          // merged-tree pre-order id
  std::string Name;         // the node's name in trace 1
  EventId Node1 = NoEvent;  // in the analyzed trace
  EventId Node2 = NoEvent;  // in the reference
  std::vector<EventId> Kernels1, Kernels2; // GPU events, file order
  double Time1Us = 0, Time2Us = 0;         // summed durations
};

/// A host op present in only one trace (the top of a one-sided subtree
/// that launches GPU work).
struct OneSidedOp {
  bool InReference = false; // false: only in the analyzed trace
  EventId Op = NoEvent;
  std::string Name;
  uint32_t LcaId = 0;  // the matched node it hangs under (0 = none)
  size_t NumKernels = 0;
  double KernelTimeUs = 0;
};

/// Per kernel name: launches and time in each trace.
struct KernelNameDiff {
  std::string Name;
  uint64_t Count1 = 0, Count2 = 0;
  double Time1Us = 0, Time2Us = 0;
};

class TraceDiff {
public:
  static constexpr llvm::StringLiteral Name = "trace-diff";
  /// Reads AM.options().Reference / ReferenceAM; empty when no reference.
  TraceDiff(const Trace &T, AnalysisManager &AM);

  bool available() const { return Ref != nullptr; }
  const Trace *reference() const { return Ref; }

  /// Groups in merged-tree pre-order (only nodes that are an LCA).
  llvm::ArrayRef<LcaGroup> groups() const { return Groups; }
  /// Group of a GPU event of trace 1 (FromReference=false) or trace 2;
  /// nullptr when it has no matched ancestor.
  const LcaGroup *groupOf(EventId Gpu, bool FromReference) const;
  /// Ops only one trace has, in merged-tree pre-order.
  llvm::ArrayRef<OneSidedOp> oneSidedOps() const { return OneSided; }
  /// Per kernel name, sorted by name.
  llvm::ArrayRef<KernelNameDiff> kernelNames() const { return ByName; }
  /// GPU events with no matched ancestor (trace 1, trace 2).
  llvm::ArrayRef<EventId> unmatched(bool FromReference) const {
    return FromReference ? Unmatched2 : Unmatched1;
  }

  /// Totals over every GPU event with a launcher (µs) and their counts.
  double totalTimeUs(bool FromReference) const {
    return FromReference ? Total2 : Total1;
  }
  size_t numKernels(bool FromReference) const {
    return FromReference ? NumK2 : NumK1;
  }
  /// Framework guess for each trace ("pytorch", "unknown") and the warning
  /// when they differ (empty otherwise).
  llvm::StringRef frameworkWarning() const { return FrameworkWarning; }
  /// deviceProperties names ("" when absent).
  llvm::StringRef device(bool FromReference) const {
    return FromReference ? Device2 : Device1;
  }

  /// Name used to align nodes: `nn.Module: X_<n>` and `ProfilerStep#<n>`
  /// lose their instance suffix.
  static std::string normalizeName(llvm::StringRef Name);

private:
  const Trace *Ref = nullptr;
  std::vector<LcaGroup> Groups;
  std::vector<OneSidedOp> OneSided;
  std::vector<KernelNameDiff> ByName;
  std::vector<EventId> Unmatched1, Unmatched2;
  llvm::DenseMap<EventId, uint32_t> GroupOf1, GroupOf2;
  double Total1 = 0, Total2 = 0;
  size_t NumK1 = 0, NumK2 = 0;
  std::string FrameworkWarning, Device1, Device2;
};

/// Align two name sequences: a longest common subsequence (common prefix and
/// suffix first; where two choices tie, the element of A is left unmatched
/// first). Returns pairs (i, j) of matched positions in increasing order.
/// Sequences too large for the quadratic table are aligned greedily.
std::vector<std::pair<uint32_t, uint32_t>>
alignByName(llvm::ArrayRef<std::string> A, llvm::ArrayRef<std::string> B);

} // namespace tl

#endif // TL_ANALYSIS_COMPARE_TRACEDIFF_H
