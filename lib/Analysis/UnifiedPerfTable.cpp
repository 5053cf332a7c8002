//===- UnifiedPerfTable.cpp - unified_perf_summary (spec §6.7) ------------===//
//
// Collection: an iterative DFS from every cpu root picks the ops that own
// GPU work (modelled ops, sole backward ops of modelled forwards, leaf
// launchers); GPU events nobody collected become synthetic ops. Each
// instance gets the §5.1 metrics; instances are grouped by name, category,
// thread and argument signature.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CallStack.h"
#include "tl/Analysis/KernelDetails.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Analysis/PerfMetrics.h"
#include "tl/Analysis/PerfSheets.h"
#include "tl/Analysis/Recompute.h"

#include "PerfSheetsUtil.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>
#include <mutex>

using namespace tl;
using namespace tl::detail;

namespace {

/// Cached per-event facts of the host tree.
struct TreeFacts {
  const Trace &T;
  std::vector<int8_t> Model; // -1 unknown, 0/1
  /// Some strict descendant cpu_op has a model and GPU work.
  std::vector<uint8_t> ModelBelow;

  explicit TreeFacts(const Trace &T)
      : T(T), Model(T.size(), -1), ModelBelow(T.size(), 0) {
    // Post-order over the host forest, explicit stack.
    std::vector<std::pair<EventId, bool>> Stack;
    for (EventId E = 0, N = T.size(); E < N; ++E)
      if (isHostTreeKind(T.kind(E)) && T.parent(E) == NoEvent)
        Stack.push_back({E, false});
    while (!Stack.empty()) {
      auto [E, Done] = Stack.back();
      Stack.pop_back();
      if (!Done) {
        Stack.push_back({E, true});
        for (EventId C : T.children(E))
          if (!isGpuKind(T.kind(C)))
            Stack.push_back({C, false});
        continue;
      }
      bool Below = false;
      for (EventId C : T.children(E)) {
        if (isGpuKind(T.kind(C)))
          continue;
        if (ModelBelow[C] || (T.kind(C) == EventKind::CpuOp &&
                              !T.subtreeGpuEvents(C).empty() && hasModel(C)))
          Below = true;
      }
      ModelBelow[E] = Below;
    }
  }

