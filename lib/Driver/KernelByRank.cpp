//===- KernelByRank.cpp - GPU kernels compared across ranks ---------------===//
#include "tl/Driver/KernelByRank.h"

#include "tl/Analysis/GpuTimeline.h"
#include "tl/Driver/RankTable.h"
#include "tl/IR/Trace.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tl {

StringRef kernelByRankTypeName(KernelByRankType T) {
  switch (T) {
  case KernelByRankType::Comm:
    return "comm";
  case KernelByRankType::Memcpy:
    return "memcpy";
  case KernelByRankType::Memset:
    return "memset";
  case KernelByRankType::Compute:
    return "compute";
  }
  return "compute";
}

static bool byName(const RankKernelStats &A, const RankKernelStats &B) {
  return A.Name.ref() < B.Name.ref();
}

std::vector<RankKernelStats> summarizeRankKernels(const Trace &T,
                                                  const GpuTimeline &TL) {
  std::vector<RankKernelStats> Out;
  std::vector<StrId> Ids;
  DenseMap<StrId, size_t> Index;
  GpuBucketer Bucket(T);
  for (EventId E : TL.events()) {
    auto [It, New] = Index.try_emplace(T.nameId(E), Out.size());
    if (New) {
      RankKernelStats S;
      // The gpu_timeline's buckets, with memsets (computation there) apart.
      GpuBucket B = Bucket(E);
      S.Type = B == GpuBucket::Communication    ? KernelByRankType::Comm
               : B == GpuBucket::Memcpy         ? KernelByRankType::Memcpy
               : T.kind(E) == EventKind::Memset ? KernelByRankType::Memset
                                                : KernelByRankType::Compute;
      Out.push_back(S);
      Ids.push_back(T.nameId(E));
    }
    RankKernelStats &S = Out[It->second];
    double Dur = T.end(E) - T.ts(E);
    S.MinUs = S.Count ? std::min(S.MinUs, Dur) : Dur;
    S.MaxUs = S.Count ? std::max(S.MaxUs, Dur) : Dur;
    S.TotalUs += Dur;
    ++S.Count;
  }
  // Interned once per distinct name: the job keeps them past the IR.
  for (size_t I = 0; I < Out.size(); ++I)
    Out[I].Name = SharedName(T.strings().get(Ids[I]));
  llvm::sort(Out, byName);
  return Out;
}

CsvTable kernelByRankTable(ArrayRef<RankSummary> Ranks) {
  CsvTable Tab({"name", "kernel_type", "rank", "count", "total_us", "mean_us",
                "min_us", "max_us", "rank_spread_pct"});
  std::vector<const RankSummary *> Order = inRankOrder(Ranks);
  llvm::erase_if(Order, [](const RankSummary *R) { return !R->HasGpu; });
  if (Order.empty())
    return Tab;
  // Per name: the lowest rank's type and the total over the ranks, summed
  // in rank order.
  struct NameTotal {
    KernelByRankType Type;
    double TotalUs = 0;
  };
  std::map<StringRef, NameTotal> Totals;
  for (const RankSummary *R : Order)
    for (const RankKernelStats &K : R->Kernels) {
      auto [It, New] = Totals.try_emplace(K.Name.ref(), NameTotal{K.Type});
      It->second.TotalUs += K.TotalUs;
    }
  std::vector<std::pair<StringRef, NameTotal>> Top(Totals.begin(),
                                                   Totals.end());
  // By total descending; the map's order (by name) breaks ties.
  llvm::stable_sort(Top, [](const auto &A, const auto &B) {
    return A.second.TotalUs > B.second.TotalUs;
  });
  if (Top.size() > KernelByRankNames)
    Top.resize(KernelByRankNames);
  for (const auto &Entry : Top) {
    StringRef Name = Entry.first;
    const NameTotal &Total = Entry.second;
    std::vector<const RankKernelStats *> Per;
    double Min = 0, Max = 0;
    for (const RankSummary *R : Order) {
      auto It =
          llvm::partition_point(R->Kernels, [&](const RankKernelStats &X) {
            return X.Name.ref() < Name;
          });
      const RankKernelStats *K =
          It != R->Kernels.end() && It->Name.ref() == Name ? &*It : nullptr;
      double V = K ? K->TotalUs : 0;
      Min = Per.empty() ? V : std::min(Min, V);
      Max = Per.empty() ? V : std::max(Max, V);
      Per.push_back(K);
    }
    double Mean = Total.TotalUs / double(Order.size());
    PyValue Spread = Mean > 0 ? pyFloat(100 * (Max - Min) / Mean) : PyValue();
    for (size_t I = 0; I < Order.size(); ++I) {
      const RankKernelStats *K = Per[I];
      std::vector<PyValue> Row = {pyText(Name),
                                  pyText(kernelByRankTypeName(Total.Type)),
                                  pyInt(Order[I]->Claim.Rank)};
      if (K) {
        Row.insert(Row.end(), {pyInt(int64_t(K->Count)), pyFloat(K->TotalUs),
                               pyFloat(K->TotalUs / double(K->Count)),
                               pyFloat(K->MinUs), pyFloat(K->MaxUs)});
      } else {
        // The name did not run on this rank.
        Row.insert(Row.end(),
                   {pyInt(0), pyFloat(0), PyValue(), PyValue(), PyValue()});
      }
      Row.push_back(Spread);
      Tab.addRow(std::move(Row));
    }
  }
  return Tab;
}

} // namespace tl
