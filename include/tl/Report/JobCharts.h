//===- JobCharts.h - The charts of a multi-rank job's report ----*- C++ -*-===//
//
// Two SVG charts of the job report (docs/Distributed.md), drawn from plain
// per-rank and per-collective figures so the Report layer needs nothing of
// the driver's job types:
//   rank_breakdown.svg   one stacked bar per rank: computation, exposed
//                        communication, exposed memcpy and idle, which add
//                        up to the rank's GPU timeline (gpu_timeline.csv).
//   collective_skew.svg  ranks x matched collectives, each cell how late the
//                        rank arrived (its start minus the first member's);
//                        the darker, the later.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_JOBCHARTS_H
#define TL_REPORT_JOBCHARTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tl {

/// One rank of rank_breakdown.svg (µs).
struct JobRankBar {
  int64_t Rank = 0;
  bool HasGpu = false;
  double ComputationUs = 0, ExposedCommUs = 0, ExposedMemcpyUs = 0, IdleUs = 0;
};

void renderRankBreakdownSvg(llvm::raw_ostream &OS,
                            llvm::ArrayRef<JobRankBar> Ranks,
                            llvm::StringRef Title);

/// A rank's arrival at a collective (a cell of the heatmap).
struct SkewCell {
  enum class Kind : uint8_t { Missing, Arrived };
  size_t Row = 0; // index into SkewHeatmap::Ranks
  Kind K = Kind::Arrived;
  double LateUs = 0; // Arrived: start - the first member's start
};

/// One matched collective (a column of the heatmap): a cell per member of
/// its group; ranks without a cell are not members.
struct SkewColumn {
  std::string Id;   // collectives.csv's instance_id
  std::string Type; // coll_type
  std::optional<int64_t> Step;
  std::vector<SkewCell> Cells;
};

struct SkewHeatmap {
  std::vector<int64_t> Ranks; // rows, in this order
  std::vector<SkewColumn> Columns;
};

/// Past MaxCols columns (MaxRows rows) consecutive ones share a cell,
/// which shows the latest arrival among them.
void renderSkewHeatmapSvg(llvm::raw_ostream &OS, const SkewHeatmap &H,
                          llvm::StringRef Title, size_t MaxCols = 120,
                          size_t MaxRows = 128);

} // namespace tl

#endif // TL_REPORT_JOBCHARTS_H
