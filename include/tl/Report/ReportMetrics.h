//===- ReportMetrics.h - Report-level numbers --fail-on can gate -*- C++ -*-===//
//
// The whole-run numbers a CI gate compares (`--fail-on='idle_pct>20'`), each
// one already shown by the report: the five gpu_utilization values of
// findings.json, the typical ProfilerStep duration the quality gate uses,
// and counts. A metric the trace cannot give (no GPU timeline, no step
// markers) is absent, and a gate on it does not match. docs/ReportFormat.md
// ("CI gating") documents each name.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_REPORTMETRICS_H
#define TL_REPORT_REPORTMETRICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tl {

class ReportModel;
class TraceQuality;

/// One metric's name and what it is (the unknown-metric error lists them).
struct ReportMetricInfo {
  llvm::StringLiteral Name;
  llvm::StringLiteral Description;
  /// An integer count (findings.json writes it as one).
  bool IsCount = false;
};

class ReportMetrics {
public:
  /// Every metric, in findings.json `metrics` order.
  static llvm::ArrayRef<ReportMetricInfo> known();
  static bool isKnown(llvm::StringRef Name);

  static ReportMetrics compute(const ReportModel &M, const TraceQuality &Q);

  /// The value (nullopt: unknown name or not available for this trace).
  std::optional<double> get(llvm::StringRef Name) const;
  /// Why Name has no value for this trace ("" when it has one).
  std::string whyMissing(llvm::StringRef Name) const;

private:
  static constexpr unsigned NumMetrics = 8;
  std::optional<double> Values[NumMetrics];
  bool HaveTimeline = false;
};

} // namespace tl

#endif // TL_REPORT_REPORTMETRICS_H
