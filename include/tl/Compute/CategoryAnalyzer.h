//===- CategoryAnalyzer.h - One compute category, end to end ---*- C++ -*-===//
//
// The runner every compute pass shares (tracelens-analysis §5.1): select the
// category's rows, build operations[], let the pass classify ops and fill
// category_specific, estimate impact, group into findings and render
// category_data/<key>_metrics.json. ComputeInput is the cached analysis that
// holds the rows every compute pass reads.
//
//===----------------------------------------------------------------------===//
#ifndef TL_COMPUTE_CATEGORYANALYZER_H
#define TL_COMPUTE_CATEGORYANALYZER_H

#include "tl/Compute/ComputeCore.h"

#include <functional>
#include <string>
#include <vector>

namespace tl {
class Trace;
class AnalysisManager;
class FindingSink;
struct UnifiedPerfRow;
} // namespace tl

namespace tl::compute {

/// `GEMM` -> `gemm`, `NORM_fwd` -> `norm_fwd`, empty -> `other` (§3.6).
std::string categoryKeyOf(llvm::StringRef Label);

/// The agent-flavour unified_perf_summary with E2E, peaks and the fusion
/// map: everything a compute pass reads, computed once per trace.
class ComputeInput {
public:
  static constexpr llvm::StringLiteral Name = "compute-input";
  ComputeInput(const Trace &T, AnalysisManager &AM);
  /// For tests: a hand-made table.
  ComputeInput(TextTable Table, double E2EMs, Peaks P,
               FusionKernelMap Fusion = {});

  const TextTable &table() const { return Table; }
  double e2eMs() const { return E2EMs; }
  /// tl-opt --compare: the table has the TraceDiff columns (§10).
  bool comparative() const { return Comparative; }
  const Peaks &peaks() const { return P; }
  const FusionKernelMap &fusionMap() const { return Fusion; }
  /// Category keys in order of first appearance, with their display label.
  const std::vector<std::pair<std::string, std::string>> &categories() const {
    return Categories;
  }
  /// Row indices of one category key, in table order.
  std::vector<size_t> rowsOf(llvm::StringRef Key) const;
  /// The typed row behind table row I (null for hand-made tables).
  const UnifiedPerfRow *typedRow(size_t I) const;

private:
  void index();
  TextTable Table;
  std::vector<const UnifiedPerfRow *> Typed;
  double E2EMs = 0;
  Peaks P;
  FusionKernelMap Fusion;
  bool Comparative = false;
  std::vector<std::pair<std::string, std::string>> Categories;
};

/// What a finding recommends (the FindingSink's Recommendation fields).
struct Resolution {
  std::string Action, Mechanism, Expected;
};

struct CategoryResult;

/// Per-pass behaviour plugged into the shared runner.
struct AnalyzerHooks {
  /// CSV columns copied verbatim into operations[] when non-null.
  std::vector<std::string> ExtraFields;
  /// Rows removed before any metric (e.g. communication ops in `other`).
  std::function<bool(const RowView &)> Exclude;
  /// operations[i].classification (nullopt: none).
  std::function<std::optional<PyValue>(const RowView &, const OpRecord &)>
      Classify;
  /// category_specific items (after the ops are built). Excluded rows are
  /// passed too, for passes that report them.
  std::function<std::vector<std::pair<std::string, PyValue>>(
      const CategoryResult &, llvm::ArrayRef<RowView> Excluded)>
      Specific;
  /// tl_extensions items (our additions beyond the reference schema).
  std::function<std::vector<std::pair<std::string, PyValue>>(
      const CategoryResult &)>
      Extensions;
  /// The mechanism a finding recommends, chosen from its evidence.
  std::function<Resolution(const CategoryResult &, const CategoryFinding &)>
      Resolve;
  /// When set, a claimed category absent from the trace still gets a
  /// metrics file: status NO_DATA with this message (moe, §6.9).
  std::function<std::string(llvm::StringRef Key)> NoDataMessage;
  /// Groups whose summed mid impact is below this are dropped (the passes'
  /// `min-impact` option; the reference's MIN_PITEM_IMPACT_SCORE).
  double MinImpact = MinPItemImpact;
  /// tl's own findings (not the metrics file): ops a fusion candidate
  /// flagged keep their own estimate when the flagged ops of the category
  /// take at least this % of end-to-end time (a GEMM stays a GEMM after
  /// its epilogue is fused, so its gap to roofline stays). Negative: never.
  double KeepFusedPct = -1;
};

struct CategoryResult {
  const ComputeInput *In = nullptr;
  std::string Key, Display;
  std::vector<size_t> Rows; // after Exclude, sorted like operations[]
  double TotalTimeMs = 0, PercentOfCompute = 0;
  int64_t OperationCount = 0;
  std::vector<OpRecord> Ops;
  std::vector<ImpactEstimate> Estimates;
  std::vector<CategoryFinding> Findings;
  PyValue Specific;   // dict
  PyValue Extensions; // dict or None

  RowView row(const OpRecord &Op) const { return {In->table(), Op.Row}; }
  /// The metrics file's contents as a Python dict.
  PyValue metricsValue() const;
  /// The metrics file, as json.dump(indent=2) writes it.
  std::string metricsJson() const;
};

/// The NO_DATA metrics document of an absent category (§6.9): category,
/// status, comparison_scope, message, zero totals, empty operations and
/// category_specific, no impact fields.
PyValue noDataMetrics(llvm::StringRef Key, llvm::StringRef Message,
                      bool Comparative);

/// Run the shared core over one category.
CategoryResult analyzeCategory(const ComputeInput &In, llvm::StringRef Key,
                               llvm::StringRef Display,
                               const AnalyzerHooks &Hooks);

} // namespace tl::compute

#endif // TL_COMPUTE_CATEGORYANALYZER_H
