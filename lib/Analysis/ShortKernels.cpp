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
  for (const KernelRow &R : KS.kernels()) {
    if (!(R.DurUs < Threshold))
      continue;
    Values.push_back(R.DurUs);
    ShortKernelGroup G;
    G.KernelName = T.name(R.Kernel).str();
    std::string Key;
    if (!GpuOnly) {
      // Rows with a missing key are dropped (pandas groupby default).
      if (R.ParentCpuOp == NoEvent)
        continue;
      G.ParentCpuOp = T.name(R.ParentCpuOp).str();
      G.InputDims = argAsTuple(T, R.ParentCpuOp, "Input Dims");
      G.InputStrides = argAsTuple(T, R.ParentCpuOp, "Input Strides");
      G.ConcreteInputs = argAsTuple(T, R.ParentCpuOp, "Concrete Inputs");
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
    Durs[It->second].push_back(R.DurUs);
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
