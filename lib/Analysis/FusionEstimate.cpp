//===- FusionEstimate.cpp - Kernel-fusion savings estimator --------------===//
//
// Spec tracelens-analysis §6.10, standalone scope.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/FusionEstimate.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/ComparativeFusion.h"
#include "tl/Analysis/FusionInstances.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace tl;
using llvm::StringRef;

namespace {

constexpr StringRef MatrixSpecs[] = {"matrix_fp16", "matrix_bf16",
                                     "matrix_fp32", "matrix_fp64",
                                     "matrix_fp8",  "matrix_int8"};
constexpr StringRef NormTypes[] = {"LayerNorm", "BatchNorm", "GroupNorm",
                                   "InstanceNorm", "Norm"};
constexpr StringRef NormNames[] = {"batchnorm", "layernorm", "groupnorm",
                                   "instancenorm", "miopenbatchnorm",
                                   "rmsnorm"};

struct EKernel {
  const FusionKernel *K;
  std::string ComputeSpec;
  std::optional<double> DataMovedMB, Gflops;
  std::optional<double> DataInMB, DataOutMB;
  bool Modelled = false;
  bool matrix() const {
    std::string Up = StringRef(K->Type).upper();
    return llvm::is_contained(MatrixSpecs, StringRef(ComputeSpec)) ||
           StringRef(Up).contains("GEMM") || StringRef(Up).contains("CONV");
  }
  bool norm() const {
    std::string L = StringRef(K->Name).lower();
    return llvm::is_contained(NormTypes, StringRef(K->Type)) ||
           llvm::any_of(NormNames,
                        [&](StringRef M) { return StringRef(L).contains(M); });
  }
};

std::string confidenceOf(const FusionCandidate &C,
                         llvm::ArrayRef<EKernel> Ks) {
  std::vector<bool> IsMatrix;
  for (const EKernel &K : Ks)
    IsMatrix.push_back(K.matrix());
  return fusionConfidence(C, IsMatrix);
}

} // namespace

std::string tl::fusionConfidence(const FusionCandidate &C,
                                 const std::vector<bool> &IsMatrix) {
  std::string Base = StringRef(C.BaseName).lower(),
              Mod = StringRef(C.ModuleName).lower();
  static const std::vector<std::vector<StringRef>> Hints = {
      {"attention", "sdpa", "self_attn"},
      {"rmsnorm", "rms_norm", "layernorm", "layer_norm", "batchnorm",
       "batch_norm"},
      {"mlp"},
      {"rotary", "rope", "apply_rotary"},
      {"silu", "swiglu"}};
  bool NameSig = llvm::any_of(Hints, [&](const std::vector<StringRef> &G) {
    return llvm::any_of(G, [&](StringRef H) {
      return StringRef(Base).contains(H) || StringRef(Mod).contains(H);
    });
  });
  unsigned Mat = 0, NonMat = 0;
  bool Softmax = false, Rsqrt = false, Neg = false, Cat = false;
  for (size_t I = 0; I < C.Kernels.size(); ++I) {
    (I < IsMatrix.size() && IsMatrix[I] ? Mat : NonMat) += 1;
    std::string L = StringRef(C.Kernels[I].Name).lower();
    StringRef N(L);
    Softmax |= N.contains("softmax");
    Rsqrt |= N.contains("rsqrt");
    Neg |= N.contains("neg");
    Cat |= N.contains("catarray") || N.contains("cat_");
  }
  bool CompSig = (Mat >= 2 && Softmax) || Rsqrt || (Mat >= 2 && NonMat >= 1) ||
                 (Neg && Cat) || (Mat == 0 && C.Kernels.size() >= 3);
  return NameSig && CompSig ? "high" : (NameSig || CompSig) ? "medium" : "low";
}

