//===- CompareEmitters.h - Comparative-mode report files -------*- C++ -*-===//
//
// With tl-opt --compare the driver adds these emitters (they need the
// TraceDiff analysis, see docs/Comparative.md):
//   perf_report_csvs/diff_stats.csv   one row per GPU event of either trace
//                                     with its lowest common ancestor
//                                     (TraceLens TraceDiff columns);
//   diff.md                           the diff view: totals, ops and kernels
//                                     that appeared, disappeared, got slower
//                                     or faster.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_COMPAREEMITTERS_H
#define TL_REPORT_COMPAREEMITTERS_H

#include "tl/Report/CsvTable.h"
#include "tl/Report/Emitter.h"

#include <memory>

namespace tl {

class TraceDiff;

/// diff_stats.csv as a table (trace 1 = ReportContext's trace).
CsvTable diffStatsTable(const Trace &T, AnalysisManager &AM);
/// The diff view as Markdown.
void writeDiffMarkdown(const ReportContext &Ctx, llvm::raw_ostream &OS);

std::unique_ptr<Emitter> createDiffStatsEmitter();
std::unique_ptr<Emitter> createDiffMarkdownEmitter();

} // namespace tl

#endif // TL_REPORT_COMPAREEMITTERS_H
