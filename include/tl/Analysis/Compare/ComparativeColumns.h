//===- ComparativeColumns.h - TraceDiff columns of unified_perf_summary -*- C++ -*-===//
//
// In comparative mode TraceLens adds to trace 1's unified_perf_summary, after
// `Kernel Time (µs)_sum`: `speedup (trace2/trace1)`, `delta_us (trace2 -
// trace1)`, `lca_count_trace2`, `lca_id`, `lca_name`,
// `lca_total_kernel_time_trace1_us`, `lca_total_kernel_time_trace2_us`
// (tracelens-analysis §2.3). Per row: the LCA groups of every GPU event in
// the subtrees of its instances (distinct, first met first); t1/t2 = their
// summed kernel times; speedup = t2/t1; delta = t2 - Kernel Time sum.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_COMPARE_COMPARATIVECOLUMNS_H
#define TL_ANALYSIS_COMPARE_COMPARATIVECOLUMNS_H

#include "tl/IR/Trace.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

class TraceDiff;
class UnifiedPerfTable;
struct TextTable;
struct UnifiedPerfRow;

struct ComparativeCells {
  std::optional<double> Speedup, DeltaUs;
  size_t LcaCountTrace2 = 0;
  std::vector<uint32_t> LcaIds;
  std::vector<std::string> LcaNames;
  double LcaTime1Us = 0, LcaTime2Us = 0;
};

/// The comparative cells of one unified_perf_summary row.
ComparativeCells comparativeCells(const Trace &T, const TraceDiff &D,
                                  const UnifiedPerfRow &Row);

/// Insert the seven columns into the unified_perf_summary table built by
/// UnifiedPerfTable::toTable (same row order) after `Kernel Time (µs)_sum`.
void addComparativeColumns(TextTable &Tab, const Trace &T,
                           const UnifiedPerfTable &U, const TraceDiff &D);

} // namespace tl

#endif // TL_ANALYSIS_COMPARE_COMPARATIVECOLUMNS_H