double tl::roofLineSavingsUs(llvm::ArrayRef<RooflineKernel> G,
                             const FusionParams &P) {
  const double F = 1.0;
  double All = 0, Unmodelled = 0;
  const RooflineKernel *First = nullptr, *Last = nullptr;
  double MatG = 0, VecG = 0;
  for (const RooflineKernel &K : G) {
    All += K.DurUs;
    if (!K.Modelled) {
      Unmodelled += K.DurUs;
      continue;
    }
    if (!First)
      First = &K;
    Last = &K;
    if (K.Gflops && *K.Gflops)
      (K.Matrix ? MatG : VecG) += *K.Gflops;
  }
  if (!First)
    return 0;
  double In = First->DataInMB ? *First->DataInMB : *First->DataMovedMB / 2;
  double Out = Last->DataOutMB ? *Last->DataOutMB : *Last->DataMovedMB / 2;
  double Bytes = (In + Out) * P.BytesPerMB;
  if (Bytes <= 0 || P.PeakBwBytesPerSec <= 0)
    return 0;
  double TMem = Bytes / (P.PeakBwBytesPerSec * F) * 1e6;
  double TMat = P.MatrixTflops > 0
                    ? MatG * 1e9 / (P.MatrixTflops * 1e12 * F) * 1e6
                    : 0;
  double TVec = P.VectorTflops > 0
                    ? VecG * 1e9 / (P.VectorTflops * 1e12 * F) * 1e6
                    : 0;
  double Opt = std::max({TMem, TMat, TVec});
  double Sum = TMem + TMat + TVec;
  double Fused = Opt + (1 - P.OverlapEfficiency) * (Sum - Opt);
  return std::max(0.0, All - Fused - Unmodelled);
}

namespace {

/// §6.10 step 6 over one instance: sub-groups split at every matrix kernel;
/// a group with a matrix kernel saves its other kernels' time (epilogue),
/// a group without one saves time over its roofline. Dur overrides the
/// kernels' durations (empty = the candidate's first instance).
double candidateSavingsUs(llvm::ArrayRef<EKernel> Ks, llvm::ArrayRef<double> Dur,
                          const FusionParams &P, bool &AnyEpilogue) {
  auto DurOf = [&](const EKernel *K) {
    return Dur.empty() ? K->K->DurUs : Dur[K - Ks.data()];
  };
  std::vector<std::vector<const EKernel *>> Groups;
  for (const EKernel &K : Ks) {
    if (Groups.empty() || (K.matrix() && !Groups.back().empty()))
      Groups.emplace_back();
    Groups.back().push_back(&K);
  }
  double Savings = 0;
  for (const auto &G : Groups) {
    bool HasMat = llvm::any_of(G, [](auto *K) { return K->matrix(); });
    bool HasNon = llvm::any_of(G, [](auto *K) { return !K->matrix(); });
    if (HasMat && HasNon) {
      AnyEpilogue = true;
      for (const EKernel *K : G)
        if (!K->matrix())
          Savings += DurOf(K);
    } else if (!HasMat) {
      std::vector<RooflineKernel> RK;
      for (const EKernel *K : G)
        RK.push_back({DurOf(K), false, K->Modelled, K->DataInMB, K->DataOutMB,
                      K->DataMovedMB, K->Gflops});
      Savings += roofLineSavingsUs(RK, P);
    }
  }
  return Savings;
}

/// The candidate's kernels with the perf data of one input shape.
std::vector<EKernel> perfKernels(const FusionCandidate &C,
                                 const KernelPerfLookup &Lookup,
                                 const KernelPerfLookup::Shape &Shape,
                                 bool Enriched) {
  std::vector<EKernel> Ks;
  for (const FusionKernel &K : C.Kernels) {
    EKernel E{&K, "", std::nullopt, std::nullopt, std::nullopt, std::nullopt,
              false};
    if (Enriched) {
      E.DataInMB = K.DataInMB;
      E.DataOutMB = K.DataOutMB;
    }
    if (const KernelPerfEntry *PE = Lookup.find(K.Name, Shape)) {
      E.DataMovedMB = PE->DataMovedMB;
      E.Gflops = PE->Gflops;
      E.ComputeSpec = PE->ComputeSpec;
      if (!Enriched) {
        E.DataInMB = PE->DataInMB;
        E.DataOutMB = PE->DataOutMB;
      }
    }
    E.Modelled = E.DataMovedMB.has_value();
    Ks.push_back(E);
  }
  return Ks;
}

} // namespace

