//===- FailOn.cpp - CI gating expressions for --fail-on -------------------===//
#include "tl/Report/FailOn.h"

#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace llvm;

namespace tl {

namespace {

using Term = FailOnExpr::Term;

Error bad(StringRef Term, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "--fail-on: bad term '" + Term + "': " + Why);
}

std::optional<Severity> parseSeverity(StringRef S) {
  return StringSwitch<std::optional<Severity>>(S)
      .Case("info", Severity::Info)
      .Case("low", Severity::Low)
      .Case("medium", Severity::Medium)
      .Case("high", Severity::High)
      .Default(std::nullopt);
}

Expected<Term> parseTerm(StringRef T) {
  Term R;
  T = T.trim();
  if (T.empty())
    return bad(T, "empty term");
  if (T == "quantified" || T == "heuristic") {
    R.F = T == "quantified" ? Term::Field::Quantified : Term::Field::Heuristic;
    return R;
  }
  if ((T[0] == 'P' || T[0] == 'p') && T.size() > 1 &&
      all_of(T.drop_front(), isDigit)) {
    R.F = Term::Field::Rank;
    R.O = Term::Op::LE;
    unsigned N = 0;
    T.drop_front().getAsInteger(10, N);
    R.Num = N;
    return R;
  }
  size_t OpPos = T.find_first_of("<>=!");
  if (OpPos == StringRef::npos || OpPos == 0)
    return bad(T, "expected <field><op><value>");
  StringRef Field = T.take_front(OpPos).trim();
  StringRef Rest = T.drop_front(OpPos);
  static const std::pair<StringRef, Term::Op> Ops[] = {
      {">=", Term::Op::GE}, {"<=", Term::Op::LE}, {"!=", Term::Op::NE},
      {">", Term::Op::GT},  {"<", Term::Op::LT},  {"=", Term::Op::EQ}};
  bool Found = false;
  for (const auto &[S, O] : Ops)
    if (Rest.consume_front(S)) {
      R.O = O;
      Found = true;
      break;
    }
  if (!Found)
    return bad(T, "unknown operator");
  Rest = Rest.trim();
  if (Rest.empty())
    return bad(T, "missing value");
  std::optional<Term::Field> F =
      StringSwitch<std::optional<Term::Field>>(Field)
          .Cases("impact", "impact_score", Term::Field::Impact)
          .Case("impact_low", Term::Field::ImpactLow)
          .Case("impact_high", Term::Field::ImpactHigh)
          .Case("tier", Term::Field::Tier)
          .Case("pass", Term::Field::Pass)
          .Case("category", Term::Field::Category)
          .Case("id", Term::Field::Id)
          .Case("severity", Term::Field::Severity)
          .Case("rank", Term::Field::Rank)
          .Default(std::nullopt);
  if (!F && ReportMetrics::isKnown(Field)) {
    F = Term::Field::Metric;
    R.Str = Field.str();
  }
  if (!F) {
    std::string Metrics;
    for (const ReportMetricInfo &I : ReportMetrics::known())
      Metrics += (Metrics.empty() ? "" : ", ") + I.Name.str();
    return bad(T, "unknown field '" + Field +
                      "' (findings: impact, impact_low, impact_high, tier, "
                      "pass, category, id, severity, rank, P<N>, quantified, "
                      "heuristic; report metrics: " + Metrics + ")");
  }
  R.F = *F;
  bool Numeric = R.F == Term::Field::Impact || R.F == Term::Field::ImpactLow ||
                 R.F == Term::Field::ImpactHigh || R.F == Term::Field::Rank ||
                 R.F == Term::Field::Metric;
  if (Numeric) {
    // "nan" and "inf" parse as doubles; NaN compares false with everything
    // and would make the gate silently never trip.
    if (Rest.getAsDouble(R.Num) || !std::isfinite(R.Num))
      return bad(T, "'" + Rest + "' is not a finite number");
    return R;
  }
  if (R.F == Term::Field::Severity) {
    auto S = parseSeverity(Rest);
    if (!S)
      return bad(T, "severity is info, low, medium or high");
    R.Num = static_cast<double>(*S);
    return R;
  }
  if (R.O != Term::Op::EQ && R.O != Term::Op::NE)
    return bad(T, "only = and != compare names");
  if (R.F == Term::Field::Tier && !parseTier(Rest))
    return bad(T, "tier is compute, fusion or system");
  R.Str = Rest.str();
  return R;
}

bool compare(double A, Term::Op O, double B) {
  switch (O) {
  case Term::Op::GE: return A >= B;
  case Term::Op::GT: return A > B;
  case Term::Op::LE: return A <= B;
  case Term::Op::LT: return A < B;
  case Term::Op::EQ: return A == B;
  case Term::Op::NE: return A != B;
  }
  return false;
}

bool metricMatches(const Term &T, const ReportMetrics *M) {
  std::optional<double> V = M ? M->get(T.Str) : std::nullopt;
  return V && compare(*V, T.O, T.Num);
}

bool termMatches(const Term &T, const PItem &P, const ReportMetrics *M) {
  const Finding &F = *P.F;
  auto Name = [&](StringRef V) {
    return (V == T.Str) == (T.O == Term::Op::EQ);
  };
  switch (T.F) {
  case Term::Field::Impact:
    return P.Mid && compare(*P.Mid, T.O, T.Num);
  case Term::Field::ImpactLow:
    return P.Low && compare(*P.Low, T.O, T.Num);
  case Term::Field::ImpactHigh:
    return P.High && compare(*P.High, T.O, T.Num);
  case Term::Field::Rank:
    return compare(P.Rank, T.O, T.Num);
  case Term::Field::Tier:
    return Name(tierName(F.T));
  case Term::Field::Pass:
    return Name(F.Pass);
  case Term::Field::Category:
    return Name(F.Category) || (T.O == Term::Op::EQ && P.CategoryKey == T.Str);
  case Term::Field::Id:
    return Name(F.Id);
  case Term::Field::Severity:
    return compare(static_cast<double>(F.Imp.Sev), T.O, T.Num);
  case Term::Field::Quantified:
    return P.scored() && !P.isHeuristic();
  case Term::Field::Heuristic:
    return P.isHeuristic();
  case Term::Field::Metric:
    return metricMatches(T, M);
  }
  return false;
}

} // namespace

