//===- ReportModel.cpp - Ranking findings, rollups, summary numbers -------===//
//
// tracelens-analysis §7 over Finding objects. Differences from the
// reference's priority_data.json are deliberate and listed in
// docs/ReportFormat.md ("Deviations").
//
//===----------------------------------------------------------------------===//
#include "tl/Report/ReportModel.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CriticalPath.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Report/Emitter.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tl {

double roundTo(double V, int N) { return pyRound(V, N); }

std::string categoryKey(StringRef Label) {
  if (Label.empty())
    return "other";
  std::string K;
  for (char C : Label)
    K += (C == ' ' || C == '/') ? '_' : toLower(C);
  return K;
}

namespace {

/// The reference visits `category_data/*_metrics.json` in sorted file-name
/// order; ties in impact keep that order.
std::string metricsFileName(StringRef Key) {
  return (Key + "_metrics.json").str();
}

PItem makeItem(const Finding &F) {
  PItem P;
  P.F = &F;
  const std::string &Key = F.Facts.CategoryKey;
  P.CategoryKey = !Key.empty()            ? Key
                  : F.T == Tier::Compute ? categoryKey(F.Category)
                                         : F.Category;
  // The score wins: the compute passes attach the reference's rounded
  // values.
  if (const std::optional<ImpactScore> &S = F.Facts.Score) {
    P.Mid = roundTo(S->Mid, 2);
    P.Low = roundTo(S->Low.value_or(S->Mid), 2);
    P.High = roundTo(S->High.value_or(S->Mid), 2);
  } else if (F.Imp.Quantified) {
    P.Low = roundTo(F.Imp.LowPct, 2);
    P.Mid = roundTo(F.Imp.MidPct, 2);
    P.High = roundTo(F.Imp.HighPct, 2);
  }
  std::string Method = F.Facts.EstimateMethod;
  if (Method.empty())
    Method = F.Imp.Method;
  if (Method != "quantified" && Method != "heuristic")
    Method = P.Mid ? "quantified" : "heuristic";
  P.EstimateMethod = Method;
  return P;
}

/// Stable: higher impact first, unscored items last.
bool impactBefore(const PItem &A, const PItem &B) {
  if (A.scored() != B.scored())
    return A.scored();
  if (!A.scored())
    return false;
  return *A.Mid > *B.Mid;
}

} // namespace

std::optional<double> PItem::placeScore() const {
  std::optional<double> S = oldScore();
  if (S && Path)
    return *S * Path->share();
  return S;
}

bool inReportFace(const Finding &F, ReportFace Face) {
  return !F.Facts.OnlyFace || *F.Facts.OnlyFace == Face;
}

