//===- CollectiveSummary.h - coll_analysis table ---------------*- C++ -*-===//
//
// Spec tracelens-perf-report.md §6.10: communication kernels with a link id,
// grouped by rank, process group, collective, dtype, message sizes and
// stream; duration statistics per group.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_COLLECTIVESUMMARY_H
#define TL_ANALYSIS_COLLECTIVESUMMARY_H

#include "tl/IR/Trace.h"
#include "tl/Support/PyValue.h"

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <optional>
#include <vector>

namespace tl {

class AnalysisManager;

struct CollectiveGroupRow {
  /// rank, Process Group Name, Process Group Ranks, Collective name, Group
  /// size, dtype, In msg nelems, Out msg nelems, In split size, Out split
  /// size, stream. Numeric keys of a column that had a missing value before
  /// dropping are floats (pandas float64), as the reference prints them.
  std::array<PyValue, 11> Keys;
  std::optional<double> InMsgMB, OutMsgMB; // first
  double DurSum = 0, DurMean = 0, DurStd = 0, DurMin = 0, DurMax = 0;
  uint64_t Count = 0;
};

class CollectiveSummary {
public:
  static constexpr llvm::StringLiteral Name = "collective-summary";
  CollectiveSummary(const Trace &T, AnalysisManager &AM);

  static llvm::ArrayRef<const char *> keyNames();
  /// Sorted by the duration sum, descending.
  llvm::ArrayRef<CollectiveGroupRow> groups() const { return Groups; }

private:
  std::vector<CollectiveGroupRow> Groups;
};

/// Bytes per element of an NCCL dtype name ("BFloat16" -> 2), 0 if unknown.
unsigned ncclDtypeBytes(llvm::StringRef Dtype);

} // namespace tl

#endif // TL_ANALYSIS_COLLECTIVESUMMARY_H