  bool hasModel(EventId E) {
    if (Model[E] < 0) {
      // Only triton names depend on the event's args: the others are
      // answered once per name.
      auto [It, New] = ByName.try_emplace(T.nameId(E), 0);
      if (New)
        It->second = isTritonKernelName(T.name(E)) ? 2
                     : eventHasPerfModel(T, E)     ? 1
                                                   : 0;
      Model[E] = It->second == 2 ? (eventHasPerfModel(T, E) ? 1 : 0)
                                 : It->second;
    }
    return Model[E] == 1;
  }
  llvm::DenseMap<StrId, int8_t> ByName;
};

/// A collected instance.
struct Instance {
  EventId E = NoEvent;     // the event (synthetic: its parent)
  EventId Kernel = NoEvent; // synthetic: its one kernel
  uint64_t Uid = 0;
  bool SoleBwd = false;
  EventId Fwd = NoEvent;
  std::string BwdCategory;
};

/// Children for the DFS: python functions are transparent.
/// Out and S are scratch buffers kept across calls.
void pushChildren(const Trace &T, EventId E, std::vector<EventId> &Stack,
                  std::vector<EventId> &Out,
                  std::vector<std::pair<EventId, size_t>> &S) {
  Out.clear();
  S.clear();
  // Expand python frames in place, keeping order.
  S.push_back({E, 0});
  while (!S.empty()) {
    auto &[X, I] = S.back();
    llvm::ArrayRef<EventId> C = T.children(X);
    if (I == C.size()) {
      S.pop_back();
      continue;
    }
    EventId Ch = C[I++];
    if (T.kind(Ch) == EventKind::PythonFunction)
      S.push_back({Ch, 0});
    else if (!isGpuKind(T.kind(Ch)))
      Out.push_back(Ch);
  }
  for (size_t I = Out.size(); I-- > 0;)
    Stack.push_back(Out[I]);
}

/// §6.7 step 5: a GPU event is reachable through cuda_runtime / python
/// children only, within depth 10.
bool isLeafCpuOp(const Trace &T, EventId E) {
  std::vector<std::pair<EventId, int>> S{{E, 0}};
  while (!S.empty()) {
    auto [X, D] = S.back();
    S.pop_back();
    if (D >= 10)
      continue;
    for (EventId C : T.children(X)) {
      EventKind K = T.kind(C);
      if (K == EventKind::Runtime) {
        for (EventId G : T.children(C))
          if (isGpuKind(T.kind(G)))
            return true;
      } else if (K == EventKind::PythonFunction) {
        S.push_back({C, D + 1});
      }
    }
  }
  return false;
}

bool launchesComm(const Trace &T, EventId E, NamePredicate &IsComm) {
  for (EventId G : T.subtreeGpuEvents(E))
    if (IsComm(G))
      return true;
  return false;
}

/// §6.7 step 3. On success sets Fwd and the backward category.
bool soleBackward(const Trace &T, EventId E, TreeFacts &F,
                  OpPerfCache &Perfs, EventId &Fwd, std::string &BwdCat) {
  EventId W = NoEvent;
  EventId X = E;
  for (int I = 0; I < 5; ++I) {
    X = T.parent(X);
    if (X == NoEvent)
      break;
    if (T.fwdEvent(X) != NoEvent) {
      W = X;
      break;
    }
  }
  if (W == NoEvent)
    return false;
  EventId Fw = T.fwdEvent(W);
  if (!F.hasModel(Fw))
    return false;
  auto M = buildPerfModel(opDescOf(T, Fw));
  if (!M) {
    llvm::consumeError(M.takeError());
    return false;
  }
  std::string BC = bwdCategoryOf(M->Category);
  if (BC.empty())
    return false;
  llvm::StringRef WName = T.name(W);
  size_t P = WName.find(": ");
  if (P == llvm::StringRef::npos)
    return false;
  llvm::StringRef BwdName = WName.substr(P + 2);
  unsigned Count = 0;
  std::vector<EventId> S{W};
  while (!S.empty()) {
    EventId Y = S.back();
    S.pop_back();
    for (EventId C : T.children(Y)) {
      EventKind K = T.kind(C);
      if (K != EventKind::CpuOp && K != EventKind::PythonFunction)
        continue;
      if (K == EventKind::CpuOp && T.name(C) == BwdName &&
          !T.subtreeGpuEvents(C).empty())
        ++Count;
      S.push_back(C);
    }
  }
  if (Count != 1)
    return false;
  auto Perf = Perfs.get(Fw, /*Bwd=*/true, nullptr);
  if (!Perf) {
    llvm::consumeError(Perf.takeError());
    return false;
  }
  Fwd = Fw;
  BwdCat = BC;
  return true;
}

/// One row before grouping. Texts that are equal across a group (name,
/// category, argument reprs, perf params) live in the group, not here: a
/// GB trace has millions of instances but thousands of groups.
struct InstRow {
  uint32_t Inst = 0;  // index into the collected instances
  uint32_t Group = 0;
  double Dur = 0;
  bool HasModel = false;
  double Gflops = NaN, DataMB = NaN, FpB = NaN, TBs = NaN, TFs = NaN;
  double RoofT = NaN, PctRoof = NaN;
  double KernelTime = 0;
  /// The trace's subtree list, or the synthetic op's one kernel.
  llvm::ArrayRef<EventId> GpuEvents;
};

/// Texts of a group, taken from its first instance (params, compute spec
/// and roofline bound from the first instance that has them).
struct GroupText {
  std::string Name, Category;
  std::string Keys[4];
  bool KeyPresent[4] = {false, false, false, false};
  std::optional<std::vector<std::pair<std::string, std::string>>> Params;
  std::optional<std::string> Spec, RoofB;
};

} // namespace

