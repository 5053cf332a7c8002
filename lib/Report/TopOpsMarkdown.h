//===- TopOpsMarkdown.h - The share note under Top Operations ---*- C++ -*-===//
#ifndef TL_LIB_REPORT_TOPOPSMARKDOWN_H
#define TL_LIB_REPORT_TOPOPSMARKDOWN_H

#include "tl/Report/ReportModel.h"

namespace llvm {
class raw_ostream;
}

namespace tl {

/// Header of the Top Operations share column (shares of totalKernelMs()).
inline constexpr const char *TopOpsShareColumn = "% of Kernel Time";

/// The line under the Top Operations table: the whole its shares are of,
/// the listed share, and the categories the table leaves out (largest
/// first) with theirs,
/// so listed + not listed = 100 %. The table itself has exactly one row per
/// priority (§8.3 R4), hence a line rather than an "other" row.
///   Shares are of the 215.432 ms of kernel time in all 7 categories:
///   listed 94.3%, not listed 5.7% (other 12.345 ms).
void renderTopOpsShareNote(llvm::raw_ostream &OS, const ReportModel &M);

} // namespace tl

#endif // TL_LIB_REPORT_TOPOPSMARKDOWN_H
