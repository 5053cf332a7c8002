//===- ComparativeFusion.cpp - Fusion candidates against a reference -----===//
//
// Spec tracelens-analysis §3.5 "Comparative extraction" and §6.10
// "Comparative estimate". The reference reads diff_stats.csv; we read the
// same data from TraceDiff (a GPU event of trace 1 is in diff_stats with an
// LCA iff TraceDiff::groupOf finds its group). Where the reference iterates
// a Python set (trace-2 kernels, §13 item 13) we use first-matched order.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/Compare/ComparativeFusion.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/FusionRules.h"
#include "tl/Analysis/KernelClassifier.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace tl;
using llvm::StringRef;

namespace {

constexpr StringRef LayoutTransforms[] = {"batched_transpose", "nchw2nhwc",
                                          "nhwc2nchw", "transpose_nchw",
                                          "transpose_cnhw"};
// Case-A gates (§3.5).
constexpr size_t MaxDelta = 15, MaxKernels1 = 30;

bool isMatrixType(StringRef Type) {
  std::string Up = Type.upper();
  return StringRef(Up).contains("GEMM") || StringRef(Up).contains("CONV");
}

FusionKernel kernelOf(const Trace &T, EventId G) {
  FusionKernel K;
  K.Name = T.name(G);
  K.Type = classifyKernelType(K.Name);
  K.DurUs = T.dur(G);
  K.Eligible = isFusionEligibleName(K.Name);
  K.GpuUid = T.uid(G);
  return K;
}

} // namespace

