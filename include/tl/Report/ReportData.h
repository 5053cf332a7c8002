//===- ReportData.h - Typed data passes hand the reference files -*- C++ -*-===//
//
// Besides findings, passes hand the report the data behind the reference's
// category_data/ files, in typed form: a category's metrics document, the
// multi-kernel data, the fusion candidates. lib/Report's emitters write the
// files from it and the report reads it; no pass writes those files itself
// (FindingSink::artifact refuses them; docs/ReportFormat.md, "The pass →
// report contract").
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_REPORTDATA_H
#define TL_REPORT_REPORTDATA_H

#include "tl/Support/PyValue.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// How a document's file spells its strings.
enum class JsonSpelling {
  /// json.dumps(indent=2): non-ASCII as \u escapes (the reference's files).
  Python,
  /// llvm::json with indent 2: UTF-8 as is (the files tl wrote with it
  /// before they had typed data; kept byte-identical).
  Tl,
};

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
  JsonSpelling Spelling = JsonSpelling::Python;
};

/// One candidate of category_data/fusion_candidates.json.
struct FusionCandidateEntry {
  /// Its members before input_dims, in the file's order (a dict).
  PyValue Members;
  /// input_dims, the last member: args["Input Dims"] of the candidate's
  /// op as the trace spells it (JSON text, "" for null), written as it is.
  std::string InputDims;
};

/// Everything of this kind the passes of one run handed over.
struct ReportData {
  /// In pipeline order; a later document for the same key replaces the
  /// earlier one.
  std::vector<CategoryMetrics> Metrics;
  /// category_data/multi_kernel_data.json (null: no pass handed it over).
  /// A later document replaces the earlier one.
  std::shared_ptr<const PyValue> MultiKernelData;
  /// category_data/fusion_candidates.json (none: no pass looked for
  /// candidates; the manifest lists the kernel_fusion skill when there is
  /// at least one). A later list replaces the earlier one.
  std::optional<std::vector<FusionCandidateEntry>> FusionCandidates;

  uint64_t fusionCandidateCount() const {
    return FusionCandidates ? FusionCandidates->size() : 0;
  }

  /// Add Other's data after this one's.
  void append(ReportData Other);
  /// The metrics document of Key; null when no pass handed one over.
  const CategoryMetrics *metrics(llvm::StringRef Key) const;
};

/// Whether Key can name a category_data/<Key>_metrics.json file.
bool isValidMetricsKey(llvm::StringRef Key);

} // namespace tl

#endif // TL_REPORT_REPORTDATA_H
