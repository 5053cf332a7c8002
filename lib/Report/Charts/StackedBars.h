//===- StackedBars.h - Horizontal stacked bars, one row per item -*- C++
//-*-===//
//
// The layout the critical path (one row per step) and job (one row per
// rank) charts share: every row a bar of its series' µs on one scale, the
// parts in series order, the total at the bar's end, a legend of the
// series present. Rows, parts and legend carry class / data-* attributes
// (docs/ReportFormat.md, "Charts") so tests read the figures back.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_CHARTS_STACKEDBARS_H
#define TL_LIB_REPORT_CHARTS_STACKEDBARS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tl {

struct StackedSeries {
  std::string Key;   // data-series of the parts
  std::string Label; // legend and tooltips
  llvm::StringRef Color;
};

struct StackedRow {
  std::string Id;         // data-row
  std::string Label;      // left of the bar
  std::vector<double> Us; // one per series
  /// Shown after the total (e.g. "(reached the step start: no)").
  std::string Note;
  double total() const;
};

struct StackedBarsChart {
  std::string Title;
  std::string RowKind; // "step", "rank": the rows' class is RowKind
  std::vector<StackedSeries> Series;
  std::vector<StackedRow> Rows;
  /// Below the bars, above the legend.
  std::string Caption;
  /// Shown when there is no row.
  std::string Empty;
};

/// At most MaxRows rows are drawn; the caption says how many are not.
void renderStackedBars(llvm::raw_ostream &OS, const StackedBarsChart &C,
                       size_t MaxRows = 256);

} // namespace tl

#endif // TL_LIB_REPORT_CHARTS_STACKEDBARS_H