Expected<FailOnExpr> FailOnExpr::parse(StringRef Text) {
  FailOnExpr E;
  E.Text = Text.str();
  SmallVector<StringRef, 4> Clauses;
  Text.split(Clauses, ',');
  for (StringRef C : Clauses) {
    SmallVector<StringRef, 4> Terms;
    C.split(Terms, '&');
    std::vector<Term> Parsed;
    for (StringRef T : Terms) {
      Expected<Term> PT = parseTerm(T);
      if (!PT)
        return PT.takeError();
      Parsed.push_back(std::move(*PT));
    }
    E.ClauseText.push_back(C.trim().str());
    E.Clauses.push_back(std::move(Parsed));
  }
  return E;
}

bool FailOnExpr::isGlobal(size_t Clause) const {
  return all_of(Clauses[Clause],
                [](const Term &T) { return T.F == Term::Field::Metric; });
}

std::string FailOnExpr::matchingClause(const PItem &P,
                                       const ReportMetrics *M) const {
  for (size_t I = 0; I < Clauses.size(); ++I)
    if (!isGlobal(I) && all_of(Clauses[I], [&](const Term &T) {
          return termMatches(T, P, M);
        }))
      return ClauseText[I];
  return "";
}

bool FailOnExpr::matches(const PItem &P, const ReportMetrics *M) const {
  return !matchingClause(P, M).empty();
}

std::vector<GateResult> FailOnExpr::evaluate(const ReportModel &Model,
                                             const ReportMetrics &M) const {
  std::vector<GateResult> Out;
  for (size_t I = 0; I < Clauses.size(); ++I) {
    GateResult G;
    G.Clause = ClauseText[I];
    G.Global = isGlobal(I);
    if (G.Global) {
      G.Failed = true;
      for (const Term &T : Clauses[I]) {
        std::optional<double> V = M.get(T.Str);
        if (!G.Detail.empty())
          G.Detail += ", ";
        G.Detail += T.Str + (V ? " = " + pyRepr(roundTo(*V, 2))
                               : ": " + M.whyMissing(T.Str));
        G.Failed = G.Failed && metricMatches(T, &M);
      }
    } else {
      for (Tier Tr : {Tier::Compute, Tier::Fusion, Tier::System})
        for (const PItem &P : Model.items(Tr))
          if (all_of(Clauses[I],
                     [&](const Term &T) { return termMatches(T, P, &M); })) {
            G.Failed = true;
            G.Detail += (G.Detail.empty() ? "" : ", ") + P.F->Id;
          }
    }
    Out.push_back(std::move(G));
  }
  return Out;
}

} // namespace tl
