//===- CompareEmitters.h - Comparative-mode report files -------*- C++ -*-===//
//
// With tl-opt --compare the driver adds these emitters (they need the
// TraceDiff analysis, see docs/Comparative.md):
//   perf_report_csvs/diff_stats.csv   one row per GPU event of either trace
//                                     with its lowest common ancestor
//                                     (TraceLens TraceDiff columns);
//   diff.md                           the diff view: totals, ops and kernels
//                                     that appeared, disappeared, got slower
//                                     or faster;
//   metadata/trace2_gpu_utilization.json  the reference's utilization.
// The reference-schema emitters call writeTrace2ManifestMembers (manifest)
// and analysis.md renders its comparative layout through
// ComparativeMarkdown.h.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_COMPAREEMITTERS_H
#define TL_REPORT_COMPAREEMITTERS_H

#include "tl/Report/CsvTable.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportModel.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
namespace json {
class OStream;
} // namespace json
} // namespace llvm

namespace tl {

class TraceDiff;

/// diff_stats.csv as a table (trace 1 = ReportContext's trace).
CsvTable diffStatsTable(const Trace &T, AnalysisManager &AM);
/// The diff view as Markdown.
void writeDiffMarkdown(const ReportContext &Ctx, llvm::raw_ostream &OS);

std::unique_ptr<Emitter> createDiffStatsEmitter();
std::unique_ptr<Emitter> createDiffMarkdownEmitter();
std::unique_ptr<Emitter> createTrace2MetadataEmitter();

/// One row of trace2_ops_summary_by_category (tracelens-analysis §10.2).
struct Trace2CategoryRow {
  std::string Key; // normalized category key ("gemm", "sdpa_fwd")
  uint64_t Count = 0;
  double TimeMs = 0, Pct = 0, CumPct = 0;
};
/// The reference trace's ("trace 2") utilization and per-category kernel
/// time; nullopt in standalone mode.
struct Trace2Summary {
  Utilization Util;
  std::vector<Trace2CategoryRow> Categories; // time desc
};
std::optional<Trace2Summary> trace2Summary(const ReportContext &Ctx);

/// category_manifest.json members `trace2_gpu_utilization` and
/// `trace2_ops_summary_by_category` (nothing in standalone mode).
void writeTrace2ManifestMembers(llvm::json::OStream &J,
                                const ReportContext &Ctx);
/// "comparative" with a reference trace, else "standalone".
llvm::StringRef comparisonScope(const ReportContext &Ctx);

} // namespace tl

#endif // TL_REPORT_COMPAREEMITTERS_H
