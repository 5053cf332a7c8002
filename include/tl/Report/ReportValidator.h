//===- ReportValidator.h - The reference's report validation rules -*- C++ -*-===//
//
// `tl-opt --validate-report <dir>` applies tracelens-analysis §8 to a report
// directory (ours or the reference's):
//   level 1  per-tier blocks of analysis.md (and any *_findings.md files):
//            recommendations vs reasoning candidates, **Data:** tables,
//            impact markers;
//   level 2  priority_data.json invariants and the time sanity check (WARN);
//   level 3  analysis.md: sections, executive-summary table, placeholders,
//            Args cells, fusion impact lines, P-items vs priority_data.json,
//            detailed-analysis headings vs candidates, marker grammar;
// plus tl's own checks (linked charts exist, every #anchor link resolves).
// The rules and our deliberate differences: docs/ReportFormat.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_REPORTVALIDATOR_H
#define TL_REPORT_REPORTVALIDATOR_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tl {

struct ValidationIssue {
  enum class Kind { Error, Warning };
  Kind K = Kind::Error;
  /// "L1", "L2", "L3" or "tl".
  std::string Level;
  /// Short rule name ("sections", "R3", "INV1", "markers", ...).
  std::string Rule;
  std::string Message;
};

struct ValidationResult {
  std::vector<ValidationIssue> Issues;
  unsigned Checks = 0;
  bool ok() const;
  unsigned errors() const;
  unsigned warnings() const;
  void print(llvm::raw_ostream &OS, llvm::StringRef Dir) const;
};

/// Validate the report in Dir. Never fails: unreadable files are issues.
ValidationResult validateReport(llvm::StringRef Dir);

/// findings.json's text (File names it in messages) against
/// docs/findings.schema.json: types, required keys, enums, finite numbers.
/// One issue per problem (MaxIssues at most), naming the JSON path and
/// the byte offset.
void checkFindingsSchema(llvm::StringRef Text, llvm::StringRef File,
                         ValidationResult &R, unsigned MaxIssues = 20);

/// When Dir has a manifest (.tl-manifest, written by tl-opt): every file it
/// lists exists, and no file that looks like a tl output (a report file
/// name, or anything in one of the report's folders) is missing from it:
/// such a file is stale, left by an earlier run.
void checkManifest(llvm::StringRef Dir, ValidationResult &R);

/// Level-3 marker scan of one text (§8.1), exposed for unit tests.
void checkMarkers(llvm::StringRef Text, llvm::StringRef Level,
                  ValidationResult &R);

} // namespace tl

#endif // TL_REPORT_REPORTVALIDATOR_H
