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
//   op     := '>=' | '>' | '<=' | '<' | '=' | '!='
//
// Unscored findings never match an impact comparison.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_FAILON_H
#define TL_REPORT_FAILON_H

#include "tl/Report/ReportModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tl {

class FailOnExpr {
public:
  static llvm::Expected<FailOnExpr> parse(llvm::StringRef Text);
  bool matches(const PItem &P) const;
  /// The clause that matched, as written ("" when none).
  std::string matchingClause(const PItem &P) const;
  const std::string &text() const { return Text; }

  struct Term {
    enum class Field { Impact, ImpactLow, ImpactHigh, Tier, Pass, Category,
                       Id, Severity, Rank, Quantified, Heuristic };
    enum class Op { GE, GT, LE, LT, EQ, NE };
    Field F = Field::Impact;
    Op O = Op::EQ;
    double Num = 0;
    std::string Str;
  };

private:
  std::string Text;
  std::vector<std::string> ClauseText;
  std::vector<std::vector<Term>> Clauses;
};

} // namespace tl

#endif // TL_REPORT_FAILON_H