ComparativeFusionCandidates::ComparativeFusionCandidates(const Trace &T,
                                                         AnalysisManager &AM) {
  if (!AM.options().Reference)
    return;
  const TraceDiff &D = AM.get<TraceDiff>();
  if (!D.available())
    return;
  const Trace &R = *D.reference();

  std::vector<ComparativeFusionCandidate> Found;
  llvm::StringMap<size_t> Seen; // base name -> index into Found
  // gpu_events are in file order of their launches (as in the standalone
  // extraction).
  auto LaunchUid = [&](EventId G) {
    EventId L = T.parent(G);
    return L == NoEvent ? T.uid(G) : T.uid(L);
  };
  for (EventId E = 0; E < T.size(); ++E) {
    EventKind K = T.kind(E);
    if (isFusionContainerSkip(K) ||
        (!isHostTreeKind(K) && K != EventKind::UserAnnotation))
      continue;
    if (T.isDroppedFromTree(E))
      continue;
    llvm::ArrayRef<EventId> Sub = T.subtreeGpuEvents(E);
    std::vector<EventId> Gpu(Sub.begin(), Sub.end());
    llvm::sort(Gpu);
    Gpu.erase(std::unique(Gpu.begin(), Gpu.end()), Gpu.end());
    if (Gpu.size() < 2)
      continue;
    llvm::stable_sort(Gpu, [&](EventId A, EventId B) {
      return LaunchUid(A) < LaunchUid(B);
    });
    // Trace-1 kernels with an LCA, and their LCAs in first-matched order.
    std::vector<EventId> K1;
    std::vector<const LcaGroup *> Lcas;
    for (EventId G : Gpu)
      if (const LcaGroup *Gr = D.groupOf(G, /*FromReference=*/false)) {
        K1.push_back(G);
        if (!llvm::is_contained(Lcas, Gr))
          Lcas.push_back(Gr);
      }
    if (K1.size() < 2)
      continue;
    size_t N1 = K1.size(), N2 = 0;
    for (const LcaGroup *Gr : Lcas)
      N2 += Gr->Kernels2.size();
    if (!(N1 > N2 && N1 - N2 <= MaxDelta && N1 <= MaxKernels1 && N2 >= 1))
      continue;
    // The surplus: the n1 - n2 shortest trace-1 kernels.
    std::vector<EventId> ByDur = K1;
    llvm::stable_sort(ByDur, [&](EventId A, EventId B) {
      return T.dur(A) < T.dur(B);
    });
    ByDur.resize(N1 - N2);
    auto AllContain = [&](llvm::ArrayRef<StringRef> Markers) {
      return llvm::all_of(ByDur, [&](EventId G) {
        return nameContainsAny(T.name(G), Markers);
      });
    };
    if (AllContain(fusionExcludedMarkers()) || AllContain(LayoutTransforms))
      continue;

    double Sum1 = 0, Sum2 = 0;
    for (EventId G : K1)
      Sum1 += T.dur(G);
    for (const LcaGroup *Gr : Lcas)
      for (EventId G : Gr->Kernels2)
        Sum2 += R.dur(G);
    std::string Base = fusionBaseName(T.name(E));
    if (auto It = Seen.find(Base); It != Seen.end()) {
      ComparativeFusionCandidate &C = Found[It->second];
      ++C.Base.InstanceCount;
      C.Base.TotalKernelTimeUs += Sum1;
      C.TotalTime2Us += Sum2;
      continue;
    }
    ComparativeFusionCandidate C;
    FusionCandidate &B = C.Base;
    B.ModuleName = T.name(E).str();
    B.BaseName = Base;
    for (EventId P = T.parent(E); P != NoEvent; P = T.parent(P))
      if (!T.name(P).empty())
        B.ParentChain.push_back(fusionChainName(T.name(P)));
    for (EventId G : K1) {
      B.Kernels.push_back(kernelOf(T, G));
      C.LcaIds1.push_back(D.groupOf(G, false)->Id);
    }
    for (const LcaGroup *Gr : Lcas)
      for (EventId G : Gr->Kernels2)
        C.Kernels2.push_back(kernelOf(R, G));
    tallyFusionKernels(B); // KernelCount = N1: B.Kernels is K1
    for (const FusionKernel &FK : B.Kernels)
      B.HasFusedKernel |=
          nameContainsAny(FK.Name, fusionAlreadyFusedMarkers());
    B.TotalKernelTimeUs = Sum1;
    C.TotalTime2Us = Sum2;
    C.N1 = N1;
    C.N2 = N2;
    ArgValue Dims = T.args(E).get("Input Dims");
    if (!Dims.isNull())
      B.InputDimsJson = Dims.toJson();
    Seen[Base] = Found.size();
    Found.push_back(std::move(C));
  }

  // Keep the ones trace 1 is not faster on; kernel-set dedup on trace 1's
  // kernel names (score: is an nn.Module, parent-chain length; ties keep
  // the earlier).
  std::map<std::vector<std::string>, size_t> BySet;
  for (ComparativeFusionCandidate &C : Found) {
    if (C.Base.TotalKernelTimeUs < C.TotalTime2Us || C.Base.Kernels.empty())
      continue;
    std::vector<std::string> Key;
    for (const FusionKernel &K : C.Base.Kernels)
      Key.push_back(K.Name.str());
    auto Score = [](const ComparativeFusionCandidate &X) {
      return std::make_pair(
          StringRef(X.Base.ModuleName).starts_with("nn.Module:"),
          X.Base.ParentChain.size());
    };
    auto [It, New] = BySet.try_emplace(Key, Cands.size());
    if (New)
      Cands.push_back(std::move(C));
    else if (Score(C) > Score(Cands[It->second]))
      Cands[It->second] = std::move(C);
  }
  llvm::stable_sort(Cands, [](const ComparativeFusionCandidate &A,
                              const ComparativeFusionCandidate &B) {
    return A.Base.TotalKernelTimeUs > B.Base.TotalKernelTimeUs;
  });
}

