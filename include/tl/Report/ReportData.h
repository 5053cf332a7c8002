//===- ReportData.h - Typed data passes hand the reference files -*- C++ -*-===//
//
// Besides findings, passes hand the report the data behind the reference's
// category_data/ files, in typed form: a category's metrics document, how
// many fusion candidates the trace holds. lib/Report's emitters write the
// files from it; a built-in pass writes none itself (docs/ReportFormat.md,
// "The pass → report contract").
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_REPORTDATA_H
#define TL_REPORT_REPORTDATA_H

#include "tl/Support/PyValue.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tl {

/// One category's metrics, as category_data/<Key>_metrics.json holds them.
struct CategoryMetrics {
  /// The pass that measured them.
  std::string Pass;
  /// The category's file key ("gemm", "cpu_idle"): letters, digits, '_'
  /// and '-'.
  std::string Key;
  /// The document in the reference's schema and key order (shared: the
  /// report's readers and the file emitter use the same one).
  std::shared_ptr<const PyValue> Doc;
  /// The file ends with a newline (tl's system-tier files always have; the
  /// reference's never do: kept so the files stay byte-identical).
  bool TrailingNewline = false;
};

/// Everything of this kind the passes of one run handed over.
struct ReportData {
  /// In pipeline order; a later document for the same key replaces the
  /// earlier one.
  std::vector<CategoryMetrics> Metrics;
  /// Fusion candidates found in the trace (the manifest lists the
  /// kernel_fusion skill when there is at least one).
  uint64_t FusionCandidates = 0;

  /// Add Other's data after this one's.
  void append(ReportData Other);
  /// The metrics document of Key; null when no pass handed one over.
  const CategoryMetrics *metrics(llvm::StringRef Key) const;
};

/// Whether Key can name a category_data/<Key>_metrics.json file.
bool isValidMetricsKey(llvm::StringRef Key);

} // namespace tl

#endif // TL_REPORT_REPORTDATA_H
