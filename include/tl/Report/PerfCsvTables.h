//===- PerfCsvTables.h - perf_report_csvs/ tables --------------*- C++ -*-===//
//
// Builders of the reference's perf-report tables as CsvTables (file and
// column names exactly as TraceLens writes them) and the emitter that writes
// them into <out>/perf_report_csvs/.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_PERFCSVTABLES_H
#define TL_REPORT_PERFCSVTABLES_H

#include "tl/Analysis/PerfSheets.h"
#include "tl/Report/CsvTable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl {

class AnalysisManager;
class CollectiveSummary;
class Emitter;
class GpuTimeline;
class KernelSummary;
class OpTable;
class ShortKernels;
class Trace;
struct ReportContext;

/// Subdirectory of the output directory holding the CSVs.
inline constexpr const char *PerfCsvDirName = "perf_report_csvs";

CsvTable gpuTimelineTable(const GpuTimeline &TL);
CsvTable opsSummaryByCategoryTable(const OpTable &Ops);
CsvTable opsSummaryTable(const OpTable &Ops);
CsvTable opsUniqueArgsTable(const OpTable &Ops);
CsvTable kernelSummaryTable(const KernelSummary &KS);
CsvTable shortKernelHistogramTable(const ShortKernels &SK);
CsvTable shortKernelsSummaryTable(const ShortKernels &SK);
CsvTable collAnalysisTable(const CollectiveSummary &CS);

/// This layer's tables as written (file stem, table), in the reference's
/// order; empty ones are left out as the reference leaves them out.
std::vector<std::pair<std::string, CsvTable>>
perfReportTables(const Trace &T, AnalysisManager &AM);

/// Write this layer's tables into Dir (created when missing).
llvm::Error writePerfCsvTables(const Trace &T, AnalysisManager &AM,
                               llvm::StringRef Dir);

std::unique_ptr<Emitter> createPerfReportCsvEmitter();

/// unified_perf_summary (when it has rows) and the non-empty perf-metric
/// sheets (GEMM, SDPA_fwd, ...), cells as the reference's text; none for
/// GPU-only traces. Sheets point into the AnalysisManager's PerfSheets.
struct PerfSheetTables {
  std::optional<TextTable> Unified;
  llvm::ArrayRef<TextTable> Sheets;
};
PerfSheetTables perfSheetTables(const ReportContext &Ctx);

} // namespace tl

#endif // TL_REPORT_PERFCSVTABLES_H
