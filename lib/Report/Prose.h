//===- Prose.h - Deterministic, evidence-citing report prose ----*- C++ -*-===//
//
// Where the reference has an LLM write sentences (tracelens-analysis §11.2),
// tl writes them from templates per finding kind: one concrete mechanism per
// action, the metric expected to move, and the numbers the sentence rests
// on. Every sentence is wrapped in a prose hook
//   <!-- tl-prose finding=<id> field=<field> -->text<!-- /tl-prose -->
// so an LLM runner (agents/) can replace or extend it without touching the
// numbers, tables or markers around it.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_PROSE_H
#define TL_LIB_REPORT_PROSE_H

#include "tl/Report/ReportModel.h"

#include <string>

namespace tl {

struct Prose {
  std::string Title;
  std::string Insight;
  std::string Action;
  std::string Identification;
  std::string Reasoning;
  std::string Resolution;
  std::string Expected;
};

/// Sentences for one P-item.
Prose writeProse(const PItem &P, const ReportModel &M);

/// The executive-summary paragraph.
std::string executiveSummaryProse(const ReportModel &M);

/// Wrap Text in the prose hook of (Id, Field).
std::string proseHook(llvm::StringRef Id, llvm::StringRef Field,
                      llvm::StringRef Text);

} // namespace tl

#endif // TL_LIB_REPORT_PROSE_H
