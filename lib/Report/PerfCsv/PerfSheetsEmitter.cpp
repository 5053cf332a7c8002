//===- PerfSheetsEmitter.cpp - perf sheets + unified_perf_summary CSVs ----===//
//
// Writes <out>/perf_report_csvs/unified_perf_summary.csv and one CSV per
// non-empty perf-metric sheet (GEMM.csv, SDPA_fwd.csv, ...), as the
// reference's generate_perf_report_pytorch does (spec perf-report §6.6,
// §6.7). GPU-only traces have neither (§0).
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/ComparativeColumns.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/PerfSheets.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/IR/Trace.h"
#include "tl/Report/CsvTable.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/PerfCsvTables.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace tl;

namespace {

/// Cells are already the reference's text; they go in as bare strings.
llvm::Error writeTable(llvm::StringRef Dir, const TextTable &Tab) {
  CsvTable C(Tab.Columns);
  for (const auto &R : Tab.Rows) {
    std::vector<PyValue> Cells;
    Cells.reserve(R.size());
    for (const std::string &S : R)
      Cells.push_back(S.empty() ? PyValue::none() : PyValue::str(S));
    C.addRow(std::move(Cells));
  }
  return writeCsvTable(Dir, Tab.Name + ".csv", C);
}

class PerfSheetsEmitter : public Emitter {
public:
  llvm::StringRef name() const override { return "perf-sheets-csv"; }
  bool needsPassResults() const override { return false; }
  llvm::Error emit(const ReportContext &Ctx) override {
    if (Ctx.T.eventsOfKind(EventKind::CpuOp).empty())
      return llvm::Error::success();
    llvm::SmallString<256> Dir(Ctx.OutputDir);
    llvm::sys::path::append(Dir, PerfCsvDirName);
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      return llvm::createStringError(EC, "cannot create '%s': %s",
                                     Dir.c_str(), EC.message().c_str());
    PerfSheetTables Tabs = perfSheetTables(Ctx);
    if (Tabs.Unified)
      if (llvm::Error E = writeTable(Dir, *Tabs.Unified))
        return E;
    for (const TextTable &S : Tabs.Sheets)
      if (llvm::Error E = writeTable(Dir, S))
        return E;
    return llvm::Error::success();
  }
};

} // namespace

namespace tl {
PerfSheetTables perfSheetTables(const ReportContext &Ctx) {
  PerfSheetTables Out;
  if (Ctx.T.eventsOfKind(EventKind::CpuOp).empty())
    return Out;
  const AnalysisOptions &O = Ctx.AM.options();
  const auto &U = Ctx.AM.get<UnifiedPerfTable>();
  TextTable UT = U.toTable(O.Arch.has_value(), O.IncludeCallStack);
  if (O.Reference) // tl-opt --compare: TraceDiff columns
    addComparativeColumns(UT, Ctx.T, U, Ctx.AM.get<TraceDiff>());
  if (!UT.Rows.empty())
    Out.Unified = std::move(UT);
  Out.Sheets = Ctx.AM.get<PerfSheets>().sheets();
  return Out;
}

std::unique_ptr<Emitter> createPerfSheetsEmitter() {
  return std::make_unique<PerfSheetsEmitter>();
}
} // namespace tl