std::vector<PyValue> ComparativeFusionCandidates::toDocs() const {
  auto Kernels = [](llvm::ArrayRef<FusionKernel> Ks,
                    llvm::ArrayRef<uint32_t> Lca) {
    std::vector<PyValue> Out;
    for (size_t I = 0; I < Ks.size(); ++I) {
      FusionDocItems K = {{"name", PyValue::str(Ks[I].Name)},
                          {"type", PyValue::str(Ks[I].Type)},
                          {"dur_us", PyValue::real(Ks[I].DurUs)}};
      if (!Lca.empty()) {
        K.push_back({"lca_id", PyValue::integer(Lca[I])});
        K.push_back({"gpu_op_uid",
                     PyValue::integer(static_cast<int64_t>(Ks[I].GpuUid))});
      }
      Out.push_back(PyValue::dict(std::move(K)));
    }
    return PyValue::list(std::move(Out));
  };
  std::vector<PyValue> Docs;
  for (const ComparativeFusionCandidate &C : Cands) {
    const FusionCandidate &B = C.Base;
    FusionDocItems D;
    addFusionIdentity(D, B);
    D.push_back({"kernel_count_trace1",
                 PyValue::integer(static_cast<int64_t>(C.N1))});
    D.push_back({"kernel_count_trace2",
                 PyValue::integer(static_cast<int64_t>(C.N2))});
    D.push_back({"delta", PyValue::integer(static_cast<int64_t>(C.N1 - C.N2))});
    D.push_back({"kernels_trace1", Kernels(B.Kernels, C.LcaIds1)});
    D.push_back({"kernels_trace2", Kernels(C.Kernels2, {})});
    addFusionComposition(D, B);
    D.push_back({"total_kernel_time_us_trace1",
                 PyValue::real(B.TotalKernelTimeUs)});
    D.push_back({"total_kernel_time_us_trace2", PyValue::real(C.TotalTime2Us)});
    Docs.push_back(PyValue::dict(std::move(D)));
  }
  return Docs;
}

FusionResult
tl::estimateComparativeFusion(llvm::ArrayRef<ComparativeFusionCandidate> Cands,
                              const FusionParams &P) {
  FusionResult R;
  // Pre-filter as in the standalone estimator, on trace 1's counts/times
  // (Base.KernelCount is N1).
  std::vector<const ComparativeFusionCandidate *> Pre = prefilterFusion(
      Cands, P, R,
      [](const ComparativeFusionCandidate &C) -> const FusionCandidate & {
        return C.Base;
      });
  if (R.NoData)
    return R;

  for (const ComparativeFusionCandidate *C : Pre) {
    const FusionCandidate &B = C->Base;
    double GapUs = B.TotalKernelTimeUs - C->TotalTime2Us;
    if (GapUs <= 0)
      continue;
    double SavingsHighMs = GapUs / 1000;
    if (SavingsHighMs < P.MinSavingsMs)
      continue;
    auto Impact = [&](double SavingsMs) {
      return P.BaselineMs > 0 ? SavingsMs / P.BaselineMs * 100 : 0;
    };
    double High = Impact(SavingsHighMs);
    if (High < P.MinImpactPct)
      continue;
    std::vector<bool> IsMatrix;
    for (const FusionKernel &K : B.Kernels)
      IsMatrix.push_back(isMatrixType(K.Type));
    bool AnyMatrix = llvm::is_contained(IsMatrix, true);
    FusionEstimate E;
    E.Operation = B.BaseName.empty() ? B.ModuleName : B.BaseName;
    E.ImpactHigh = pyRound(High, 2);
    E.ImpactLow = pyRound(Impact(0.75 * SavingsHighMs), 2);
    E.ImpactMid = pyRound(Impact(0.875 * SavingsHighMs), 2);
    E.Estimation = "measured";
    E.BoundType = AnyMatrix ? "compute" : "memory";
    E.FusionType = AnyMatrix ? "matrix_compute" : "memory_bound";
    E.TimeMs = pyRound(B.TotalKernelTimeUs / 1000, 3);
    E.SavingsMs = SavingsHighMs;
    E.InstanceCount = B.InstanceCount;
    E.KernelCount = E.ModeledKernelCount = C->N1;
    E.DeltaKernelCount = C->N1 - C->N2;
    E.Confidence = fusionConfidence(B, IsMatrix);
    for (const FusionKernel &K : B.Kernels)
      E.Kernels.push_back(K.Name.str());
    E.Candidate = &B;
    R.Estimates.push_back(std::move(E));
  }
  finishFusionResult(R);
  return R;
}
