//===- KernelSummary.cpp - kernel_summary table --------------------------===//
#include "tl/Analysis/KernelSummary.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace tl;

namespace {
/// Group key; missing values sort last, as pandas puts NaN groups last.
struct GroupKey {
  std::optional<std::string> Cat, Parent;
  std::string Kernel;
  std::optional<int64_t> Stream;
  template <typename X>
  static int cmpOpt(const std::optional<X> &A, const std::optional<X> &B) {
    if (A.has_value() != B.has_value())
      return A.has_value() ? -1 : 1;
    if (!A)
      return 0;
    return *A < *B ? -1 : (*B < *A ? 1 : 0);
  }
  bool operator<(const GroupKey &O) const {
    if (int C = cmpOpt(Cat, O.Cat))
      return C < 0;
    if (int C = cmpOpt(Parent, O.Parent))
      return C < 0;
    if (Kernel != O.Kernel)
      return Kernel < O.Kernel;
    return cmpOpt(Stream, O.Stream) < 0;
  }
};
} // namespace

KernelSummary::KernelSummary(const Trace &T, AnalysisManager &AM) {
  GpuOnly = T.eventsOfKind(EventKind::CpuOp).empty();
  const OpTable *Ops = GpuOnly ? nullptr : &AM.get<OpTable>();
  for (EventId K : T.eventsOfKind(EventKind::Kernel)) {
    KernelRow R;
    R.Kernel = K;
    R.DurUs = T.dur(K);
    R.Stream = T.stream(K);
    R.Launcher = T.parent(K);
    if (R.Launcher != NoEvent) {
      for (EventId P = T.parent(R.Launcher); P != NoEvent; P = T.parent(P))
        if (T.kind(P) == EventKind::CpuOp) {
          R.ParentCpuOp = P;
          break;
        }
      if (R.ParentCpuOp != NoEvent) {
        R.ParentName = T.name(R.ParentCpuOp);
        R.Category =
            Categories
                .insert(Ops ? Ops->categoryOf(R.ParentCpuOp) : "other")
                .first->getKey();
      } else {
        std::string L = T.name(R.Launcher).lower();
        R.ParentName = T.name(R.Launcher);
        bool Graph = llvm::StringRef(L).contains("cudagraph") ||
                     llvm::StringRef(L).contains("graphlaunch");
        R.Category = llvm::StringRef(Graph ? "graph" : "runtime");
      }
    }
    Rows.push_back(std::move(R));
  }

  std::map<GroupKey, std::vector<double>> ByKey;
  std::vector<double> All;
  All.reserve(Rows.size());
  for (const KernelRow &R : Rows) {
    auto Str = [](std::optional<llvm::StringRef> S) {
      return S ? std::optional<std::string>(S->str()) : std::nullopt;
    };
    GroupKey Key{Str(R.Category), GpuOnly ? std::nullopt : Str(R.ParentName),
                 T.name(R.Kernel).str(), R.Stream};
    ByKey[Key].push_back(R.DurUs);
    All.push_back(R.DurUs);
  }
  double KernelsTotal = numpySum(All);
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  double Total = TL.totalTime();
  for (auto &[Key, V] : ByKey) {
    KernelGroupRow G;
    G.Category = Key.Cat;
    G.ParentCpuOp = Key.Parent;
    G.KernelName = Key.Kernel;
    G.Stream = Key.Stream;
    G.SumUs = pandasGroupSum(V);
    G.Count = V.size();
    G.MeanUs = pandasGroupMean(V);
    G.MinUs = minOf(V);
    G.MaxUs = maxOf(V);
    G.PercentOfKernels = G.SumUs / KernelsTotal * 100;
    G.PercentOfTotal = G.SumUs / Total * 100;
    Groups.push_back(std::move(G));
  }
  // sort_values(ascending=False): numpy quicksort order, ties included.
  {
    std::vector<double> K;
    for (const KernelGroupRow &G : Groups)
      K.push_back(G.SumUs);
    std::vector<KernelGroupRow> Sorted;
    for (size_t I : pandasSortValuesOrder(K, /*Ascending=*/false))
      Sorted.push_back(std::move(Groups[I]));
    Groups = std::move(Sorted);
  }
}