UnifiedPerfTable::UnifiedPerfTable(const Trace &T, AnalysisManager &AM)
    : Tables(std::make_shared<TableCache>()) {
  const AnalysisOptions &O = AM.options();
  const ArchSpec *Arch = O.Arch ? &*O.Arch : nullptr;
  const CategoryRegistry &Reg = CategoryRegistry::builtin();
  TreeFacts F(T);
  const SubtreeKernelIndex &KIdx = AM.get<SubtreeKernelIndex>();
  OpPerfCache Perfs(T, KIdx);
  const RecomputeMarks *RM =
      O.DetectRecompute ? &AM.get<RecomputeMarks>() : nullptr;
  HasRecompute = RM != nullptr;

  // --- Collection (iterative DFS, visited set).
  std::vector<Instance> Insts;
  std::vector<uint8_t> Visited(T.size(), 0);
  NamePredicate IsComm(T, isCommKernel);
  std::vector<EventId> Stack, Out;
  std::vector<std::pair<EventId, size_t>> Scratch;
  for (EventId Root : T.cpuRoots()) {
    Stack.assign(1, Root);
    while (!Stack.empty()) {
      EventId E = Stack.back();
      Stack.pop_back();
      if (Visited[E])
        continue;
      Visited[E] = 1;
      if (T.kind(E) != EventKind::CpuOp || T.subtreeGpuEvents(E).empty())
        continue;
      if (F.hasModel(E)) {
        Insts.push_back({E, NoEvent, T.uid(E), false, NoEvent, ""});
        continue;
      }
      EventId Fw = NoEvent;
      std::string BC;
      if (soleBackward(T, E, F, Perfs, Fw, BC)) {
        if (F.ModelBelow[E])
          pushChildren(T, E, Stack, Out, Scratch);
        else
          Insts.push_back({E, NoEvent, T.uid(E), true, Fw, BC});
        continue;
      }
      if (F.ModelBelow[E]) {
        pushChildren(T, E, Stack, Out, Scratch);
        continue;
      }
      if (isLeafCpuOp(T, E)) {
        // ModelBelow is false here, so no direct child has a model.
        if (!launchesComm(T, E, IsComm))
          Insts.push_back({E, NoEvent, T.uid(E), false, NoEvent, ""});
        continue;
      }
      pushChildren(T, E, Stack, Out, Scratch);
    }
  }
  for (const Instance &I : Insts)
    Collected.push_back(I.E);

  // --- Synthetic ops for GPU events nobody collected.
  {
    std::vector<uint8_t> Covered(T.size(), 0);
    for (const Instance &I : Insts)
      for (EventId G : T.subtreeGpuEvents(I.E))
        Covered[G] = 1;
    // UIDs count every traceEvents entry, so the max UID is entries - 1.
    uint64_t MaxUid = T.stats().TotalEntries ? T.stats().TotalEntries - 1 : 0;
    for (EventId E = 0, N = T.size(); E < N; ++E)
      MaxUid = std::max(MaxUid, T.uid(E));
    llvm::MapVector<EventId, std::vector<EventId>> Orphans;
    std::vector<std::pair<EventId, EventId>> UnderCpu;
    for (EventId G : T.gpuEvents()) {
      if (Covered[G] || IsComm(G))
        continue;
      EventId Cpu = NoEvent;
      for (EventId X = T.parent(G); X != NoEvent; X = T.parent(X))
        if (T.kind(X) == EventKind::CpuOp) {
          Cpu = X;
          break;
        }
      if (Cpu != NoEvent)
        UnderCpu.push_back({G, Cpu});
      else if (T.parent(G) != NoEvent)
        Orphans[T.parent(G)].push_back(G);
    }
    uint64_t Next = MaxUid + 1;
    for (auto &KV : Orphans)
      for (EventId G : KV.second)
        Insts.push_back({KV.first, G, Next++, false, NoEvent, ""});
    for (auto &[G, Cpu] : UnderCpu)
      Insts.push_back({Cpu, G, Next++, false, NoEvent, ""});
    NumSynthetic = Next - MaxUid - 1;
  }

  // --- One row per instance, grouped as it is made (first-appearance
  // order of the kept rows). A GB trace has millions of instances but
  // thousands of groups: an instance is grouped by ids (name, category,
  // track, argument values); the group key texts are made only when those
  // ids are new.
  const OpTable &Ops = AM.get<OpTable>();
  std::map<std::vector<std::string>, size_t> GroupOf;
  std::vector<std::vector<size_t>> Groups;
  std::vector<GroupText> Texts;
  std::vector<InstRow> IRows;
  IRows.reserve(Insts.size());
  // Category texts by id, and the categorizer's answers by (name, first
  // kernel name text).
  std::vector<std::string> CatText;
  llvm::StringMap<uint32_t> CatIdOf;
  auto catId = [&](llvm::StringRef C) {
    auto [It, New] = CatIdOf.try_emplace(C, uint32_t(CatText.size()));
    if (New)
      CatText.push_back(C.str());
    return It->second;
  };
  llvm::DenseMap<std::tuple<StrId, const char *, size_t>, uint32_t>
      CategorizeMemo;
  auto categorize = [&](EventId E, llvm::StringRef Kernel) {
    auto [It, New] = CategorizeMemo.try_emplace(
        {T.nameId(E), Kernel.data(), Kernel.size()}, 0);
    if (New)
      It->second = catId(Reg.categorize(T.name(E), Kernel));
    return It->second;
  };
  static const char *const KeyArgs[4] = {"Input Dims", "Input type",
                                         "Input Strides", "Concrete Inputs"};
  StrId KeyIds[4];
  for (int J = 0; J < 4; ++J)
    KeyIds[J] = T.strings().lookup(KeyArgs[J]);
  ArgKeySlots Slots;
  // What the group key of the current instance is made from.
  struct Cur {
    EventId E = NoEvent, Kernel = NoEvent; // Kernel: synthetic ops
    std::string SynthName;
    uint32_t Cat = 0;
    ArgValue Vals[4];
    uint32_t Present = 0; // bit J: key J is present and not null
  } C;
  // (name, synthetic kernel name + 1, category, track, argument values,
  // presence bits and recompute mark) -> group. Equal ids give equal
  // texts (argument values by stored identity), so this only saves work.
  using MemoKey = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                             uint64_t, uint64_t>;
  llvm::DenseMap<MemoKey, uint32_t> Memo;
  llvm::DenseMap<uint64_t, std::string> ReprOf;
  std::vector<std::string> K;
  auto groupOf = [&]() -> uint32_t {
    EventId E = C.E;
    uint64_t Rec = RM ? (RM->isRecompute(E) ? 2 : 1) : 0;
    uint64_t Id[4];
    for (int J = 0; J < 4; ++J)
      Id[J] = (C.Present >> J & 1) ? C.Vals[J].identity() : 0;
    MemoKey MK{(uint64_t(T.nameId(E)) << 32) |
                   (C.Kernel == NoEvent ? 0 : T.nameId(C.Kernel) + 1),
               (uint64_t(C.Cat) << 32) | T.track(E),
               Id[0],
               Id[1],
               Id[2],
               Id[3],
               (uint64_t(C.Present) << 8) | Rec};
    auto [MI, MNew] = Memo.try_emplace(MK, 0);
    if (!MNew)
      return MI->second;
    GroupText GT;
    GT.Name = C.Kernel == NoEvent ? T.name(E).str() : C.SynthName;
    GT.Category = CatText[C.Cat];
    for (int J = 0; J < 4; ++J) {
      if (!(C.Present >> J & 1))
        continue;
      // Shape lists are interned: one repr per stored value.
      auto [It, New] = ReprOf.try_emplace(Id[J]);
      if (New)
        It->second = pyRepr(argToPy(C.Vals[J], true));
      GT.Keys[J] = It->second;
      GT.KeyPresent[J] = true;
    }
    K.clear();
    K.push_back(GT.Name);
    K.push_back(GT.Category);
    K.push_back(processNameOf(T, E));
    K.push_back(processLabelOf(T, E));
    K.push_back(threadNameOf(T, E));
    for (int J = 0; J < 4; ++J)
      K.push_back(GT.KeyPresent[J] ? GT.Keys[J] : "None");
    if (RM)
      K.push_back(RM->isRecompute(E) ? "True" : "False");
    auto [It, New] = GroupOf.try_emplace(K, Groups.size());
    if (New) {
      Groups.emplace_back();
      Texts.push_back(std::move(GT));
    }
    MI->second = static_cast<uint32_t>(It->second);
    return MI->second;
  };
  for (size_t II = 0; II < Insts.size(); ++II) {
    const Instance &I = Insts[II];
    InstRow R;
    R.Inst = static_cast<uint32_t>(II);
    EventId E = I.E;
    // A pseudo op has no dur: sum 0.0, mean and the rest empty (§A.6).
    R.Dur = T.isPseudoOp(E) ? NaN : T.dur(E);
    C.E = E;
    C.Kernel = I.Kernel;
    C.Present = 0;
    T.args(E).getByKeyIds(KeyIds, 4, C.Vals, Slots);
    for (int J = 0; J < 4; ++J)
      if (!C.Vals[J].isNull()) // missing or null: None
        C.Present |= 1u << J;
    if (I.Kernel != NoEvent) {
      C.SynthName =
          (T.name(E) + "->" + T.name(I.Kernel) + " (Synthetic Op)").str();
      R.GpuEvents = llvm::ArrayRef<EventId>(Insts[II].Kernel);
      // The copy keeps the parent's kernel_details (§2.8 launcher list).
      C.Cat = catId(Reg.categorize(C.SynthName, Ops.firstKernelName(E)));
      R.KernelTime = kernelBusyTime(T, R.GpuEvents);
      R.Group = groupOf();
      Groups[R.Group].push_back(IRows.size());
      IRows.push_back(std::move(R));
      continue;
    }
    R.GpuEvents = T.subtreeGpuEvents(E);
    bool Grouped = false;
    auto Fill = [&](const OpPerf &P) {
      copyPerfNumbers(R, P);
      // The category is known here, so Fill groups; the texts live in P.
      R.Group = groupOf();
      Grouped = true;
      GroupText &GT = Texts[R.Group];
      const PerfMetrics &M = P.Metrics;
      if (!GT.Spec)
        GT.Spec = M.ComputeSpec;
      if (!GT.RoofB && M.HasRoofline)
        GT.RoofB = M.RooflineBound;
      // Only the group's first instance with params keeps them.
      if (!P.Model->Params.empty() && !GT.Params) {
        std::vector<std::pair<std::string, std::string>> PP;
        for (const auto &KV : P.Model->Params)
          PP.emplace_back(KV.first, pyRepr(KV.second));
        GT.Params = std::move(PP);
      }
    };
    if (I.SoleBwd) {
      C.Cat = catId(I.BwdCategory);
      R.HasModel = true;
      auto P = Perfs.get(I.Fwd, true, Arch);
      if (P)
        Fill(*P);
      else {
        llvm::consumeError(P.takeError());
        R.KernelTime = kernelBusyTime(T, R.GpuEvents);
      }
    } else if (F.hasModel(E)) {
      R.HasModel = true;
      EventId FirstK = NoEvent;
      auto P = Perfs.get(E, false, Arch, &FirstK);
      // The categorizer sees the kernel_details metrics() left behind.
      C.Cat = categorize(
          E, FirstK == NoEvent ? llvm::StringRef() : T.name(FirstK));
      if (!P) {
        bool NotImpl = false;
        llvm::handleAllErrors(
            P.takeError(), [&](const NotImplementedError &) { NotImpl = true; },
            [](const llvm::ErrorInfoBase &) {});
        if (NotImpl)
          continue;
        R.KernelTime = kernelBusyTime(T, R.GpuEvents);
      } else {
        Fill(*P);
      }
    } else {
      // kernel_details of a launcher: its direct kernels by ts (§2.8).
      C.Cat = categorize(E, Ops.firstKernelName(E));
      R.KernelTime = kernelBusyTime(T, R.GpuEvents);
    }
    if (!Grouped)
      R.Group = groupOf();
    Groups[R.Group].push_back(IRows.size());
    IRows.push_back(std::move(R));
  }
  CallStackBuilder Stacks(T);
  for (size_t GI = 0; GI < Groups.size(); ++GI) {
    const std::vector<size_t> &G = Groups[GI];
    GroupText &GT = Texts[GI];
    const InstRow &F0 = IRows[G.front()];
    const Instance &I0 = Insts[F0.Inst];
    UnifiedPerfRow Row;
    Row.Name = std::move(GT.Name);
    Row.Category = std::move(GT.Category);
    Row.ProcessName = processNameOf(T, I0.E);
    Row.ProcessLabel = processLabelOf(T, I0.E);
    Row.ThreadName = threadNameOf(T, I0.E);
    // A missing key's text is empty (the group key said "None").
    Row.InputDims = std::move(GT.Keys[0]);
    Row.InputType = std::move(GT.Keys[1]);
    Row.InputStrides = std::move(GT.Keys[2]);
    Row.ConcreteInputs = std::move(GT.Keys[3]);
    Row.ExUid = I0.Uid;
    if (RM)
      Row.IsRecompute = RM->isRecompute(I0.E);
    Row.OperationCount = G.size();
    Row.IsSynthetic = I0.Kernel != NoEvent;
    auto Col = [&](double InstRow::*M) {
      std::vector<double> V;
      for (size_t I : G)
        V.push_back(IRows[I].*M);
      return V;
    };
    Row.DurationUs = aggregate(Col(&InstRow::Dur));
    Row.Gflops = firstOf(Col(&InstRow::Gflops));
    Row.DataMovedMB = firstOf(Col(&InstRow::DataMB));
    Row.FlopsPerByte = firstOf(Col(&InstRow::FpB));
    if (GT.Spec)
      Row.ComputeSpec = std::move(*GT.Spec);
    if (GT.RoofB)
      Row.RooflineBound = std::move(*GT.RoofB);
    Row.RooflineTimeUs = firstOf(Col(&InstRow::RoofT));
    Row.PctRoofline = aggregate(Col(&InstRow::PctRoof));
    Row.TBs = aggregate(Col(&InstRow::TBs));
    Row.TFLOPSs = aggregate(Col(&InstRow::TFs));
    Row.KernelTimeUs = aggregate(Col(&InstRow::KernelTime));
    // The template is the first non-empty list (§6.5): only its names and
    // streams are read, the other lists of its length give durations.
    llvm::ArrayRef<EventId> Tmpl = F0.GpuEvents;
    for (size_t I : G)
      if (!IRows[I].GpuEvents.empty()) {
        Tmpl = IRows[I].GpuEvents;
        break;
      }
    if (!Tmpl.empty()) {
      std::vector<double> Durs;
      for (size_t I : G)
        if (IRows[I].GpuEvents.size() == Tmpl.size())
          for (EventId K : IRows[I].GpuEvents)
            Durs.push_back(T.dur(K));
      Row.KernelDetails =
          summarizeKernelDurations(kernelDetailsOf(T, Tmpl), Durs);
    }
    Row.PerfParams = std::move(GT.Params);
    Row.HasPerfModel = F0.HasModel;
    // Tails follow the summary order, each from the template instance.
    std::vector<EventId> Ordered;
    for (const KernelStat &K : Row.KernelDetails)
      Ordered.push_back(Tmpl[K.Position]);
    if (Row.IsSynthetic) {
      // A synthetic op is a copy of its parent with a new UID, which the
      // reference's tree lookups do not find: no entry point, and a stack
      // of its kernel alone.
      Row.EntryPoint = "Not found";
      Row.CallStackFull = kernelOnlyStack(T, I0.Kernel);
    } else {
      Row.CallStackFull = Stacks.callStackFull(
          Ordered, T.isPseudoOp(I0.E) ? I0.E : NoEvent);
      Row.EntryPoint = entryPoint(Row.Name, Row.CallStackFull);
    }
    for (llvm::StringRef M : T.moduleStack(I0.E))
      Row.ModuleChain.push_back(M.str());
    for (size_t I : G)
      Row.Instances.push_back(Insts[IRows[I].Inst].E);
    Rows.push_back(std::move(Row));
  }
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const UnifiedPerfRow &A, const UnifiedPerfRow &B) {
                     double SA = *A.KernelTimeUs.Sum, SB = *B.KernelTimeUs.Sum;
                     if (SA != SB)
                       return SA > SB;
                     return A.ExUid < B.ExUid;
                   });
  std::vector<double> Sums;
  for (const UnifiedPerfRow &R : Rows)
    Sums.push_back(*R.KernelTimeUs.Sum);
  double Total = numpySum(Sums);
  double Cum = 0;
  for (UnifiedPerfRow &R : Rows) {
    R.Percentage = Total > 0 ? *R.KernelTimeUs.Sum / Total * 100 : NaN;
    Cum += R.Percentage;
    R.CumulativePercentage = Cum;
  }
}

