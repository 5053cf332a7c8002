//===- JobReportValidator.h - Checking a job's report ----------*- C++ -*-===//
//
// `tl-opt --validate-report DIR` on a job's directory (it holds
// multirank/ranks.csv): ranks.csv has the rank table's columns, every rank
// it lists has its rank<N>/ report, valid by validateReport, whose
// gpu_timeline.csv carries the same numbers, and analysis.md has a row per
// rank. docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_JOBREPORTVALIDATOR_H
#define TL_DRIVER_JOBREPORTVALIDATOR_H

#include "tl/Report/ReportValidator.h"

#include "llvm/ADT/StringRef.h"

namespace tl {

/// Dir holds a job's report (multirank/ranks.csv).
bool isJobReportDir(llvm::StringRef Dir);

/// Never fails: unreadable files are issues (level "job").
ValidationResult validateJobReport(llvm::StringRef Dir);

} // namespace tl

#endif // TL_DRIVER_JOBREPORTVALIDATOR_H
