//===- CiReports.h - --junit and --sarif files for CI systems ---*- C++ -*-===//
//
// The run as CI systems read it: JUnit XML (one testcase per --fail-on
// clause and per ranked finding; a clause that trips and the findings it
// matched are failures) and SARIF 2.1.0 (one result per ranked finding, the
// trace as its location). Both come from the report model, like every other
// output, and are written atomically. docs/ReportFormat.md, "CI files".
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_CIREPORTS_H
#define TL_REPORT_CIREPORTS_H

#include "tl/Report/Emitter.h"
#include "tl/Report/FailOn.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tl {

struct CiReportInput {
  const ReportModel &Model;
  /// --fail-on's clauses for this run (empty without --fail-on).
  llvm::ArrayRef<GateResult> Gates;
  /// To name the clause each finding matched (null without --fail-on).
  const FailOnExpr *FailOn = nullptr;
  const ReportMetrics &Metrics;
  llvm::ArrayRef<FailedPass> Failed;
  /// "tl-opt".
  llvm::StringRef ToolName;
  /// "0.1.0 (abc1234)".
  llvm::StringRef ToolVersion;
  /// The trace as the file names it: relative to the file's directory.
  std::string TracePath;
};

/// Write File (JUnit XML): suites `fail-on` (one testcase per clause),
/// `findings` (one per ranked finding, global-rank order) and, when a pass
/// failed, `passes` (one error testcase per failed pass).
llvm::Error writeJunitReport(llvm::StringRef File, const CiReportInput &In);

/// Write File (SARIF 2.1.0): one run, a rule per pass, one result per
/// ranked finding in global-rank order.
llvm::Error writeSarifReport(llvm::StringRef File, const CiReportInput &In);

/// The atomic write both use: File's directory ("." when it has none).
llvm::Error writeCiFile(llvm::StringRef File,
                        llvm::function_ref<void(llvm::raw_ostream &)> Write);

} // namespace tl

#endif // TL_REPORT_CIREPORTS_H