struct UnifiedPerfTable::TableCache {
  std::once_flag Once[2];
  TextTable Full[2]; // by Roofline
};

TextTable UnifiedPerfTable::toTable(bool Roofline, bool CallStack) const {
  TableCache &C = *Tables;
  std::call_once(C.Once[Roofline],
                 [&] { C.Full[Roofline] = format(Roofline); });
  const TextTable &Full = C.Full[Roofline];
  if (CallStack)
    return Full;
  // Without entry_point and call_stack_full (adjacent columns).
  size_t Drop = size_t(Full.column("entry_point"));
  auto Without = [Drop](const std::vector<std::string> &Cells) {
    std::vector<std::string> Out;
    Out.reserve(Cells.size() - 2);
    Out.insert(Out.end(), Cells.begin(), Cells.begin() + Drop);
    Out.insert(Out.end(), Cells.begin() + Drop + 2, Cells.end());
    return Out;
  };
  TextTable Tab;
  Tab.Name = Full.Name;
  Tab.Columns = Without(Full.Columns);
  Tab.Rows.reserve(Full.Rows.size());
  for (const std::vector<std::string> &R : Full.Rows)
    Tab.Rows.push_back(Without(R));
  return Tab;
}

TextTable UnifiedPerfTable::format(bool Roofline) const {
  TextTable Tab;
  Tab.Name = "unified_perf_summary";
  Tab.Columns = {"name", "op category", "process_name", "process_label",
                 "thread_name", "Input Dims", "Input type", "Input Strides",
                 "Concrete Inputs"};
  if (HasRecompute)
    Tab.Columns.push_back("is_recompute");
  for (const char *C : {"ex_UID", "operation_count",
                 "total_duration_us", "mean_duration_us", "std_duration_us",
                 "GFLOPS", "Data Moved (MB)", "FLOPS/Byte", "Compute Spec"})
    Tab.Columns.push_back(C);
  if (Roofline)
    Tab.Columns.push_back("Roofline Bound");
  for (const char *C :
       {"TB/s_mean", "TB/s_std", "TFLOPS/s_mean", "TFLOPS/s_std",
        "Kernel Time (µs)_mean", "Kernel Time (µs)_std",
        "Kernel Time (µs)_sum", "duration_us_median", "duration_us_min",
        "duration_us_max", "TB/s_median", "TB/s_min", "TB/s_max",
        "TFLOPS/s_median", "TFLOPS/s_min", "TFLOPS/s_max"})
    Tab.Columns.push_back(C);
  if (Roofline)
    for (const char *C : {"Roofline Time (µs)_first", "Pct Roofline_mean",
                          "Pct Roofline_median", "Pct Roofline_std",
                          "Pct Roofline_min", "Pct Roofline_max"})
      Tab.Columns.push_back(C);
  for (const char *C :
       {"Kernel Time (µs)_median", "Kernel Time (µs)_min",
        "Kernel Time (µs)_max", "kernel_details_summary",
        "trunc_kernel_details", "perf_params", "has_perf_model"})
    Tab.Columns.push_back(C);
  Tab.Columns.push_back("entry_point");
  Tab.Columns.push_back("call_stack_full");
  Tab.Columns.push_back("Percentage (%)");
  Tab.Columns.push_back("Cumulative Percentage (%)");

  for (const UnifiedPerfRow &R : Rows) {
    std::vector<std::string> C = {R.Name,         R.Category,
                                  R.ProcessName,  R.ProcessLabel,
                                  R.ThreadName,   R.InputDims,
                                  R.InputType,    R.InputStrides,
                                  R.ConcreteInputs};
    if (HasRecompute)
      C.push_back(R.IsRecompute.value_or(false) ? "True" : "False");
    for (std::string X : {std::to_string(R.ExUid),
                                  std::to_string(R.OperationCount),
                                  cell(R.DurationUs.Sum), cell(R.DurationUs.Mean),
                                  cell(R.DurationUs.Std), cell(R.Gflops),
                                  cell(R.DataMovedMB), cell(R.FlopsPerByte),
                                  R.ComputeSpec})
      C.push_back(std::move(X));
    if (Roofline)
      C.push_back(R.RooflineBound);
    for (std::optional<double> V :
         {R.TBs.Mean, R.TBs.Std, R.TFLOPSs.Mean, R.TFLOPSs.Std,
          R.KernelTimeUs.Mean, R.KernelTimeUs.Std, R.KernelTimeUs.Sum,
          R.DurationUs.Median, R.DurationUs.Min, R.DurationUs.Max,
          R.TBs.Median, R.TBs.Min, R.TBs.Max, R.TFLOPSs.Median,
          R.TFLOPSs.Min, R.TFLOPSs.Max})
      C.push_back(cell(V));
    if (Roofline)
      for (std::optional<double> V :
           {R.RooflineTimeUs, R.PctRoofline.Mean, R.PctRoofline.Median,
            R.PctRoofline.Std, R.PctRoofline.Min, R.PctRoofline.Max})
        C.push_back(cell(V));
    for (std::optional<double> V : {R.KernelTimeUs.Median,
                                    R.KernelTimeUs.Min, R.KernelTimeUs.Max})
      C.push_back(cell(V));
    // The roofline (agent) flavour's references come from numpy 1.24.
    C.push_back(formatKernelDetailsSummary(R.KernelDetails, !Roofline));
    C.push_back(formatTruncKernelDetails(R.KernelDetails, !Roofline));
    if (R.PerfParams) {
      std::string P = "{";
      for (size_t I = 0; I < R.PerfParams->size(); ++I) {
        if (I)
          P += ", ";
        P += pyReprString((*R.PerfParams)[I].first) + ": " +
             (*R.PerfParams)[I].second;
      }
      C.push_back(P + "}");
    } else {
      C.push_back("");
    }
    C.push_back(R.HasPerfModel ? "True" : "False");
    C.push_back(R.EntryPoint);
    C.push_back(R.CallStackFull);
    C.push_back(cell(R.Percentage));
    C.push_back(cell(R.CumulativePercentage));
    Tab.Rows.push_back(std::move(C));
  }
  return Tab;
}
