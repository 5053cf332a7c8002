//===- ReportModel.h - Ranked findings and summary numbers -----*- C++ -*-===//
//
// The aggregation step of the report (tracelens-analysis §7): every pass's
// findings become P-items, ranked per tier by impact (stable), plus the
// top-operations table ("priorities"), per-category rollups, the unmodelled
// fallback entries and the executive-summary numbers. Every emitter
// (analysis.md, findings.json, priority_data.json, charts) renders this one
// model, so they always agree.
//
// The model is built from Finding objects, not from files, so third-party
// pass plugins rank like built-in ones. The metric names it reads are listed
// in docs/ReportFormat.md ("Metrics the report reads").
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_REPORTMODEL_H
#define TL_REPORT_REPORTMODEL_H

#include "tl/Report/Finding.h"
#include "tl/Report/PathImpact.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

struct ReportContext;

/// The five gpu_utilization keys of the reference (§3.1); percents of E2E.
struct Utilization {
  bool Available = false;
  double TotalMs = 0;
  double ComputationPct = 0;
  double ExposedCommPct = 0;
  double ExposedMemcpyPct = 0;
  double IdlePct = 0;
  double computationMs() const { return TotalMs * ComputationPct / 100; }
};

/// One op category of the trace (§3.6, §3.8): a manifest entry.
struct CategoryInfo {
  std::string Key;         // "gemm", "sdpa_fwd"
  std::string DisplayName; // the raw op-category label: "GEMM", "SDPA_fwd"
  uint64_t OpsCount = 0;   // unique op signatures (rows)
  double GpuKernelTimeMs = 0;
  double CpuDurationMs = 0;
  double SyncTimeMs = 0;
  uint64_t SyncOpsCount = 0;
  bool HasSyncBottleneck = false;
};

/// Reference category key of an op-category label (§3.6): spaces and '/'
/// become '_', lower-cased; empty -> "other".
std::string categoryKey(llvm::StringRef Label);

/// A finding placed in the ranked report.
struct PItem {
  const Finding *F = nullptr;
  /// 1..n within its tier; the P-number of analysis.md.
  unsigned Rank = 0;
  /// 1..N over every tier (findings.json `global_rank`): by expected
  /// step-time saving (placeScore()); ties by the old estimate (mid
  /// impact, or covered share), then tier order (compute, fusion, system)
  /// and tier rank. docs/ReportFormat.md, "Ranking".
  unsigned GlobalRank = 0;
  /// The share of E2E time an unscored finding covers (percent), if known.
  std::optional<double> CoveredPct;
  /// Reference category key (compute tier) or the finding's category.
  std::string CategoryKey;
  /// Rank of the finding inside its category (metric `rank`, else emission
  /// order within the category), compute tier only.
  unsigned CategoryRank = 0;
  /// impact_score / _low / _high, percent of E2E; absent when the finding
  /// is not scored at all.
  std::optional<double> Low, Mid, High;
  /// "quantified" or "heuristic".
  std::string EstimateMethod;
  /// How much of the time of the finding's events lies on the critical
  /// path; absent when the finding names no events (Finding::Events).
  std::optional<PathShare> Path;
  bool isHeuristic() const { return EstimateMethod == "heuristic"; }
  bool scored() const { return Mid.has_value(); }
  /// The old estimate the finding is placed by without the path: Mid, or
  /// for an unscored finding CoveredPct (percent of E2E).
  std::optional<double> oldScore() const { return scored() ? Mid : CoveredPct; }
  /// Expected step-time saving, percent of E2E: oldScore() x the on-path
  /// share; oldScore() itself when the share is not known.
  std::optional<double> placeScore() const;
};

/// Per-category quantified rollup (§7 step 3-4).
struct CategoryRollup {
  std::string Category;
  double Low = 0, Mid = 0, High = 0;
  /// Σ member_count of the category's quantified findings (the reference
  /// always writes 0 here; see docs/ReportFormat.md "Deviations").
  uint64_t OperationCount = 0;
};

/// One row of the top-operations table (§7 step 5).
struct Priority {
  unsigned Rank = 0;
  std::string Category;
  std::string DisplayName;
  std::optional<double> Low, Mid, High;
  std::optional<double> GpuKernelTimeMs;
  std::string Source; // "findings_rollup" or "manifest_fallback"
};

/// A model is of one ReportFace (Finding.h). A finding whose
/// Facts.OnlyFace is set belongs to that face only (docs/conformance.md,
/// "tl's own report"); others to both.

/// Whether F belongs to the report of Face.
bool inReportFace(const Finding &F, ReportFace Face);

class ReportModel {
public:
  /// From the run: utilization from GpuTimeline, categories from
  /// UnifiedPerfTable (when the trace supports them).
  static ReportModel build(const ReportContext &Ctx,
                           ReportFace Face = ReportFace::Tl);
  /// The run's model of one face, built once and shared by every emitter
  /// of Ctx (and by the driver after them).
  static const ReportModel &of(const ReportContext &Ctx,
                               ReportFace Face = ReportFace::Tl);
  /// From explicit inputs (unit tests, other front ends).
  /// Paths, when not empty, holds each finding's on-path share (parallel
  /// to Findings).
  static ReportModel build(llvm::ArrayRef<Finding> Findings, Utilization U,
                           std::vector<CategoryInfo> Categories,
                           llvm::ArrayRef<std::optional<PathShare>> Paths = {},
                           ReportFace Face = ReportFace::Tl);

  const Utilization &utilization() const { return U; }
  llvm::ArrayRef<CategoryInfo> categories() const { return Categories; }
  const CategoryInfo *category(llvm::StringRef Key) const;
  std::string displayName(llvm::StringRef Key) const;

  /// Ranked P-items of one tier.
  llvm::ArrayRef<PItem> items(Tier T) const { return Items[unsigned(T)]; }
  /// Every P-item in global-rank order.
  std::vector<const PItem *> globalOrder() const;
  /// The P-item of a finding (null if the finding is not ranked).
  const PItem *itemFor(const Finding &F) const;

  llvm::ArrayRef<CategoryRollup> rollups() const { return Rollups; }
  llvm::ArrayRef<Priority> priorities() const { return Priorities; }

  /// 5 % of computation time: categories above it with no finding are
  /// listed as unmodelled (§7 step 5).
  double fallbackThresholdMs() const { return 0.05 * U.computationMs(); }
  /// Share of computation time of a category's kernel time (percent).
  std::optional<double> percentOfCompute(double Ms) const;
  /// Kernel time summed over every category: the whole that Top
  /// Operations' shares are of (kernels on concurrent streams make it
  /// exceed the computation time, so shares of that do not add up).
  double totalKernelMs() const;
  /// Ms as a percent of totalKernelMs(); null when that is 0.
  std::optional<double> percentOfKernelTime(double Ms) const;
  /// The executive summary's top bottleneck: priorities[0], else the
  /// category with most kernel time; null when there is none.
  const CategoryInfo *topBottleneck() const;
  std::string topBottleneckKey() const;

private:
  Utilization U;
  std::vector<CategoryInfo> Categories;
  std::vector<PItem> Items[3];
  std::vector<CategoryRollup> Rollups;
  std::vector<Priority> Priorities;
};

/// A typed count as the report computes with it.
inline std::optional<double> asDouble(std::optional<int64_t> V) {
  return V ? std::optional<double>(static_cast<double>(*V)) : std::nullopt;
}

/// Python-style round half-even to N decimals (2 for impact scores).
double roundTo(double V, int N);

} // namespace tl

#endif // TL_REPORT_REPORTMODEL_H
