//===- PerfMetrics.cpp - Perf models applied to trace events --------------===//
#include "tl/Analysis/PerfMetrics.h"
#include "tl/Analysis/IterationAnnotation.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/ArchSpec.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Support/Intervals.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>

using namespace tl;

PyValue tl::argToPy(ArgValue V, bool ListsAsTuples) {
  // Explicit stack: each frame converts one array/object node.
  struct Frame {
    ArgValue Node;
    size_t Next = 0;
    std::vector<PyValue> Elems;
    std::vector<std::pair<std::string, PyValue>> Items;
  };
  auto Scalar = [](ArgValue A) -> PyValue {
    switch (A.type()) {
    case ArgValue::Type::Null:
      return PyValue::none();
    case ArgValue::Type::Bool:
      return PyValue::boolean(A.getBool());
    case ArgValue::Type::Int:
      return PyValue::integer(A.getInt());
    case ArgValue::Type::Double:
      return PyValue::real(A.getDouble());
    case ArgValue::Type::String:
      return PyValue::str(A.getString());
    default:
      return PyValue::none();
    }
  };
  if (!V || (!V.isArray() && !V.isObject()))
    return V ? Scalar(V) : PyValue::none();
  std::vector<Frame> Stack;
  Stack.push_back({V, 0, {}, {}});
  PyValue Result;
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.Next < F.Node.size()) {
      size_t I = F.Next++;
      ArgValue C = F.Node.isArray() ? F.Node[I] : F.Node.valueAt(I);
      if (C.isArray() || C.isObject()) {
        Stack.push_back({C, 0, {}, {}});
        continue;
      }
      if (F.Node.isArray())
        F.Elems.push_back(Scalar(C));
      else
        F.Items.emplace_back(F.Node.keyAt(I).str(), Scalar(C));
      continue;
    }
    PyValue Done = F.Node.isArray()
                       ? (ListsAsTuples ? PyValue::tuple(std::move(F.Elems))
                                        : PyValue::list(std::move(F.Elems)))
                       : PyValue::dict(std::move(F.Items));
    Stack.pop_back();
    if (Stack.empty()) {
      Result = std::move(Done);
      break;
    }
    Frame &P = Stack.back();
    if (P.Node.isArray())
      P.Elems.push_back(std::move(Done));
    else
      P.Items.emplace_back(P.Node.keyAt(P.Next - 1).str(), std::move(Done));
  }
  return Result;
}

OpDesc tl::opDescOf(const Trace &T, EventId E) {
  OpDesc Op;
  Op.Name = T.name(E).str();
  ArgValue A = T.args(E);
  if (!A || !A.isObject())
    return Op;
  // Calls Add on each element of args[Key] (none when it is not a list).
  auto forEach = [&](llvm::StringRef Key, auto Add) {
    ArgValue L = A.get(Key);
    for (size_t I = 0, N = L.isArray() ? L.size() : 0; I < N; ++I)
      Add(L[I]);
  };
  auto text = [](ArgValue V) {
    return V.isString() ? V.getString().str() : V.toJson();
  };
  forEach("Input Dims",
          [&](ArgValue V) { Op.InputDims.push_back(argToPy(V)); });
  forEach("Input type", [&](ArgValue V) {
    Op.InputTypes.push_back(V.isString() ? V.getString().str() : std::string());
  });
  forEach("Input Strides",
          [&](ArgValue V) { Op.InputStrides.push_back(argToPy(V)); });
  forEach("Concrete Inputs",
          [&](ArgValue V) { Op.ConcreteInputs.push_back(text(V)); });
  if (ArgValue V = A.get("MoE topk"); V.isInt())
    Op.MoeTopK = V.getInt();
  if (ArgValue V = A.get("MoE GEMM gated"); V.isBool())
    Op.MoeGated = V.getBool();
  if (A.hasKey("Output type")) {
    std::vector<std::string> Out;
    forEach("Output type", [&](ArgValue V) { Out.push_back(text(V)); });
    Op.OutputTypes = std::move(Out);
  }
  return Op;
}

bool tl::eventHasPerfModel(const Trace &T, EventId E) {
  llvm::StringRef N = T.name(E);
  if (hasPerfModel(N))
    return true;
  // Extension ops (§5.11) are in the reference's model map, so the unified
  // table collects them; their formulas are not ported, so buildPerfModel
  // fails with a plain error and the row keeps only its kernel time, as
  // the reference's does when a model raises.
  if (CategoryRegistry::builtin().isModelOp(N))
    return true;
  return isTritonKernelName(N) && isTritonModelable(opDescOf(T, E));
}