ReportModel ReportModel::build(ArrayRef<Finding> Findings, Utilization U,
                               std::vector<CategoryInfo> Categories,
                               ArrayRef<std::optional<PathShare>> Paths,
                               ReportFace Face) {
  ReportModel M;
  M.U = U;
  M.Categories = std::move(Categories);

  // Category rank: the pass's `rank` metric, else emission order within
  // (pass, category).
  std::map<std::pair<std::string, std::string>, unsigned> Seen;
  for (size_t FI = 0; FI < Findings.size(); ++FI) {
    const Finding &F = Findings[FI];
    if (!inReportFace(F, Face))
      continue;
    PItem P = makeItem(F);
    if (FI < Paths.size())
      P.Path = Paths[FI];
    unsigned &N = Seen[{F.Pass, P.CategoryKey}];
    ++N;
    std::optional<int64_t> R = F.Facts.Rank;
    P.CategoryRank = R && *R >= 1 ? static_cast<unsigned>(*R) : N;
    M.Items[unsigned(F.T)].push_back(std::move(P));
  }

  // Compute tier: the reference's file order first (metrics file name, then
  // category rank), then a stable sort by impact.
  std::vector<PItem> &C = M.Items[unsigned(Tier::Compute)];
  std::stable_sort(C.begin(), C.end(), [](const PItem &A, const PItem &B) {
    std::string FA = metricsFileName(A.CategoryKey),
                FB = metricsFileName(B.CategoryKey);
    if (FA != FB)
      return FA < FB;
    return A.CategoryRank < B.CategoryRank;
  });

  // Rollups in that file order (dict insertion order in the reference).
  for (const PItem &P : C) {
    if (!P.scored() || P.isHeuristic())
      continue;
    auto It = std::find_if(M.Rollups.begin(), M.Rollups.end(),
                           [&](const CategoryRollup &R) {
                             return R.Category == P.CategoryKey;
                           });
    if (It == M.Rollups.end()) {
      M.Rollups.push_back({P.CategoryKey, 0, 0, 0, 0});
      It = std::prev(M.Rollups.end());
    }
    It->Low += *P.Low;
    It->Mid += *P.Mid;
    It->High += *P.High;
    It->OperationCount +=
        static_cast<uint64_t>(P.F->Facts.MemberCount.value_or(1));
  }
  for (CategoryRollup &R : M.Rollups) {
    R.Low = roundTo(R.Low, 2);
    R.Mid = roundTo(R.Mid, 2);
    R.High = roundTo(R.High, 2);
  }
  std::stable_sort(M.Rollups.begin(), M.Rollups.end(),
                   [](const CategoryRollup &A, const CategoryRollup &B) {
                     return A.Mid > B.Mid;
                   });

  for (std::vector<PItem> &V : M.Items) {
    std::stable_sort(V.begin(), V.end(), impactBefore);
    unsigned Rank = 0;
    for (PItem &P : V)
      P.Rank = ++Rank;
  }

  // One ranking across tiers: the score a finding is placed by is its
  // expected step-time saving, its mid saving (for an unscored one the
  // share of time it covers: what fixing it can save at most) times the
  // share of its time on the critical path. Ties by the old estimate.
  std::vector<PItem *> All;
  for (std::vector<PItem> &V : M.Items)
    for (PItem &P : V) {
      if (!P.scored()) {
        const FindingFacts &Fa = P.F->Facts;
        if (std::optional<double> Pct = Fa.PercentOfTotal)
          P.CoveredPct = *Pct;
        else if (std::optional<double> Exp = Fa.ExposedPercentOfTotal)
          P.CoveredPct = *Exp;
        else if (std::optional<double> Ms = Fa.TimeMs; Ms && U.TotalMs > 0)
          P.CoveredPct = *Ms / U.TotalMs * 100;
      }
      All.push_back(&P);
    }
  std::stable_sort(All.begin(), All.end(), [&](const PItem *A, const PItem *B) {
    std::optional<double> SA = A->placeScore(), SB = B->placeScore();
    if (SA.has_value() != SB.has_value())
      return SA.has_value();
    if (!SA)
      return false;
    if (*SA != *SB)
      return *SA > *SB;
    return *A->oldScore() > *B->oldScore();
  });
  for (size_t I = 0; I < All.size(); ++I)
    All[I]->GlobalRank = I + 1;

  // Top-operations table: every quantified rollup (no top-6 cap), then the
  // unmodelled categories above 5 % of computation time.
  for (const CategoryRollup &R : M.Rollups) {
    Priority P;
    P.Rank = M.Priorities.size() + 1;
    P.Category = R.Category;
    P.DisplayName = M.displayName(R.Category);
    P.Low = R.Low;
    P.Mid = R.Mid;
    P.High = R.High;
    P.Source = "findings_rollup";
    M.Priorities.push_back(std::move(P));
  }
  StringMap<bool> Covered;
  for (const CategoryRollup &R : M.Rollups)
    Covered[R.Category] = true;
  for (const PItem &P : C)
    if (P.isHeuristic())
      Covered[P.CategoryKey] = true;
  std::vector<const CategoryInfo *> Fallback;
  double Threshold = M.fallbackThresholdMs();
  for (const CategoryInfo &CI : M.Categories)
    if (!Covered.count(CI.Key) && CI.GpuKernelTimeMs >= Threshold &&
        CI.GpuKernelTimeMs > 0)
      Fallback.push_back(&CI);
  std::stable_sort(Fallback.begin(), Fallback.end(),
                   [](const CategoryInfo *A, const CategoryInfo *B) {
                     return A->GpuKernelTimeMs > B->GpuKernelTimeMs;
                   });
  for (const CategoryInfo *CI : Fallback) {
    Priority P;
    P.Rank = M.Priorities.size() + 1;
    P.Category = CI->Key;
    P.DisplayName = CI->DisplayName;
    P.GpuKernelTimeMs = roundTo(CI->GpuKernelTimeMs, 3);
    P.Source = "manifest_fallback";
    M.Priorities.push_back(std::move(P));
  }
  return M;
}

