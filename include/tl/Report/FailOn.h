//===- FailOn.h - CI gating expressions for --fail-on -----------*- C++ -*-===//
//
// `tl-opt --fail-on=<expr>` exits 3 when a ranked finding matches, so a CI
// job can gate performance regressions. Grammar (docs/ReportFormat.md):
//
//   expr   := clause (',' clause)*          any clause matches
//   clause := term ('&' term)*              every term matches
//   term   := 'impact' op NUMBER            mid score, % of E2E
//           | 'impact_low' op NUMBER | 'impact_high' op NUMBER
//           | 'tier' '=' (compute|fusion|system)
//           | 'pass' '=' NAME | 'category' '=' NAME | 'id' '=' ID
//           | 'severity' op (info|low|medium|high)
//           | 'P' N                         rank <= N within its tier
//           | 'quantified' | 'heuristic'
//           | METRIC op NUMBER              a report-level number
//                                           (ReportMetrics: idle_pct, ...)
//   op     := '>=' | '>' | '<=' | '<' | '=' | '!='
//
// Unscored findings never match an impact comparison. A clause of metric
// terms only is a gate on the run ("idle_pct>20" matches once, not per
// finding); metric terms in a clause with finding terms narrow it. A metric
// the trace does not have never matches.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_FAILON_H
#define TL_REPORT_FAILON_H

#include "tl/Report/ReportMetrics.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tl {

/// What one clause of --fail-on gave for a run (JUnit testcases, exit 3).
struct GateResult {
  /// The clause as written.
  std::string Clause;
  /// Metric terms only: a gate on the run, not on findings.
  bool Global = false;
  bool Failed = false;
  /// Global: "idle_pct = 92.08" per metric, or why one is missing;
  /// otherwise the ids of the findings that matched.
  std::string Detail;
};

class FailOnExpr {
public:
  static llvm::Expected<FailOnExpr> parse(llvm::StringRef Text);
  /// Whether a finding clause matches P (metric terms read Metrics; none
  /// match without it). Global clauses are not tried here.
  bool matches(const PItem &P, const ReportMetrics *Metrics = nullptr) const;
  /// The finding clause that matched, as written ("" when none).
  std::string matchingClause(const PItem &P,
                             const ReportMetrics *Metrics = nullptr) const;
  /// Every clause against a run: its global clauses against Metrics, the
  /// others against the ranked findings of M.
  std::vector<GateResult> evaluate(const ReportModel &M,
                                   const ReportMetrics &Metrics) const;
  const std::string &text() const { return Text; }

  struct Term {
    enum class Field { Impact, ImpactLow, ImpactHigh, Tier, Pass, Category,
                       Id, Severity, Rank, Quantified, Heuristic, Metric };
    enum class Op { GE, GT, LE, LT, EQ, NE };
    Field F = Field::Impact;
    Op O = Op::EQ;
    double Num = 0;
    /// Names compared; the metric's name for Field::Metric.
    std::string Str;
  };

private:
  bool isGlobal(size_t Clause) const;

  std::string Text;
  std::vector<std::string> ClauseText;
  std::vector<std::vector<Term>> Clauses;
};

} // namespace tl

#endif // TL_REPORT_FAILON_H