std::vector<EventId> tl::subtreeKernels(const Trace &T, EventId E) {
  std::vector<EventId> Out;
  std::vector<EventId> Stack{E};
  while (!Stack.empty()) {
    EventId X = Stack.back();
    Stack.pop_back();
    if (isGpuKind(T.kind(X))) {
      Out.push_back(X);
      continue;
    }
    llvm::ArrayRef<EventId> C = T.children(X);
    for (size_t I = C.size(); I-- > 0;)
      Stack.push_back(C[I]);
  }
  return Out;
}

std::vector<EventId> tl::subtreeBwdEvents(const Trace &T, EventId E) {
  std::vector<EventId> Out;
  std::vector<EventId> Stack{E};
  while (!Stack.empty()) {
    EventId X = Stack.back();
    Stack.pop_back();
    for (EventId B : T.bwdEvents(X))
      Out.push_back(B);
    for (EventId C : T.children(X))
      if (!isGpuKind(T.kind(C)))
        Stack.push_back(C);
  }
  std::sort(Out.begin(), Out.end(), [&](EventId A, EventId B) {
    return T.uid(A) < T.uid(B);
  });
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

double tl::kernelBusyTime(const Trace &T, llvm::ArrayRef<EventId> Kernels) {
  if (Kernels.empty())
    return 0;
  // Most ops own one kernel: totalLength of its one interval.
  if (Kernels.size() == 1)
    return T.end(Kernels[0]) - T.ts(Kernels[0]);
  std::vector<Interval> I;
  I.reserve(Kernels.size());
  for (EventId K : Kernels)
    I.push_back({T.ts(K), T.end(K)});
  return busyTime(std::move(I));
}

void tl::sortByTs(const Trace &T, std::vector<EventId> &Ks) {
  std::stable_sort(Ks.begin(), Ks.end(),
                   [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
}

std::string tl::bwdCategoryOf(llvm::StringRef C) {
  if (C.consume_back("_fwd"))
    return (C + "_bwd").str();
  return "";
}

namespace {

/// A kernel name the GEMM model reads (its transpose flags parse).
bool isGemmKernelName(llvm::StringRef N) {
  return parseGemmTranspose(N).has_value();
}

/// Disjoint, sorted closed intervals (touching ones merge, as in
/// mergeIntervals) with their total length kept as a double-double.
class IntervalSet {
public:
  void insert(double S, double E) {
    auto It = Set.upper_bound(E); // first interval starting after E
    while (It != Set.begin()) {
      auto P = std::prev(It);
      if (P->second < S)
        break;
      S = std::min(S, P->first);
      E = std::max(E, P->second);
      add(-(P->second - P->first));
      It = Set.erase(P);
    }
    Set.emplace_hint(It, S, E);
    add(E - S);
  }
  /// Moves every interval of O into this set.
  void absorb(IntervalSet &O) {
    for (const auto &[S, E] : O.Set)
      insert(S, E);
    O.Set.clear();
  }
  size_t size() const { return Set.size(); }
  double total() const { return Hi + Lo; }

private:
  // TwoSum: Hi + Lo carries the running sum without rounding error.
  void add(double X) {
    double S = Hi + X;
    double B = S - Hi;
    Lo += (Hi - (S - B)) + (X - B);
    Hi = S;
  }
  std::map<double, double> Set;
  double Hi = 0, Lo = 0;
};

} // namespace

SubtreeKernelIndex::SubtreeKernelIndex(const Trace &T, AnalysisManager &)
    : SubtreeKernelIndex(T) {}

SubtreeKernelIndex::SubtreeKernelIndex(const Trace &T) : T(T) { build(); }

void SubtreeKernelIndex::build() {
  // Ranges of the cpu_ops too large to scan per op (rare outside deep
  // nesting).
  const EventId *Base = T.gpuTreeOrder().data();
  std::vector<std::pair<uint32_t, uint32_t>> R;
  for (EventId E : T.eventsOfKind(EventKind::CpuOp)) {
    llvm::ArrayRef<EventId> G = T.subtreeGpuEvents(E);
    if (G.size() > DirectLimit)
      R.push_back({uint32_t(G.data() - Base), uint32_t(G.data() - Base +
                                                        G.size())});
  }
  if (R.empty())
    return;
  // Outer ranges before the ranges they contain (subtree ranges nest).
  std::sort(R.begin(), R.end(), [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first < B.first : A.second > B.second;
  });
  R.erase(std::unique(R.begin(), R.end()), R.end());
  size_t N = R.size();
  std::vector<std::vector<size_t>> Kids(N);
  {
    std::vector<size_t> Open;
    for (size_t I = 0; I < N; ++I) {
      while (!Open.empty() && R[Open.back()].second <= R[I].first)
        Open.pop_back();
      if (!Open.empty())
        Kids[Open.back()].push_back(I);
      Open.push_back(I);
    }
  }
  llvm::ArrayRef<EventId> Order = T.gpuTreeOrder();
  NamePredicate isGemmNamed(T, isGemmKernelName);
  // Stable ts order: ts, then position in the range.
  auto before = [&](uint32_t A, uint32_t B) {
    if (B == ~0u)
      return A != ~0u;
    if (A == ~0u)
      return false;
    double TA = T.ts(Order[A]), TB = T.ts(Order[B]);
    return TA != TB ? TA < TB : A < B;
  };
  std::vector<std::unique_ptr<IntervalSet>> Sets(N);
  std::vector<uint32_t> First(N, ~0u), FirstGemm(N, ~0u);
  Large.resize(N);
  // Children come after their parent in R: walk backwards.
  for (size_t I = N; I-- > 0;) {
    size_t Big = size_t(-1);
    for (size_t C : Kids[I])
      if (Big == size_t(-1) || Sets[C]->size() > Sets[Big]->size())
        Big = C;
    std::unique_ptr<IntervalSet> S =
        Big == size_t(-1) ? std::make_unique<IntervalSet>()
                          : std::move(Sets[Big]);
    uint32_t F = ~0u, FG = ~0u;
    auto visit = [&](uint32_t P) {
      EventId K = Order[P];
      S->insert(T.ts(K), T.end(K));
      if (before(P, F))
        F = P;
      if (before(P, FG) && isGemmNamed(K))
        FG = P;
    };
    uint32_t Pos = R[I].first;
    for (size_t C : Kids[I]) {
      for (; Pos < R[C].first; ++Pos)
        visit(Pos);
      Pos = R[C].second;
      if (C != Big)
        S->absorb(*Sets[C]);
      Sets[C].reset();
      if (before(First[C], F))
        F = First[C];
      if (before(FirstGemm[C], FG))
        FG = FirstGemm[C];
    }
    for (; Pos < R[I].second; ++Pos)
      visit(Pos);
    First[I] = F;
    FirstGemm[I] = FG;
    Facts Fa;
    Fa.Busy = S->total();
    Fa.First = F == ~0u ? NoEvent : Order[F];
    Fa.FirstGemm = FG == ~0u ? NoEvent : Order[FG];
    Large[I] = {R[I], Fa};
    Sets[I] = std::move(S);
  }
}

const SubtreeKernelIndex::Facts *SubtreeKernelIndex::large(EventId E) const {
  llvm::ArrayRef<EventId> G = T.subtreeGpuEvents(E);
  if (G.size() <= DirectLimit || Large.empty())
    return nullptr;
  uint32_t B = uint32_t(G.data() - T.gpuTreeOrder().data());
  std::pair<uint32_t, uint32_t> Key{B, uint32_t(B + G.size())};
  auto It = std::lower_bound(
      Large.begin(), Large.end(), Key, [](const auto &A, const auto &K) {
        return A.first.first != K.first ? A.first.first < K.first
                                        : A.first.second > K.second;
      });
  return It != Large.end() && It->first == Key ? &It->second : nullptr;
}

double SubtreeKernelIndex::busyTime(EventId E) const {
  if (const Facts *F = large(E))
    return F->Busy;
  return kernelBusyTime(T, T.subtreeGpuEvents(E));
}

EventId SubtreeKernelIndex::firstByTs(EventId E) const {
  if (const Facts *F = large(E))
    return F->First;
  EventId Best = NoEvent;
  for (EventId K : T.subtreeGpuEvents(E))
    if (Best == NoEvent || T.ts(K) < T.ts(Best))
      Best = K;
  return Best;
}

EventId SubtreeKernelIndex::firstGemmNamed(EventId E) const {
  if (const Facts *F = large(E))
    return F->FirstGemm;
  for (EventId K : sortedByTs(E))
    if (isGemmKernelName(T.name(K)))
      return K;
  return NoEvent;
}

std::vector<EventId> SubtreeKernelIndex::sortedByTs(EventId E) const {
  llvm::ArrayRef<EventId> G = T.subtreeGpuEvents(E);
  std::vector<EventId> Ks(G.begin(), G.end());
  sortByTs(T, Ks);
  return Ks;
}

/// What makes two events' models equal (see OpPerfCache).
struct OpPerfCache::Key {
  StrId Name = 0, Gemm = 0;
  /// Annotation name id + 1 for annotation targets (0: none / "NA").
  StrId Ann = 0;
  bool HasOutput = false;
  uint64_t Args[5] = {0, 0, 0, 0, 0};
  /// A pseudo op's whole args (its extra keys feed the model), else 0.
  uint64_t Pseudo = 0;
  bool operator==(const Key &O) const {
    return Name == O.Name && Gemm == O.Gemm && Ann == O.Ann &&
           HasOutput == O.HasOutput && Pseudo == O.Pseudo &&
           std::equal(Args, Args + 5, O.Args);
  }
};
struct OpPerfCache::KeyHash {
  // A multiply-xorshift mix per word: cheaper than chained hash_combine
  // calls, and asked once per evaluated event.
  size_t operator()(const Key &K) const {
    uint64_t H = (uint64_t(K.Name) << 33 | uint64_t(K.Gemm) << 1 |
                  uint64_t(K.HasOutput)) *
                 0x9E3779B97F4A7C15ull;
    H = (H ^ (H >> 29) ^ uint64_t(K.Ann)) * 0xBF58476D1CE4E5B9ull;
    for (uint64_t A : K.Args) {
      H = (H ^ (H >> 29) ^ A) * 0xBF58476D1CE4E5B9ull;
    }
    H = (H ^ (H >> 29) ^ K.Pseudo) * 0xBF58476D1CE4E5B9ull;
    return size_t(H ^ (H >> 32));
  }
};
/// A built model, or the error buildPerfModel gave (kept as its kind and
/// text, as an llvm::Error cannot be copied).
struct OpPerfCache::Entry {
  std::shared_ptr<const PerfModelResult> Model;
  bool NotImplemented = false;
  std::string Error;
  /// The arch peak of Model's compute spec, looked up for PeakArch.
  const ArchSpec *PeakArch = nullptr;
  std::optional<double> Peak;
};
struct OpPerfCache::Impl {
  explicit Impl(const Trace &T)
      : IsGemmNamed(T, isGemmKernelName), IsAnnTarget(T, isAnnotationTarget) {}
  NamePredicate IsGemmNamed;
  /// InferenceAttention ops read the iteration annotation around them
  /// (§A.1); the index is built on the first such op.
  NamePredicate IsAnnTarget;
  std::optional<AnnotationIndex> Annotations;
  std::unordered_map<Key, Entry, KeyHash> Models;
  /// Interned ids of the five model args (0 when no event has the key):
  /// looked up once, not per event and key.
  StrId ArgKeys[5] = {0, 0, 0, 0, 0};
  ArgKeySlots Slots;
  /// The arg part of the last event's key: callers asking for an event's
  /// forward and backward metrics in a row read its args once.
  EventId LastE = NoEvent;
  uint64_t LastArgs[5] = {0, 0, 0, 0, 0};
  bool LastHasOutput = false;
};

OpPerfCache::OpPerfCache(const Trace &T, const SubtreeKernelIndex &Idx)
    : T(T), Idx(Idx), P(std::make_unique<Impl>(T)) {
  static const char *const Keys[5] = {"Input Dims", "Input type",
                                      "Input Strides", "Concrete Inputs",
                                      "Output type"};
  for (int I = 0; I < 5; ++I)
    P->ArgKeys[I] = T.strings().lookup(Keys[I]);
}
OpPerfCache::~OpPerfCache() = default;

OpPerfCache::Entry &OpPerfCache::model(EventId E, EventId GemmKernel) {
  Key K;
  K.Name = T.nameId(E);
  K.Gemm = GemmKernel == NoEvent ? 0 : T.nameId(GemmKernel) + 1;
  if (E != P->LastE) {
    P->LastE = E;
    std::fill(P->LastArgs, P->LastArgs + 5, 0);
    P->LastHasOutput = false;
    ArgValue V[5];
    bool Found[5];
    T.args(E).getByKeyIds(P->ArgKeys, 5, V, P->Slots, Found);
    for (int I = 0; I < 5; ++I)
      P->LastArgs[I] = V[I].identity();
    P->LastHasOutput = Found[4];
  }
  std::copy(P->LastArgs, P->LastArgs + 5, K.Args);
  K.HasOutput = P->LastHasOutput;
  if (T.isPseudoOp(E))
    K.Pseudo = T.args(E).identity();
  EventId Ann = NoEvent;
  if (P->IsAnnTarget(E)) {
    if (!P->Annotations)
      P->Annotations.emplace(T);
    Ann = P->Annotations->annotationOf(T.ts(E), T.dur(E));
    K.Ann = Ann == NoEvent ? 0 : T.nameId(Ann) + 1;
  }
  auto [It, New] = P->Models.try_emplace(K);
  if (!New)
    return It->second;
  OpDesc Op = opDescOf(T, E);
  if (Ann != NoEvent)
    Op.Annotation = T.name(Ann).str();
  // Only the GEMM model reads kernel names: the first one that parses.
  if (GemmKernel != NoEvent)
    Op.KernelNames.push_back(T.name(GemmKernel).str());
  auto M = buildPerfModel(Op);
  Entry &En = It->second;
  if (M) {
    En.Model = std::make_shared<const PerfModelResult>(std::move(*M));
  } else {
    llvm::handleAllErrors(
        M.takeError(),
        [&](const NotImplementedError &EI) {
          En.NotImplemented = true;
          En.Error = EI.message();
        },
        [&](const llvm::ErrorInfoBase &EI) { En.Error = EI.message(); });
  }
  return En;
}

llvm::Expected<OpPerf> OpPerfCache::get(EventId E, bool Bwd,
                                        const ArchSpec *Arch,
                                        EventId *FirstKernelOut) {
  NamePredicate &IsGemmNamed = this->P->IsGemmNamed;
  OpPerf P;
  EventId Gemm = NoEvent;
  if (!Bwd) {
    P.NumKernels = Idx.count(E);
    P.KernelTimeUs = Idx.busyTime(E);
    P.FirstKernel = Idx.firstByTs(E);
    if (P.NumKernels > SubtreeKernelIndex::DirectLimit) {
      Gemm = Idx.firstGemmNamed(E);
    } else {
      // First by stable ts order: ts, then subtree order.
      for (EventId K : T.subtreeGpuEvents(E))
        if (IsGemmNamed(K) && (Gemm == NoEvent || T.ts(K) < T.ts(Gemm)))
          Gemm = K;
    }
  } else {
    for (EventId B : subtreeBwdEvents(T, E))
      for (EventId K : T.subtreeGpuEvents(B))
        P.Kernels.push_back(K);
    P.KernelTimeUs = kernelBusyTime(T, P.Kernels);
    sortByTs(T, P.Kernels);
    P.NumKernels = P.Kernels.size();
    P.FirstKernel = P.Kernels.empty() ? NoEvent : P.Kernels.front();
    for (EventId K : P.Kernels)
      if (IsGemmNamed(K)) {
        Gemm = K;
        break;
      }
  }
  // The MoE pseudo ops read their weight dtype from their first kernel.
  if (Gemm == NoEvent && !Bwd &&
      T.name(E).starts_with("pseudo_op::moe_triton_unfused_"))
    Gemm = P.FirstKernel;
  if (FirstKernelOut)
    *FirstKernelOut = P.FirstKernel;
  Entry &En = model(E, Gemm);
  if (!En.Model) {
    if (En.NotImplemented)
      return llvm::make_error<NotImplementedError>(En.Error);
    return llvm::createStringError(llvm::inconvertibleErrorCode(), En.Error);
  }
  P.Model = En.Model;
  if (Arch && En.PeakArch != Arch) {
    En.PeakArch = Arch;
    En.Peak = Arch->peakTflops(P.Model->ComputeSpec);
  }
  auto Met = computeMetrics(*P.Model, P.KernelTimeUs, Bwd, Arch,
                            Arch ? En.Peak : std::nullopt);
  if (!Met)
    return Met.takeError();
  P.Metrics = std::move(*Met);
  return P;
}

llvm::Expected<OpPerf> tl::computeOpPerf(const Trace &T, EventId E, bool Bwd,
                                         const ArchSpec *Arch,
                                         const SubtreeKernelIndex &Idx,
                                         EventId *FirstKernelOut) {
  return OpPerfCache(T, Idx).get(E, Bwd, Arch, FirstKernelOut);
}
