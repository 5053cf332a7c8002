//===- ShortKernels.cpp - short-kernel histogram and summary -------------===//
#include "tl/Analysis/ShortKernels.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/KernelSummary.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Support/PandasStats.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace tl;

ShortKernels::ShortKernels(const Trace &T, AnalysisManager &AM) {
  const KernelSummary &KS = AM.get<KernelSummary>();
  GpuOnly = KS.gpuOnly();
  double Threshold = AM.options().ShortKernelThresholdUs;
  double Total = AM.get<GpuTimeline>().totalTime();

  std::vector<double> Values;
  llvm::StringMap<uint32_t> GroupOf;
  std::vector<std::vector<double>> Durs;
  // The kernel_summary rows (every kernel, file order) under the threshold.
  for (EventId K : T.eventsOfKind(EventKind::Kernel)) {
    double Dur = T.dur(K);
    if (!(Dur < Threshold))
      continue;
    Values.push_back(Dur);
    ShortKernelGroup G;
    G.KernelName = T.name(K).str();
    std::string Key;
    if (!GpuOnly) {
      // Rows with a missing key are dropped (pandas groupby default).
      EventId Parent = kernelParentCpuOp(T, K);
      if (Parent == NoEvent)
        continue;
      G.ParentCpuOp = T.name(Parent).str();
      G.InputDims = argAsTuple(T, Parent, "Input Dims");
      G.InputStrides = argAsTuple(T, Parent, "Input Strides");
      G.ConcreteInputs = argAsTuple(T, Parent, "Concrete Inputs");
      if (G.InputDims.isNone() || G.InputStrides.isNone() ||
          G.ConcreteInputs.isNone())
        continue;
      Key = G.ParentCpuOp + '\x1f' + pyRepr(G.InputDims) + '\x1f' +
            pyRepr(G.InputStrides) + '\x1f' + pyRepr(G.ConcreteInputs) +
            '\x1f';
    }
    Key += G.KernelName;
    auto [It, New] = GroupOf.try_emplace(Key, uint32_t(Groups.size()));
    if (New) {
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