FusionResult tl::estimateFusion(llvm::ArrayRef<FusionCandidate> Cands,
                                const KernelPerfLookup &Lookup,
                                const FusionParams &P) {
  FusionResult R;
  std::vector<const FusionCandidate *> Pre = prefilterFusion(
      Cands, P, R, [](const FusionCandidate &C) -> const FusionCandidate & {
        return C;
      });
  if (R.NoData)
    return R;

  for (const FusionCandidate *C : Pre) {
    if (C->Kernels.size() < 2 || C->HasFusedKernel)
      continue;
    std::vector<EKernel> Ks = perfKernels(*C, Lookup, C->FirstShape, true);
    size_t Modelled = llvm::count_if(Ks, [](auto &K) { return K.Modelled; });
    size_t Mat = llvm::count_if(Ks, [](auto &K) { return K.matrix(); });
    if (!Modelled || Mat == Ks.size())
      continue;
    if (llvm::any_of(Ks, [](auto &K) {
          return StringRef(K.K->Name).starts_with("triton_");
        }))
      continue;
    if (Mat > 0 && llvm::all_of(Ks, [](auto &K) {
          return K.matrix() || K.norm();
        }))
      continue;
    double Frac = double(Modelled) / Ks.size();
    if (Frac < (Ks.size() < 5 ? 0.5 : 0.75))
      continue;
    double Current = 0;
    for (const EKernel &K : Ks)
      Current += K.K->DurUs;
    if (Current <= 0)
      continue;
    bool AnyEpilogue = false;
    double Savings = candidateSavingsUs(Ks, {}, P, AnyEpilogue);
    double GapHigh = Savings / Current;
    double SavingsHighMs = Savings * C->InstanceCount / 1000;
    if (SavingsHighMs < P.MinSavingsMs)
      continue;
    double TimeMs = Current * C->InstanceCount / 1000;
    auto Impact = [&](double Gap) {
      return P.BaselineMs > 0 ? Gap * TimeMs / P.BaselineMs * 100 : 0;
    };
    double High = Impact(GapHigh);
    if (High < P.MinImpactPct)
      continue;
    FusionEstimate E;
    E.Operation = C->BaseName.empty() ? C->ModuleName : C->BaseName;
    E.ImpactHigh = pyRound(High, 2);
    E.ImpactLow = pyRound(Impact(0.75 * GapHigh), 2);
    E.ImpactMid = pyRound(Impact(0.875 * GapHigh), 2);
    E.Estimation = Modelled == Ks.size() ? "full" : "partial";
    E.BoundType = AnyEpilogue ? "compute" : "memory";
    E.TimeMs = pyRound(TimeMs, 3);
    E.SavingsMs = SavingsHighMs;
    E.InstanceCount = C->InstanceCount;
    E.KernelCount = Ks.size();
    E.ModeledKernelCount = Modelled;
    E.Confidence = confidenceOf(*C, Ks);
    for (const EKernel &K : Ks)
      E.Kernels.push_back(K.K->Name.str());
    E.FusionType = Mat ? "matrix_compute" : "memory_bound";
    if (Modelled < Ks.size()) {
      E.Warning = std::to_string(Ks.size() - Modelled) + " of " +
                  std::to_string(Ks.size()) +
                  " kernels lack perf models; savings estimate uses trace "
                  "time for unmodeled kernels";
      R.Warnings.push_back(E.Warning);
    }
    E.Candidate = C;
    R.Estimates.push_back(std::move(E));
  }
  finishFusionResult(R);
  return R;
}

