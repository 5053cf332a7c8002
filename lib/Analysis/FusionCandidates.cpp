//===- FusionCandidates.cpp - Kernel-fusion candidate extraction ---------===//
//
// Spec tracelens-analysis §3.5, standalone scope. Sums run in the
// reference's order so totals match its floats.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/FusionCandidates.h"
#include "tl/Analysis/FusionRules.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/KernelClassifier.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Analysis/PerfMetrics.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/PyLiteral.h"
#include "tl/Support/SortRuns.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace tl;
using llvm::StringRef;

namespace {

constexpr StringRef NormMarkers[] = {"batchnorm", "layernorm", "groupnorm",
                                     "instancenorm", "rmsnorm"};

} // namespace

KernelPerfLookup::Shape tl::fusionFirstShape(const ArgValue &Dims) {
  if (!Dims.isArray() || Dims.size() == 0)
    return std::nullopt;
  ArgValue F = Dims[0];
  if (!F.isArray())
    return std::nullopt;
  std::vector<int64_t> S;
  for (size_t I = 0; I < F.size(); ++I)
    S.push_back(F[I].getInt());
  return S;
}

namespace {

KernelPerfLookup::Shape shapeOfLiteral(StringRef Text) {
  llvm::Expected<PyValue> V = parsePyLiteral(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  if (V->elems().empty())
    return std::nullopt;
  const PyValue &F = V->elems()[0];
  if (F.kind() != PyValue::Kind::Tuple && F.kind() != PyValue::Kind::List)
    return std::nullopt;
  std::vector<int64_t> S;
  for (const PyValue &X : F.elems())
    S.push_back(X.isNumber() ? static_cast<int64_t>(X.asDouble()) : 0);
  return S;
}

/// Spec §3.5 data_in/data_out split of Data Moved (MB).
std::pair<std::optional<double>, std::optional<double>>
splitData(const UnifiedPerfRow &R) {
  std::optional<double> DM = R.DataMovedMB;
  if (!DM || *DM == 0 || std::isnan(*DM))
    return {std::nullopt, std::nullopt};
  std::pair<std::optional<double>, std::optional<double>> Half{*DM / 2,
                                                               *DM / 2};
  if (!R.PerfParams)
    return Half;
  auto Get = [&](StringRef K) -> const std::string * {
    for (const auto &[Key, V] : *R.PerfParams)
      if (Key == K)
        return &V;
    return nullptr;
  };
  if (R.Category == "GEMM") {
    const std::string *M = Get("M"), *N = Get("N"), *K = Get("K");
    std::optional<int64_t> Mi = M ? parsePyInt(*M) : std::nullopt,
                           Ni = N ? parsePyInt(*N) : std::nullopt,
                           Ki = K ? parsePyInt(*K) : std::nullopt;
    if (Mi && Ni && Ki && *Mi && *Ni && *Ki) {
      double Mk = double(*Mi) * double(*Ki), Kn = double(*Ki) * double(*Ni),
             Mn = double(*Mi) * double(*Ni);
      double Den = Mk + Kn + Mn;
      return {*DM * (Mk + Kn) / Den, *DM * Mn / Den};
    }
    return Half;
  }
  if (R.Category == "reduce")
    return {*DM, 0.0};
  if (R.Category == "elementwise" && Get("shape_in1"))
    return {2.0 / 3 * *DM, 1.0 / 3 * *DM};
  return Half;
}

} // namespace

std::string tl::fusionBaseName(StringRef Name) {
  Name.consume_front("nn.Module: ");
  size_t P = Name.rfind('_');
  if (P != StringRef::npos && P + 1 < Name.size() &&
      llvm::all_of(Name.drop_front(P + 1), llvm::isDigit))
    Name = Name.take_front(P);
  return Name.str();
}

void KernelPerfLookup::add(StringRef Kernel, const Shape &S,
                           KernelPerfEntry E) {
  auto [It, New] = Index.try_emplace(Kernel, Names.size());
  size_t I = It->second;
  if (New) {
    Names.push_back(Kernel.str());
    Entries.emplace_back();
  }
  for (auto &P : Entries[I])
    if (P.first == S)
      return; // first row wins
  Entries[I].emplace_back(S, std::move(E));
}

const std::vector<std::pair<KernelPerfLookup::Shape, KernelPerfEntry>> *
KernelPerfLookup::entries(StringRef Kernel) const {
  if (auto It = Index.find(Kernel); It != Index.end())
    return &Entries[It->second];
  for (size_t I = 0; I < Names.size(); ++I)
    if (StringRef(Names[I]).starts_with(Kernel) ||
        Kernel.starts_with(Names[I]))
      return &Entries[I];
  return nullptr;
}

const KernelPerfEntry *KernelPerfLookup::find(StringRef Kernel,
                                              const Shape &S) const {
  const auto *E = entries(Kernel);
  if (!E || E->empty())
    return nullptr;
  for (const auto &P : *E)
    if (P.first == S)
      return &P.second;
  return &E->front().second;
}

FusionCandidates::FusionCandidates(const Trace &T, AnalysisManager &AM) {
  // Kernel type and name tests per interned kernel name: a kernel is seen
  // once per enclosing module, so these would otherwise repeat many times.
  struct NameFacts {
    StringRef Type;
    bool Eligible = true, Fused = false;
    bool Mat = false, Normish = false, Softmax = false;
  };
  NameMemo FactsOf(T, [&](StringRef N) {
    NameFacts F;
    std::string Lower = N.lower();
    F.Type = classifyKernelType(N);
    F.Fused = nameContainsAny(N, fusionAlreadyFusedMarkers());
    F.Eligible = !nameContainsAny(N, fusionExcludedMarkers()) && !F.Fused;
    std::string Up = F.Type.upper();
    F.Mat = Up == "GEMM" || Up == "GEMM (GENERIC)" ||
            StringRef(Lower).contains("conv");
    F.Normish = nameContainsAny(N, NormMarkers) ||
                F.Type == "Elementwise Add" || F.Type == "Copy/Cast";
    F.Softmax = StringRef(Lower).contains("softmax");
    return F;
  });

  // 1. Module pass over host tree events in file order.
  std::vector<FusionCandidate> Module;
  llvm::StringMap<size_t> Seen; // base name -> index into Module
  constexpr size_t Dropped = ~size_t(0); // a base the filters drop
  constexpr size_t Unseen = Dropped - 1;
  // Seen's entry of each distinct event name's base (entries do not move
  // when the map grows): one fusionBaseName per name, not per event.
  NameMemo BaseOf(T, [&](StringRef N) {
    return &*Seen.try_emplace(fusionBaseName(N), Unseen).first;
  });
  // Kernel time of a repeated instance's subtree. Nested repeats (a chain of
  // one module name nested D deep) would re-sum D^2/2 kernels, so ranges
  // above SubtreeKernelIndex::DirectLimit read a prefix sum over the GPU
  // tree order, built on first use and kept in long double so the
  // difference may only differ from the left-to-right sum in the last bit.
  std::vector<long double> KernelPrefix;
  auto SubtreeKernelTime = [&](llvm::ArrayRef<EventId> Gpu) -> double {
    if (Gpu.size() <= SubtreeKernelIndex::DirectLimit) {
      double S = 0;
      for (EventId G : Gpu)
        if (T.kind(G) == EventKind::Kernel)
          S += T.dur(G);
      return S;
    }
    llvm::ArrayRef<EventId> Order = T.gpuTreeOrder();
    if (KernelPrefix.empty()) {
      KernelPrefix.resize(Order.size() + 1);
      for (size_t I = 0; I < Order.size(); ++I)
        KernelPrefix[I + 1] =
            KernelPrefix[I] +
            (T.kind(Order[I]) == EventKind::Kernel ? T.dur(Order[I]) : 0);
    }
    size_t B = Gpu.data() - Order.data();
    return double(KernelPrefix[B + Gpu.size()] - KernelPrefix[B]);
  };
  for (EventId E = 0; E < T.size(); ++E) {
    EventKind K = T.kind(E);
    if (isFusionContainerSkip(K) ||
        (!isHostTreeKind(K) && K != EventKind::UserAnnotation))
      continue;
    // (Most events own fewer than two GPU events: test that first.)
    llvm::ArrayRef<EventId> Gpu = T.subtreeGpuEvents(E);
    if (Gpu.size() < 2 || T.isDroppedFromTree(E))
      continue;
    llvm::StringMapEntry<size_t> &Slot = *BaseOf(E);
    if (Slot.second != Unseen) {
      if (Slot.second == Dropped)
        continue;
      FusionCandidate &C = Module[Slot.second];
      ++C.InstanceCount;
      C.Instances.push_back(E);
      C.TotalKernelTimeUs += SubtreeKernelTime(Gpu);
      continue;
    }
    // The filters below the loop read only kernel-name facts, so a base
    // they would drop is registered without building its kernel list (most
    // python frames own large subtrees and end up dropped).
    size_t NumKernels = 0, NumEligible = 0;
    bool AnyFused = false, HasMat = false, HasOther = false,
         OthersNormish = true;
    for (EventId G : Gpu) {
      if (T.kind(G) != EventKind::Kernel)
        continue;
      const NameFacts &NF = FactsOf(G);
      ++NumKernels;
      NumEligible += NF.Eligible;
      AnyFused |= NF.Fused;
      if (NF.Mat) {
        HasMat = true;
      } else {
        HasOther = true;
        OthersNormish &= NF.Normish;
      }
    }
    if (NumKernels < 2)
      continue; // base not registered
    if (AnyFused || NumEligible < 2 || (HasMat && HasOther && OthersNormish)) {
      Slot.second = Dropped;
      continue;
    }
    FusionCandidate C;
    // The reference's gpu_events are in file order of their launches
    // (it links runtime events in trace order), not in time order.
    // Keys are read once; (launch uid, position) pairs sort stably.
    std::vector<EventId> Sorted;
    Sorted.reserve(NumKernels);
    for (EventId G : Gpu)
      if (T.kind(G) == EventKind::Kernel)
        Sorted.push_back(G);
    // Each (uid, position) pair is packed into one word (uids are 32-bit
    // in the IR), which sorts about twice as fast as pairs. A module's
    // kernels in GPU tree order are already in launch order but for a few
    // blocks (two or three ascending runs on real traces).
    std::vector<uint64_t> Keyed;
    Keyed.reserve(Sorted.size());
    for (EventId G : Sorted) {
      EventId R = T.parent(G);
      uint64_t Uid = R == NoEvent ? T.uid(G) : T.uid(R);
      Keyed.push_back(Uid << 32 | Keyed.size());
    }
    if (!llvm::is_sorted(Keyed)) {
      sortFewRuns(Keyed.begin(), Keyed.end(), std::less<uint64_t>());
      std::vector<EventId> ByPos = std::move(Sorted);
      Sorted.clear();
      for (uint64_t KP : Keyed)
        Sorted.push_back(ByPos[uint32_t(KP)]);
    }
    C.Kernels.reserve(Sorted.size());
    for (EventId G : Sorted) {
      const NameFacts &NF = FactsOf(G);
      FusionKernel FK;
      FK.Name = T.name(G);
      FK.Type = NF.Type;
      FK.DurUs = T.dur(G);
      FK.Eligible = NF.Eligible;
      FK.GpuUid = T.uid(G);
      FK.NameId = T.nameId(G);
      C.HasFusedKernel |= NF.Fused;
      C.Kernels.push_back(std::move(FK));
    }
    C.ModuleName = T.name(E).str();
    C.BaseName = Slot.first().str();
    for (EventId P = T.parent(E); P != NoEvent; P = T.parent(P)) {
      if (T.name(P).empty())
        continue;
      C.ParentChain.push_back(fusionChainName(T.name(P)));
    }
    tallyFusionKernels(C);
    for (const FusionKernel &FK : C.Kernels)
      C.TotalKernelTimeUs += FK.DurUs;
    ArgValue Dims = T.args(E).get("Input Dims");
    if (!Dims.isNull()) {
      C.InputDimsJson = Dims.toJson();
      C.FirstShape = fusionFirstShape(Dims);
    }
    C.Instances.push_back(E);
    Slot.second = Module.size();
    Module.push_back(std::move(C));
  }
  // Module now holds only bases that pass: no already-fused kernel, at
  // least two eligible ones, and not GEMM+norm only (library epilogues
  // already serve those).
  std::vector<FusionCandidate> Out = std::move(Module);

  // The rest needs the unified perf table (the longest analysis): the
  // module pass above runs while another thread may still compute it.
  const UnifiedPerfTable &U = AM.get<UnifiedPerfTable>();
  for (const UnifiedPerfRow &R : U.rows()) {
    KernelPerfEntry E;
    E.OpCategory = R.Category;
    auto [DataIn, DataOut] = splitData(R);
    E.DataInMB = DataIn;
    E.DataOutMB = DataOut;
    auto NaN = [](std::optional<double> V) {
      return V && std::isnan(*V) ? std::nullopt : V;
    };
    E.DataMovedMB = NaN(R.DataMovedMB);
    E.Gflops = NaN(R.Gflops);
    E.FlopsPerByte = NaN(R.FlopsPerByte);
    E.ComputeSpec = R.ComputeSpec;
    KernelPerfLookup::Shape S = shapeOfLiteral(R.InputDims);
    for (const KernelStat &K : R.KernelDetails)
      Lookup.add(K.Name, S, E);
  }

  // 2. Sibling sequences: leaf ops launching exactly one kernel, by parent.
  std::vector<EventId> Parents;
  llvm::DenseMap<EventId, std::vector<EventId>> Children;
  for (EventId E : U.collected()) {
    llvm::ArrayRef<EventId> Gpu = T.subtreeGpuEvents(E);
    if (Gpu.size() != 1 || T.kind(Gpu[0]) != EventKind::Kernel)
      continue;
    EventId P = T.parent(E);
    if (P == NoEvent)
      continue;
    auto [It, New] = Children.try_emplace(P);
    if (New)
      Parents.push_back(P);
    It->second.push_back(E);
  }
  llvm::StringMap<size_t> SibSeen;
  std::vector<FusionCandidate> Sib;
  for (EventId P : Parents) {
    const std::vector<EventId> &Ch = Children[P];
    if (Ch.size() < 2)
      continue;
    std::string Base = fusionBaseName(T.name(P));
    double Sum = 0;
    for (EventId E : Ch)
      Sum += T.dur(T.subtreeGpuEvents(E)[0]);
    if (auto It = SibSeen.find(Base); It != SibSeen.end()) {
      ++Sib[It->second].InstanceCount;
      Sib[It->second].TotalKernelTimeUs += Sum;
      Sib[It->second].Instances.push_back(P);
      std::vector<EventId> &SK = Sib[It->second].SiblingKernels.emplace_back();
      for (EventId E : Ch)
        SK.push_back(T.subtreeGpuEvents(E)[0]);
      continue;
    }
    FusionCandidate C;
    C.Sibling = true;
    C.ModuleName = T.name(P).str();
    C.BaseName = Base;
    for (EventId E : Ch) {
      EventId G = T.subtreeGpuEvents(E)[0];
      FusionKernel FK;
      FK.Op = T.name(E).str();
      FK.Name = T.name(G);
      FK.Type = FactsOf(G).Type;
      FK.DurUs = T.dur(G);
      FK.GpuUid = T.uid(G);
      FK.NameId = T.nameId(G);
      C.TypeSignature.push_back(FK.Type);
      C.Kernels.push_back(std::move(FK));
    }
    C.KernelCount = C.EligibleCount = C.Kernels.size();
    C.TotalKernelTimeUs = Sum;
    ArgValue Dims = T.args(P).get("Input Dims");
    if (!Dims.isNull()) {
      C.InputDimsJson = Dims.toJson();
      C.FirstShape = fusionFirstShape(Dims);
    }
    C.Instances.push_back(P);
    std::vector<EventId> &SK = C.SiblingKernels.emplace_back();
    for (EventId E : Ch)
      SK.push_back(T.subtreeGpuEvents(E)[0]);
    SibSeen[Base] = Sib.size();
    Sib.push_back(std::move(C));
  }
  for (FusionCandidate &C : Sib)
    Out.push_back(std::move(C));

  // 3a. Attention narrowing to the QK..PV slice around a softmax.
  auto IsGemm = [&](StringRef Name) {
    const auto *E = Lookup.entries(Name);
    return E && llvm::any_of(*E, [](const auto &P) {
             return P.second.OpCategory == "GEMM";
           });
  };
  for (FusionCandidate &C : Out) {
    for (size_t I = 0; I < C.Kernels.size(); ++I) {
      if (!FactsOf.byId(C.Kernels[I].NameId).Softmax)
        continue;
      std::optional<size_t> Qk, Pv;
      for (size_t J = I; J-- > 0;)
        if (IsGemm(C.Kernels[J].Name)) {
          Qk = J;
          break;
        }
      for (size_t J = I + 1; J < C.Kernels.size(); ++J)
        if (IsGemm(C.Kernels[J].Name)) {
          Pv = J;
          break;
        }
      if (!Qk || !Pv)
        continue;
      std::vector<FusionKernel> Slice(C.Kernels.begin() + *Qk,
                                      C.Kernels.begin() + *Pv + 1);
      C.Kernels = std::move(Slice);
      C.KernelCount = C.Kernels.size();
      C.EligibleCount = 0;
      C.TypeSignature.clear();
      double S = 0;
      for (const FusionKernel &K : C.Kernels) {
        C.EligibleCount += K.Eligible;
        C.TypeSignature.push_back(K.Type);
        S += K.DurUs;
      }
      C.TotalKernelTimeUs = S * C.InstanceCount;
      break;
    }
  }
  // 3b. Kernel-set dedup: keep (is nn.Module, chain length) max, earlier
  // on ties, in first-seen order of the kernel set.
  std::map<std::vector<StringRef>, size_t> BySet;
  std::vector<FusionCandidate> Dedup;
  for (FusionCandidate &C : Out) {
    if (C.Kernels.empty())
      continue;
    std::vector<StringRef> Key;
    for (const FusionKernel &K : C.Kernels)
      Key.push_back(K.Name);
    auto Score = [](const FusionCandidate &X) {
      return std::make_pair(StringRef(X.ModuleName).starts_with("nn.Module:"),
                            X.ParentChain.size());
    };
    auto [It, New] = BySet.try_emplace(Key, Dedup.size());
    if (New)
      Dedup.push_back(std::move(C));
    else if (Score(C) > Score(Dedup[It->second]))
      Dedup[It->second] = std::move(C);
  }
  // 3c. Data enrichment.
  for (FusionCandidate &C : Dedup)
    for (FusionKernel &K : C.Kernels) {
      if (K.DataInMB)
        continue;
      if (const KernelPerfEntry *E = Lookup.find(K.Name, C.FirstShape)) {
        if (E->DataInMB)
          K.DataInMB = E->DataInMB;
        if (E->DataOutMB)
          K.DataOutMB = E->DataOutMB;
      }
    }
  std::stable_sort(Dedup.begin(), Dedup.end(),
                   [](const FusionCandidate &A, const FusionCandidate &B) {
                     return A.TotalKernelTimeUs > B.TotalKernelTimeUs;
                   });
  Cands = std::move(Dedup);
}

void tl::tallyFusionKernels(FusionCandidate &C) {
  C.KernelCount = C.Kernels.size();
  C.TypeSignature.reserve(C.TypeSignature.size() + C.Kernels.size());
  for (const FusionKernel &FK : C.Kernels) {
    C.EligibleCount += FK.Eligible;
    C.TypeSignature.push_back(FK.Type);
    // Types mostly point into the rule table: same pointer, same type.
    auto It = llvm::find_if(C.TypeSummary, [&](auto &P) {
      return P.first.data() == FK.Type.data() ? P.first.size() == FK.Type.size()
                                              : P.first == FK.Type;
    });
    if (It == C.TypeSummary.end())
      C.TypeSummary.emplace_back(FK.Type, 1);
    else
      ++It->second;
  }
}

void tl::addFusionIdentity(FusionDocItems &Out, const FusionCandidate &C) {
  std::vector<PyValue> Chain;
  for (const std::string &P : C.ParentChain)
    Chain.push_back(PyValue::str(P));
  Out.push_back({"module_name", PyValue::str(C.ModuleName)});
  Out.push_back({"base_name", PyValue::str(C.BaseName)});
  Out.push_back({"parent_chain", PyValue::list(std::move(Chain))});
  Out.push_back({"instance_count",
                 PyValue::integer(static_cast<int64_t>(C.InstanceCount))});
}

void tl::addFusionComposition(FusionDocItems &Out, const FusionCandidate &C) {
  std::vector<PyValue> Sig;
  for (StringRef T : C.TypeSignature)
    Sig.push_back(PyValue::str(T));
  FusionDocItems Summary;
  for (const auto &[T, N] : C.TypeSummary)
    Summary.push_back({T.str(), PyValue::integer(N)});
  Out.push_back({"kernel_type_signature", PyValue::list(std::move(Sig))});
  Out.push_back({"kernel_type_summary", PyValue::dict(std::move(Summary))});
  Out.push_back({"has_fused_kernel", PyValue::boolean(C.HasFusedKernel)});
}

std::vector<PyValue> FusionCandidates::toDocs() const {
  std::vector<PyValue> Docs;
  Docs.reserve(Cands.size());
  for (const FusionCandidate &C : Cands) {
    FusionDocItems D;
    addFusionIdentity(D, C);
    D.push_back({"kernel_count",
                 PyValue::integer(static_cast<int64_t>(C.KernelCount))});
    D.push_back({"eligible_kernel_count",
                 PyValue::integer(static_cast<int64_t>(C.EligibleCount))});
    std::vector<PyValue> Kernels;
    Kernels.reserve(C.Kernels.size());
    for (const FusionKernel &K : C.Kernels) {
      FusionDocItems KD;
      if (C.Sibling) {
        KD.push_back({"op", PyValue::str(K.Op)});
        KD.push_back({"kernel_type", PyValue::str(K.Type)});
        KD.push_back({"kernel_name", PyValue::str(K.Name)});
        KD.push_back({"dur_us", PyValue::real(K.DurUs)});
      } else {
        KD.push_back({"name", PyValue::str(K.Name)});
        KD.push_back({"type", PyValue::str(K.Type)});
        KD.push_back({"dur_us", PyValue::real(K.DurUs)});
        KD.push_back({"eligible", PyValue::boolean(K.Eligible)});
      }
      KD.push_back(
          {"gpu_op_uid", PyValue::integer(static_cast<int64_t>(K.GpuUid))});
      if (K.DataInMB)
        KD.push_back({"data_in_mb", PyValue::real(*K.DataInMB)});
      if (K.DataOutMB)
        KD.push_back({"data_out_mb", PyValue::real(*K.DataOutMB)});
      Kernels.push_back(PyValue::dict(std::move(KD)));
    }
    D.push_back({"kernels", PyValue::list(std::move(Kernels))});
    addFusionComposition(D, C);
    D.push_back({"total_kernel_time_us", PyValue::real(C.TotalKernelTimeUs)});
    if (C.Sibling)
      D.push_back({"source", PyValue::str("sibling_sequence")});
    Docs.push_back(PyValue::dict(std::move(D)));
  }
  return Docs;
}
