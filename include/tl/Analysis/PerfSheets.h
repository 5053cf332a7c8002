//===- PerfSheets.h - Per-category perf-metric sheets ----------*- C++ -*-===//
//
// The reference's perf-metric sheets (spec perf-report §6.6): for each sheet
// category (GEMM, SDPA, CONV, UnaryElementwise, ...) every event whose name
// has a model of that sheet, evaluated forward (and backward for split
// sheets), grouped by name + `param:` columns [+ num_kernels], aggregated
// and sorted. Cells are kept as the text the reference CSV prints.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_PERFSHEETS_H
#define TL_ANALYSIS_PERFSHEETS_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// A finished table: column names and rows of cell text ("" = missing).
struct TextTable {
  std::string Name; // sheet / file stem: "GEMM", "SDPA_fwd", ...
  std::vector<std::string> Columns;
  std::vector<std::vector<std::string>> Rows;
  /// Index of a column, or -1.
  int column(llvm::StringRef Name) const;
};

class PerfSheets {
public:
  static constexpr llvm::StringLiteral Name = "perf-sheets";
  PerfSheets(const Trace &T, AnalysisManager &AM);

  /// Non-empty sheets in the reference's order (§4.4: per category `X`, or
  /// `X_fwd` then `X_bwd`).
  llvm::ArrayRef<TextTable> sheets() const { return Sheets; }
  /// Rows skipped because the model raised something other than
  /// NotImplementedError (the reference logs a warning for each).
  llvm::ArrayRef<std::string> warnings() const { return Warnings; }

private:
  std::vector<TextTable> Sheets;
  std::vector<std::string> Warnings;
};

} // namespace tl

#endif // TL_ANALYSIS_PERFSHEETS_H