std::optional<MeasuredFusion>
tl::measureFusionEstimate(const FusionEstimate &E,
                          llvm::ArrayRef<FusionInstance> Instances,
                          const KernelPerfLookup &Lookup,
                          const FusionParams &P) {
  if (!E.Candidate || Instances.empty())
    return std::nullopt;
  MeasuredFusion M;
  double TimeUs = 0, SavingsUs = 0;
  bool First = true;
  for (const FusionInstance &I : Instances) {
    std::vector<EKernel> Ks = perfKernels(*E.Candidate, Lookup, I.Shape, false);
    bool AnyEpilogue = false;
    double T = I.timeUs();
    // Never more than the instance ran, whatever the model says.
    double S = std::min(T, candidateSavingsUs(Ks, I.DurUs, P, AnyEpilogue));
    TimeUs += T;
    SavingsUs += S;
    M.MinInstanceUs = First ? T : std::min(M.MinInstanceUs, T);
    M.MaxInstanceUs = First ? T : std::max(M.MaxInstanceUs, T);
    First = false;
  }
  M.InstanceCount = Instances.size();
  M.TimeMs = TimeUs / 1000;
  M.SavingsMs = SavingsUs / 1000;
  if (P.BaselineMs > 0) {
    double High = M.SavingsMs / P.BaselineMs * 100;
    M.ImpactHigh = pyRound(High, 2);
    M.ImpactLow = pyRound(0.75 * High, 2);
    M.ImpactMid = pyRound(0.875 * High, 2);
  }
  M.Significant = M.SavingsMs >= P.MinSavingsMs &&
                  M.ImpactHigh >= P.MinImpactPct;
  return M;
}

void tl::finishFusionResult(FusionResult &R) {
  std::stable_sort(R.Estimates.begin(), R.Estimates.end(),
                   [](const FusionEstimate &A, const FusionEstimate &B) {
                     return A.ImpactMid > B.ImpactMid;
                   });
  for (const FusionEstimate &E : R.Estimates) {
    if (E.Confidence != "high")
      continue;
    for (const std::string &K : E.Kernels) {
      auto It = llvm::find_if(R.HighConfidenceMap,
                              [&](auto &P) { return P.first == K; });
      if (It == R.HighConfidenceMap.end())
        R.HighConfidenceMap.emplace_back(K, E.Operation);
      else
        It->second = E.Operation;
    }
  }
}

FusionParams tl::defaultFusionParams(AnalysisManager &AM) {
  FusionParams P;
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  P.BaselineMs = TL.totalTime() / 1000;
  if (const std::optional<ArchSpec> &A = AM.options().Arch) {
    P.PeakBwBytesPerSec = A->MemBwGBps / 1000 * 1e12;
    P.MatrixTflops = A->peakTflops("matrix_bf16").value_or(0);
    P.VectorTflops = A->peakTflops("vector_bf16")
                         .value_or(P.MatrixTflops ? P.MatrixTflops : 1);
  }
  return P;
}

FusionKernelMap::FusionKernelMap(const Trace &, AnalysisManager &AM) {
  FusionResult R;
  if (AM.options().Reference) { // comparative scope (§6.10)
    R = estimateComparativeFusion(
        AM.get<ComparativeFusionCandidates>().candidates(),
        defaultFusionParams(AM));
  } else {
    const FusionCandidates &C = AM.get<FusionCandidates>();
    R = estimateFusion(C.candidates(), C.perfLookup(),
                       defaultFusionParams(AM));
  }
  for (auto &[K, Op] : R.HighConfidenceMap)
    Map[K] = Op;
  Entries = std::move(R.HighConfidenceMap);
}

std::optional<StringRef> FusionKernelMap::lookup(StringRef Kernel) const {
  auto It = Map.find(Kernel);
  if (It == Map.end())
    return std::nullopt;
  return StringRef(It->second);
}
