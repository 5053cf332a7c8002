//===- AllToAllv.h - The job's all_to_allv tables ---------------*- C++ -*-===//
//
// Spec multi-rank.md §5.5 (TraceLens's separate treatment of all_to_allv,
// with its column names and MiB / GiB units): out/multirank/all2allv.csv
// (one row per complete instance), all2allv_summary.csv (per process group
// and dtype) and all2allv_heatmap.csv (what each rank sent each peer, from
// In split size; not written above 1,024 ranks).
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_ALLTOALLV_H
#define TL_DRIVER_ALLTOALLV_H

#include "tl/Driver/CollectiveMatch.h"
#include "tl/Report/CsvTable.h"

#include "llvm/ADT/ArrayRef.h"

namespace tl {

/// True when some matched instance is an all_to_allv.
bool hasAllToAllv(llvm::ArrayRef<MatchedCollective> Cs);

CsvTable allToAllvTable(llvm::ArrayRef<MatchedCollective> Cs);
CsvTable allToAllvSummaryTable(llvm::ArrayRef<MatchedCollective> Cs);
/// (src, dst, total_sent_MB, avg_sent_MB, count) over every all_to_allv
/// member with its splits, any status; src, dst ascending.
CsvTable allToAllvHeatmapTable(llvm::ArrayRef<MatchedCollective> Cs);

/// Jobs above this many ranks get no heat-map (§5.5).
constexpr int64_t AllToAllvHeatmapMaxRanks = 1024;

} // namespace tl

#endif // TL_DRIVER_ALLTOALLV_H