static std::vector<CategoryInfo> collectCategories(const UnifiedPerfTable &UT) {
  std::vector<CategoryInfo> Cats;
  StringMap<size_t> Index;
  // Rows are sorted by kernel time: categories in first-appearance order.
  for (const UnifiedPerfRow &R : UT.rows()) {
    std::string Key = categoryKey(R.Category);
    auto [It, New] = Index.try_emplace(Key, Cats.size());
    if (New) {
      CategoryInfo CI;
      CI.Key = Key;
      CI.DisplayName = R.Category.empty() ? "Other" : R.Category;
      Cats.push_back(std::move(CI));
    }
    CategoryInfo &CI = Cats[It->second];
    ++CI.OpsCount;
    double KernelUs = R.KernelTimeUs.Sum.value_or(0);
    double DurUs = R.DurationUs.Sum.value_or(KernelUs);
    CI.GpuKernelTimeMs += KernelUs / 1000;
    CI.CpuDurationMs += DurUs / 1000;
    // Host-device sync: the op's CPU time dwarfs its kernels (§3.8).
    if (KernelUs > 0 && DurUs > 5 * KernelUs) {
      CI.SyncTimeMs += (DurUs - KernelUs) / 1000;
      ++CI.SyncOpsCount;
    }
  }
  for (CategoryInfo &CI : Cats) {
    CI.HasSyncBottleneck =
        CI.SyncTimeMs > 0.1 * CI.GpuKernelTimeMs && CI.SyncTimeMs > 1;
    CI.GpuKernelTimeMs = roundTo(CI.GpuKernelTimeMs, 3);
    CI.CpuDurationMs = roundTo(CI.CpuDurationMs, 3);
    CI.SyncTimeMs = roundTo(CI.SyncTimeMs, 3);
  }
  return Cats;
}

ReportModel ReportModel::build(const ReportContext &Ctx, ReportFace Face) {
  Utilization U;
  const GpuTimeline &TL = Ctx.AM.get<GpuTimeline>();
  if (TL.hasGpuEvents() && TL.totalTime() > 0) {
    U.Available = true;
    U.TotalMs = TL.totalTime() / 1000;
    U.ComputationPct = TL.percent(TL.computationTime());
    U.ExposedCommPct = TL.percent(TL.exposedCommTime());
    U.ExposedMemcpyPct = TL.percent(TL.exposedMemcpyTime());
    U.IdlePct = TL.percent(TL.idleTime());
  }
  std::vector<std::optional<PathShare>> Paths;
  Paths.reserve(Ctx.Findings.size());
  const CriticalPath *CP = nullptr;
  for (const Finding &F : Ctx.Findings) {
    if (!F.Events.empty() && !CP)
      CP = &Ctx.AM.get<CriticalPath>();
    Paths.push_back(CP && !F.Events.empty()
                        ? pathShareOf(F.Events, Ctx.T, *CP)
                        : std::nullopt);
  }
  return build(Ctx.Findings, U,
               collectCategories(Ctx.AM.get<UnifiedPerfTable>()), Paths, Face);
}

const CategoryInfo *ReportModel::category(StringRef Key) const {
  for (const CategoryInfo &C : Categories)
    if (C.Key == Key)
      return &C;
  return nullptr;
}

std::string ReportModel::displayName(StringRef Key) const {
  if (const CategoryInfo *C = category(Key))
    return C->DisplayName;
  return Key.str();
}

std::vector<const PItem *> ReportModel::globalOrder() const {
  std::vector<const PItem *> Out;
  for (const std::vector<PItem> &V : Items)
    for (const PItem &P : V)
      Out.push_back(&P);
  llvm::sort(Out, [](const PItem *A, const PItem *B) {
    return A->GlobalRank < B->GlobalRank;
  });
  return Out;
}

const PItem *ReportModel::itemFor(const Finding &F) const {
  for (const PItem &P : Items[unsigned(F.T)])
    if (P.F == &F)
      return &P;
  return nullptr;
}

std::optional<double> ReportModel::percentOfCompute(double Ms) const {
  double Comp = U.computationMs();
  if (Comp <= 0)
    return std::nullopt;
  return Ms / Comp * 100;
}

double ReportModel::totalKernelMs() const {
  double Sum = 0;
  for (const CategoryInfo &C : Categories)
    Sum += C.GpuKernelTimeMs;
  return Sum;
}

std::optional<double> ReportModel::percentOfKernelTime(double Ms) const {
  double Total = totalKernelMs();
  if (Total <= 0)
    return std::nullopt;
  return Ms / Total * 100;
}

std::string ReportModel::topBottleneckKey() const {
  if (!Priorities.empty())
    return Priorities.front().Category;
  const CategoryInfo *Best = nullptr;
  for (const CategoryInfo &C : Categories)
    if (!Best || C.GpuKernelTimeMs > Best->GpuKernelTimeMs)
      Best = &C;
  return Best ? Best->Key : "";
}

const CategoryInfo *ReportModel::topBottleneck() const {
  return category(topBottleneckKey());
}

} // namespace tl
