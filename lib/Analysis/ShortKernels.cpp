//===- ShortKernels.cpp - short-kernel histogram and summary -------------===//
#include "tl/Analysis/ShortKernels.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/KernelSummary.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Support/PandasStats.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <array>
#include <map>

using namespace tl;

ShortKernels::ShortKernels(const Trace &T, AnalysisManager &AM) {
  const KernelSummary &KS = AM.get<KernelSummary>();
  GpuOnly = KS.gpuOnly();
  double Threshold = AM.options().ShortKernelThresholdUs;
  double Total = AM.get<GpuTimeline>().totalTime();

  std::vector<double> Values;
  std::vector<std::vector<double>> Durs;
  // Groups keyed by ids: names by pool id, argument values by repr, made
  // once per stored value (shape lists are interned).
  static constexpr llvm::StringLiteral ArgKeys[3] = {
      "Input Dims", "Input Strides", "Concrete Inputs"};
  uint32_t ArgKeyIds[3];
  for (int J = 0; J < 3; ++J)
    ArgKeyIds[J] = T.strings().lookup(ArgKeys[J]);
  ReprIds Ids;
  std::map<std::array<uint32_t, 5>, uint32_t> GroupOf;
  // The kernel_summary rows (every kernel, file order) under the threshold.
  for (EventId K : T.eventsOfKind(EventKind::Kernel)) {
    double Dur = T.dur(K);
    if (!(Dur < Threshold))
      continue;
    Values.push_back(Dur);
    std::array<uint32_t, 5> Key{T.nameId(K), 0, 0, 0, 0};
    EventId Parent = NoEvent;
    if (!GpuOnly) {
      // Rows with a missing key are dropped (pandas groupby default).
      Parent = kernelParentCpuOp(T, K);
      if (Parent == NoEvent)
        continue;
      Key[1] = T.nameId(Parent);
      ArgValue A = T.args(Parent);
      bool Missing = false;
      for (int J = 0; J < 3 && !Missing; ++J) {
        ArgValue V = A.getByKeyId(ArgKeyIds[J]);
        if (V.isNull()) {
          Missing = true;
          break;
        }
        Key[2 + J] = Ids.arg(T, Parent, ArgKeys[J], V);
      }
      if (Missing)
        continue;
    }
    auto [It, New] = GroupOf.try_emplace(Key, uint32_t(Groups.size()));
    if (New) {
      ShortKernelGroup G;
      G.KernelName = T.name(K).str();
      if (Parent != NoEvent) {
        G.ParentCpuOp = T.name(Parent).str();
        G.InputDims = argAsTuple(T, Parent, ArgKeys[0]);
        G.InputStrides = argAsTuple(T, Parent, ArgKeys[1]);
        G.ConcreteInputs = argAsTuple(T, Parent, ArgKeys[2]);
      }
      Groups.push_back(std::move(G));
      Durs.emplace_back();
    }
    Durs[It->second].push_back(Dur);
  }
  NumShort = Values.size();
  Hist = numpyHistogram(Values, AM.options().ShortKernelBins);
  for (size_t I = 0; I < Groups.size(); ++I) {
    ShortKernelGroup &G = Groups[I];
    G.SumUs = pandasGroupSum(Durs[I]);
    G.Count = Durs[I].size();
    G.MeanUs = pandasGroupMean(Durs[I]);
    G.PercentOfTotal = G.SumUs / Total * 100;
  }
  std::stable_sort(Groups.begin(), Groups.end(),
                   [](const ShortKernelGroup &A, const ShortKernelGroup &B) {
                     if (A.SumUs != B.SumUs)
                       return A.SumUs > B.SumUs;
                     if (A.Count != B.Count)
                       return A.Count < B.Count;
                     if (A.MeanUs != B.MeanUs)
                       return A.MeanUs < B.MeanUs;
                     return A.PercentOfTotal < B.PercentOfTotal;
                   });
}
