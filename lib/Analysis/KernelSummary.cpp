//===- KernelSummary.cpp - kernel_summary table --------------------------===//
#include "tl/Analysis/KernelSummary.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

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

EventId tl::kernelParentCpuOp(const Trace &T, EventId K) {
  EventId L = T.parent(K);
  if (L == NoEvent)
    return NoEvent;
  for (EventId P = T.parent(L); P != NoEvent; P = T.parent(P))
    if (T.kind(P) == EventKind::CpuOp)
      return P;
  return NoEvent;
}

namespace {
/// A kernel's group as ids: category (index into the texts met so far),
/// parent name, kernel name, has-stream flag, stream; ~0u marks a missing
/// category or parent. Hashed: the table's order comes from the texts.
using IdKey = std::tuple<uint32_t, uint32_t, StrId, uint32_t, int64_t>;
} // namespace

KernelSummary::KernelSummary(const Trace &T, AnalysisManager &AM) {
  GpuOnly = T.eventsOfKind(EventKind::CpuOp).empty();
  const OpTable *Ops = GpuOnly ? nullptr : &AM.get<OpTable>();
  constexpr uint32_t None = ~0u;
  // Category texts, each computed once per row category or op name.
  std::vector<std::string> CatText;
  llvm::StringMap<uint32_t> CatIdx;
  llvm::DenseMap<uint64_t, uint32_t> CatOfParent;
  llvm::DenseMap<StrId, uint32_t> CatOfLauncherName; // launches at the root
  auto Intern = [&](std::string S) {
    auto [It, New] = CatIdx.try_emplace(S, uint32_t(CatText.size()));
    if (New)
      CatText.push_back(std::move(S));
    return It->second;
  };
  // Durations per group in file order (pandas sums them in that order).
  llvm::DenseMap<IdKey, uint32_t> IdGroup;
  std::vector<std::vector<double>> Durs;
  std::vector<double> All;
  llvm::ArrayRef<EventId> Kernels = T.eventsOfKind(EventKind::Kernel);
  All.reserve(Kernels.size());
  for (EventId K : Kernels) {
    double Dur = T.dur(K);
    std::optional<int64_t> Stream = T.stream(K);
    EventId L = T.parent(K);
    uint32_t Cat = None, Parent = None;
    if (L != NoEvent) {
      EventId P = kernelParentCpuOp(T, K);
      if (P != NoEvent) {
        Parent = T.nameId(P);
        // Kernels mostly have distinct parent ops, but few categories: a
        // launcher's category is its row's, any other op's a function of
        // its name (OpTable::categoryOf).
        const LauncherRow *R = Ops ? Ops->launcherRow(P) : nullptr;
        uint64_t CatKey = !Ops ? uint64_t(2) << 32
                          : R  ? (uint64_t(1) << 32) | R->CategoryIdx
                               : uint64_t(Parent);
        auto [It, New] = CatOfParent.try_emplace(CatKey, 0);
        if (New)
          It->second = Intern(Ops ? Ops->categoryOf(P) : "other");
        Cat = It->second;
      } else {
        Parent = T.nameId(L);
        auto [It, New] = CatOfLauncherName.try_emplace(Parent, 0);
        if (New) {
          std::string Lower = T.name(L).lower();
          bool Graph = llvm::StringRef(Lower).contains("cudagraph") ||
                       llvm::StringRef(Lower).contains("graphlaunch");
          It->second = Intern(Graph ? "graph" : "runtime");
        }
        Cat = It->second;
      }
    }
    if (GpuOnly)
      Parent = None;
    IdKey Key{Cat, Parent, T.nameId(K), uint32_t(Stream.has_value()),
              Stream.value_or(0)};
    auto [It, New] = IdGroup.try_emplace(Key, uint32_t(Durs.size()));
    if (New)
      Durs.emplace_back();
    Durs[It->second].push_back(Dur);
    All.push_back(Dur);
  }
  // The same groups keyed by their texts, in the table's order.
  std::map<GroupKey, uint32_t> ByKey;
  for (const auto &[Key, G] : IdGroup) {
    auto [Cat, Parent, KName, HasStream, Stream] = Key;
    GroupKey GK;
    if (Cat != None)
      GK.Cat = CatText[Cat];
    if (Parent != None)
      GK.Parent = T.strings().get(Parent).str();
    GK.Kernel = T.strings().get(KName).str();
    if (HasStream)
      GK.Stream = Stream;
    ByKey.emplace(std::move(GK), G);
  }
  double KernelsTotal = numpySum(All);
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  double Total = TL.totalTime();
  for (auto &[Key, GI] : ByKey) {
    const std::vector<double> &V = Durs[GI];
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
