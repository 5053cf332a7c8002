//===- Impact.cpp - Impact estimates and their grouping into P-items ------===//
//
// tracelens-analysis §5.7 / §5.8 (comparative: no heuristic estimates,
// groups keyed (bound, library) with bucket "all"). Quantified: the gap to
// roofline times the op's share of E2E, with 75 % / 87.5 % / 100 % targets.
// Heuristic (no usable efficiency): 15 / 30 / 45 % of the op's share.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ComputeCore.h"

#include "tl/Support/PyFormat.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace llvm;

namespace tl::compute {

std::vector<ImpactEstimate> estimateImpact(ArrayRef<OpRecord> Ops,
                                           StringRef Category, double E2EMs,
                                           bool Comparative) {
  std::vector<ImpactEstimate> Out;
  for (size_t I = 0; I < Ops.size(); ++I) {
    const OpRecord &Op = Ops[I];
    if (!Op.FusionCandidate.empty() || !(Op.TimeMs > 0))
      continue;
    ImpactEstimate E;
    E.Op = I;
    E.Operation = Op.Name;
    E.Category = Category.str();
    E.Library = Op.Library;
    E.TimeMs = pyRound(Op.TimeMs, 3);
    const std::optional<double> &Eff = Op.Eff.EfficiencyPercent;
    if (Eff && !Op.Eff.IsAnomaly && E2EMs > 0) {
      double GapHigh = std::max(0.0, 1.0 - *Eff / 100.0);
      double GapLow = 0.75 * GapHigh, GapMid = 0.875 * GapHigh;
      double High = GapHigh * Op.TimeMs / E2EMs * 100;
      if (High < MinImpactScore)
        continue;
      E.Quantified = true;
      E.Mid = pyRound(GapMid * Op.TimeMs / E2EMs * 100, 2);
      E.Low = pyRound(GapLow * Op.TimeMs / E2EMs * 100, 2);
      E.High = pyRound(High, 2);
      E.EfficiencyPct = pyRound(*Eff, 2);
      E.BoundType = Op.Eff.BoundType;
      Out.push_back(std::move(E));
      continue;
    }
    std::optional<double> Pct = Op.PercentOfTotal;
    if (Comparative || !Pct || !(*Pct > 0))
      continue;
    E.Quantified = false;
    E.Mid = pyRound(*Pct * 0.30, 2);
    E.Low = pyRound(*Pct * 0.15, 2);
    E.High = pyRound(*Pct * 0.45, 2);
    E.PercentOfTotal = *Pct;
    Out.push_back(std::move(E));
  }
  llvm::stable_sort(Out, [](const ImpactEstimate &A, const ImpactEstimate &B) {
    return A.Mid > B.Mid;
  });
  return Out;
}

StringRef effBucket(std::optional<double> Pct) {
  if (!Pct)
    return "unknown";
  if (*Pct < 30)
    return "0-30";
  if (*Pct < 60)
    return "30-60";
  return "60-100";
}

std::vector<CategoryFinding>
groupFindings(ArrayRef<ImpactEstimate> Estimates, bool Comparative,
              double MinImpact) {
  // Groups in first-seen order (Python dict insertion order).
  std::vector<CategoryFinding> Quant, Heur;
  auto FindOrAdd = [](std::vector<CategoryFinding> &V, auto Match)
      -> CategoryFinding & {
    for (CategoryFinding &F : V)
      if (Match(F))
        return F;
    V.emplace_back();
    return V.back();
  };
  for (const ImpactEstimate &E : Estimates) {
    if (E.Quantified) {
      std::string Bound = E.BoundType.empty() ? "unknown" : E.BoundType;
      std::string Lib = E.Library.empty() ? "Unknown" : E.Library;
      std::string Bucket =
          Comparative ? "all" : effBucket(E.EfficiencyPct).str();
      CategoryFinding &F = FindOrAdd(Quant, [&](const CategoryFinding &G) {
        return G.BoundType == Bound && G.Library == Lib &&
               G.EffBucket == Bucket;
      });
      if (F.Members.empty()) {
        F.BoundType = Bound;
        F.Library = Lib;
        F.EffBucket = Bucket;
      }
      F.Members.push_back(E);
    } else {
      CategoryFinding &F = FindOrAdd(Heur, [&](const CategoryFinding &G) {
        return G.Members.front().Operation == E.Operation;
      });
      if (F.Members.empty()) {
        F.Quantified = false;
        F.BoundType = "unmodeled";
        F.Library = E.Library.empty() ? "Unknown" : E.Library;
        F.EffBucket = "unknown";
      }
      F.Members.push_back(E);
    }
  }
  std::vector<CategoryFinding> Out;
  for (std::vector<CategoryFinding> *V : {&Quant, &Heur})
    for (CategoryFinding &F : *V) {
      double Mid = 0, Low = 0, High = 0, Pct = 0;
      for (const ImpactEstimate &E : F.Members) {
        Mid += E.Mid;
        Low += E.Low;
        High += E.High;
        Pct += E.PercentOfTotal.value_or(0);
      }
      if (Mid < MinImpact)
        continue;
      F.Mid = pyRound(Mid, 2);
      F.Low = pyRound(Low, 2);
      F.High = pyRound(High, 2);
      if (!F.Quantified)
        F.PercentOfTotal = pyRound(Pct, 2);
      llvm::stable_sort(F.Members,
                        [](const ImpactEstimate &A, const ImpactEstimate &B) {
                          return A.Mid > B.Mid;
                        });
      Out.push_back(std::move(F));
    }
  llvm::stable_sort(Out, [](const CategoryFinding &A, const CategoryFinding &B) {
    return A.Mid > B.Mid;
  });
  for (size_t I = 0; I < Out.size(); ++I)
    Out[I].Rank = I + 1;
  return Out;
}

} // namespace tl::compute
