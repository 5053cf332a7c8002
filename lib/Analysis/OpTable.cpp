//===- OpTable.cpp - Kernel launchers and the ops_* tables ---------------===//
#include "tl/Analysis/OpTable.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CallStack.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/PerfMetrics.h"
#include "tl/Analysis/Recompute.h"
#include "tl/Support/Intervals.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <array>

using namespace tl;

//===----------------------------------------------------------------------===//
// Row fields
//===----------------------------------------------------------------------===//

PyValue tl::argAsTuple(const Trace &T, EventId E, llvm::StringRef Key) {
  return argValueAsTuple(T.args(E).get(Key));
}

PyValue tl::argValueAsTuple(ArgValue Root) {
  if (Root.isNull())
    return PyValue::none();
  // Iterative post-order conversion: containers are built once all their
  // elements are done.
  struct Frame {
    ArgValue V;
    size_t Next = 0;
    std::vector<PyValue> Elems;
  };
  auto Scalar = [](ArgValue V) -> PyValue {
    switch (V.type()) {
    case ArgValue::Type::Bool:
      return PyValue::boolean(V.getBool());
    case ArgValue::Type::Int:
      return PyValue::integer(V.getInt());
    case ArgValue::Type::Double:
      return PyValue::real(V.getDouble());
    case ArgValue::Type::String:
      return PyValue::str(V.getString());
    case ArgValue::Type::Object:
      return PyValue::str(V.toJson());
    default:
      return PyValue::none();
    }
  };
  if (!Root.isArray())
    return Scalar(Root);
  std::vector<Frame> Stack;
  Stack.push_back({Root, 0, {}});
  PyValue Done;
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.Next == F.V.size()) {
      PyValue Tup = PyValue::tuple(std::move(F.Elems));
      Stack.pop_back();
      if (Stack.empty())
        Done = std::move(Tup);
      else
        Stack.back().Elems.push_back(std::move(Tup));
      continue;
    }
    ArgValue C = F.V[F.Next++];
    if (C.isArray())
      Stack.push_back({C, 0, {}});
    else
      F.Elems.push_back(Scalar(C));
  }
  return Done;
}

static std::string trackText(const Trace &T, StrId Id) {
  if (!Id)
    return "Unknown";
  return T.strings().get(Id).str();
}

std::string tl::processNameOf(const Trace &T, EventId E) {
  return trackText(T, T.trackInfo(T.track(E)).ProcessName);
}
std::string tl::processLabelOf(const Trace &T, EventId E) {
  return trackText(T, T.trackInfo(T.track(E)).ProcessLabel);
}
std::string tl::threadNameOf(const Trace &T, EventId E) {
  return trackText(T, T.trackInfo(T.track(E)).ThreadName);
}

//===----------------------------------------------------------------------===//
// Launcher attribution (§2.8)
//===----------------------------------------------------------------------===//

static double unionTime(const Trace &T, llvm::ArrayRef<EventId> Events) {
  std::vector<Interval> I;
  I.reserve(Events.size());
  for (EventId E : Events)
    I.push_back({T.ts(E), T.end(E)});
  return busyTime(std::move(I));
}

/// Nearest cpu_op above the runtime call R (execute and python frames are
/// transparent; anything else stops the walk); R itself when none.
uint32_t ReprIds::text(llvm::StringRef S) {
  return Texts.try_emplace(S, uint32_t(Texts.size())).first->second;
}

uint32_t ReprIds::arg(const Trace &T, EventId E, llvm::StringRef Key,
                      ArgValue V) {
  auto [It, New] = ByIdentity.try_emplace(V.identity());
  if (New)
    It->second = text(pyRepr(argAsTuple(T, E, Key)));
  return It->second;
}

static EventId findLauncher(const Trace &T, EventId R) {
  for (EventId P = T.parent(R); P != NoEvent; P = T.parent(P)) {
    EventKind K = T.kind(P);
    if (K == EventKind::CpuOp) {
      if (T.name(P) == "execute")
        continue;
      return P;
    }
    if (K != EventKind::PythonFunction)
      break;
  }
  return R;
}

static AggStats aggregate(llvm::ArrayRef<double> V) {
  AggStats S;
  S.Mean = pandasGroupMean(V);
  S.Median = pandasGroupMedian(V);
  S.Std = pandasGroupStd(V, 1);
  S.Min = minOf(V);
  S.Max = maxOf(V);
  S.Sum = pandasGroupSum(V);
  return S;
}

/// DataFrame.sort_values(by=<one column>, ascending=False): numpy's
/// unstable quicksort, so ties land where the reference puts them.
template <typename RowT, typename GetT>
static void sortValuesDescending(std::vector<RowT> &Rows, GetT Get) {
  std::vector<double> K;
  for (const RowT &R : Rows)
    K.push_back(Get(R));
  std::vector<RowT> Out;
  Out.reserve(Rows.size());
  for (size_t I : pandasSortValuesOrder(K, /*Ascending=*/false))
    Out.push_back(std::move(Rows[I]));
  Rows = std::move(Out);
}

/// Percentage and running total of one column (pandas: x / x.sum() * 100,
/// Series.sum being numpy's pairwise sum; cumsum left to right).
template <typename RowT, typename GetT>
static void percentages(std::vector<RowT> &Rows, GetT Get) {
  std::vector<double> V;
  V.reserve(Rows.size());
  for (const RowT &R : Rows)
    V.push_back(Get(R));
  double Total = numpySum(V);
  double Cum = 0;
  for (size_t I = 0; I < Rows.size(); ++I) {
    Rows[I].Percentage = V[I] / Total * 100;
    Cum += Rows[I].Percentage;
    Rows[I].CumulativePercentage = Cum;
  }
}

/// The launcher of a non-communication GPU event K (of its runtime call).
static EventId launcherOfLaunch(const Trace &T, EventId K) {
  if (!isGpuKind(T.kind(K)) || isCommKernel(T.name(K)))
    return NoEvent;
  EventId R = T.parent(K);
  return R == NoEvent ? NoEvent : findLauncher(T, R);
}

/// DataFrame.sort_values with a stable sort: the inference layout's
/// prescription for the two summaries (spec tracelens-inference.md §A.9).
template <typename RowT, typename GetT>
static void stableSortDescending(std::vector<RowT> &Rows, GetT Get) {
  std::stable_sort(Rows.begin(), Rows.end(), [&](const RowT &A, const RowT &B) {
    return Get(A) > Get(B);
  });
}

/// A call_stack frame: names over 256 characters are cut (§A.2).
static std::string stackFrame(llvm::StringRef N) {
  if (N.size() <= 256)
    return N.str();
  return (N.take_front(256) + "..").str();
}

OpTable::OpTable(const Trace &T, AnalysisManager &AM) : T(T) {
  const CategoryRegistry &Reg = CategoryRegistry::builtin();
  // Attribute kernels in file order; launchers appear in first-kernel order.
  std::vector<EventId> Launchers;
  std::vector<std::pair<uint32_t, EventId>> Attributed; // (launcher, kernel)
  {
    llvm::DenseMap<EventId, uint32_t> IndexOf;
    NamePredicate IsComm(T, isCommKernel);
    for (EventId K : T.gpuEvents()) {
      EventId R = T.parent(K);
      if (IsComm(K) || R == NoEvent)
        continue;
      EventId L = findLauncher(T, R);
      auto [It, New] = IndexOf.try_emplace(L, uint32_t(Launchers.size()));
      if (New)
        Launchers.push_back(L);
      Attributed.push_back({It->second, K});
    }
  }
  // Rows by launcher ts (stable); each row's kernels stay in file order.
  std::vector<uint32_t> Order(Launchers.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    return T.ts(Launchers[A]) < T.ts(Launchers[B]);
  });
  std::vector<uint32_t> RankOf(Launchers.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    RankOf[Order[I]] = I;
  Rows.resize(Launchers.size());
  for (const auto &[L, K] : Attributed)
    ++Rows[RankOf[L]].NumKernels;
  uint32_t Offset = 0;
  for (uint32_t I = 0; I < Rows.size(); ++I) {
    Rows[I].Launcher = Launchers[Order[I]];
    Rows[I].KernelBegin = Offset;
    Offset += Rows[I].NumKernels;
    Rows[I].NumKernels = 0;
  }
  Kernels.resize(Attributed.size());
  for (const auto &[L, K] : Attributed) {
    LauncherRow &R = Rows[RankOf[L]];
    Kernels[R.KernelBegin + R.NumKernels++] = K;
  }
  std::vector<std::pair<uint32_t, EventId>>().swap(Attributed);
  std::vector<uint32_t>().swap(Order);
  std::vector<uint32_t>().swap(RankOf);
  std::vector<EventId>().swap(Launchers);

  const SubtreeKernelIndex &Subtrees = AM.get<SubtreeKernelIndex>();
  llvm::StringMap<uint32_t> CategoryOf;
  // categorize reads the two names only: once per (launcher, first kernel)
  // name pair.
  llvm::DenseMap<std::pair<StrId, StrId>, uint32_t> CategoryOfNames;
  RowOf.reserve(Rows.size());
  for (uint32_t I = 0; I < Rows.size(); ++I) {
    LauncherRow &Row = Rows[I];
    RowOf.push_back({Row.Launcher, I});
    llvm::ArrayRef<EventId> Ks = kernelsOf(Row);
    // The first of the kernels stable-sorted by ts.
    Row.FirstKernel = Ks.front();
    for (EventId K : Ks.drop_front())
      if (T.ts(K) < T.ts(Row.FirstKernel))
        Row.FirstKernel = K;
    Row.DirectTimeUs = unionTime(T, Ks);
    // Deep nesting makes subtrees large: the index answers those without
    // re-merging every nested range.
    Row.SubtreeTimeUs = Subtrees.busyTime(Row.Launcher);
    auto [NI, NewNames] = CategoryOfNames.try_emplace(
        {T.nameId(Row.Launcher), T.nameId(Row.FirstKernel)}, 0);
    if (NewNames) {
      std::string Cat =
          Reg.categorize(T.name(Row.Launcher), T.name(Row.FirstKernel));
      auto [It, New] = CategoryOf.try_emplace(Cat, uint32_t(Categories.size()));
      if (New)
        Categories.push_back(std::move(Cat));
      NI->second = It->second;
    }
    Row.CategoryIdx = NI->second;
  }
  llvm::sort(RowOf);
  SplitRecompute = AM.options().DetectRecompute;
  ByNumKernels = AM.options().GroupByNumKernels;
  if (SplitRecompute) {
    const RecomputeMarks &RM = AM.get<RecomputeMarks>();
    for (LauncherRow &Row : Rows)
      Row.IsRecompute = RM.isRecompute(Row.Launcher);
  }
  // call_stack = the launcher and its nn.Module ancestors, innermost
  // first; parent_module = the first of those, indices removed, else "NA"
  // (spec tracelens-inference.md §A.2).
  Inference = AM.options().Inference;
  if (Inference) {
    llvm::StringMap<uint32_t> ModuleOf, StackOf;
    std::vector<PyValue> Frames;
    for (LauncherRow &Row : Rows) {
      Frames.clear();
      Frames.push_back(PyValue::str(stackFrame(T.name(Row.Launcher))));
      std::string Module = "NA";
      for (EventId P = T.parent(Row.Launcher); P != NoEvent; P = T.parent(P)) {
        llvm::StringRef N = T.name(P);
        if (!N.contains("nn.Module"))
          continue;
        std::string F = stackFrame(N);
        if (Frames.size() == 1)
          Module = stripIndices(F);
        Frames.push_back(PyValue::str(F));
      }
      auto [MI, NewM] = ModuleOf.try_emplace(Module, uint32_t(Modules.size()));
      if (NewM)
        Modules.push_back(Module);
      Row.ModuleIdx = MI->second;
      std::string Stack = pyRepr(PyValue::list(std::move(Frames)));
      Frames = {};
      auto [SI, NewS] = StackOf.try_emplace(Stack, uint32_t(Stacks.size()));
      if (NewS)
        Stacks.push_back(std::move(Stack));
      Row.StackIdx = SI->second;
    }
  } else {
    Modules.push_back("");
    Stacks.push_back("");
  }

  // ops_summary_by_category (§6.2): sorted keys, then sum desc (stable).
  {
    // Grouped by (category index, recompute), then put in (text, flag)
    // order: indices name distinct texts.
    // Inference mode keys by parent module too (ModuleIdx is 0 otherwise)
    // and keeps the first launcher's call stack.
    struct Acc {
      uint32_t Cat, Module, Stack;
      bool IsRecompute;
      std::vector<double> Direct;
    };
    llvm::DenseMap<std::pair<uint64_t, unsigned>, uint32_t> GroupOf;
    std::vector<Acc> Groups;
    for (const LauncherRow &R : Rows) {
      auto [It, New] = GroupOf.try_emplace(
          {(uint64_t(R.CategoryIdx) << 32) | R.ModuleIdx,
           unsigned(R.IsRecompute)},
          uint32_t(Groups.size()));
      if (New)
        Groups.push_back(
            {R.CategoryIdx, R.ModuleIdx, R.StackIdx, R.IsRecompute, {}});
      Groups[It->second].Direct.push_back(R.DirectTimeUs);
    }
    llvm::sort(Groups, [&](const Acc &A, const Acc &B) {
      int C = llvm::StringRef(Categories[A.Cat]).compare(Categories[B.Cat]);
      if (C == 0)
        C = llvm::StringRef(Modules[A.Module]).compare(Modules[B.Module]);
      return C != 0 ? C < 0 : A.IsRecompute < B.IsRecompute;
    });
    for (Acc &A : Groups) {
      CategorySummaryRow S;
      S.Category = Categories[A.Cat];
      S.ParentModule = Modules[A.Module];
      S.CallStackFirst = Stacks[A.Stack];
      S.IsRecompute = A.IsRecompute;
      S.Count = A.Direct.size();
      S.DirectMs = pandasGroupSum(A.Direct) / 1000;
      ByCategory.push_back(std::move(S));
    }
    auto Ms = [](const CategorySummaryRow &R) { return R.DirectMs; };
    if (Inference)
      stableSortDescending(ByCategory, Ms);
    else
      sortValuesDescending(ByCategory, Ms);
    percentages(ByCategory,
                [](const CategorySummaryRow &R) { return R.DirectMs; });
  }

  // ops_summary (§6.3): by name (sorted), then direct sum desc (stable).
  {
    // Grouped by (name id, recompute), then put in (name, flag) order:
    // interned ids name distinct texts.
    struct Acc {
      StrId Name;
      uint32_t Module, Stack;
      bool IsRecompute;
      std::vector<double> Direct, Subtree;
      std::vector<uint32_t> Cats; // category indices, in first-seen order
    };
    llvm::DenseMap<std::pair<uint64_t, unsigned>, uint32_t> GroupOf;
    std::vector<Acc> Groups;
    for (const LauncherRow &R : Rows) {
      StrId N = T.nameId(R.Launcher);
      auto [It, New] = GroupOf.try_emplace(
          {(uint64_t(N) << 32) | R.ModuleIdx, unsigned(R.IsRecompute)},
          Groups.size());
      if (New)
        Groups.push_back(
            {N, R.ModuleIdx, R.StackIdx, R.IsRecompute, {}, {}, {}});
      Acc &A = Groups[It->second];
      A.Direct.push_back(R.DirectTimeUs);
      A.Subtree.push_back(R.SubtreeTimeUs);
      if (!llvm::is_contained(A.Cats, R.CategoryIdx))
        A.Cats.push_back(R.CategoryIdx);
    }
    llvm::sort(Groups, [&](const Acc &A, const Acc &B) {
      int C = T.strings().get(A.Name).compare(T.strings().get(B.Name));
      if (C == 0)
        C = llvm::StringRef(Modules[A.Module]).compare(Modules[B.Module]);
      return C != 0 ? C < 0 : A.IsRecompute < B.IsRecompute;
    });
    for (Acc &A : Groups) {
      NameSummaryRow S;
      S.Name = T.strings().get(A.Name).str();
      S.ParentModule = Modules[A.Module];
      S.CallStackFirst = Stacks[A.Stack];
      S.IsRecompute = A.IsRecompute;
      S.DirectSumUs = pandasGroupSum(A.Direct);
      S.SubtreeSumUs = pandasGroupSum(A.Subtree);
      S.Count = A.Direct.size();
      for (uint32_t C : A.Cats)
        S.Categories.push_back(Categories[C]);
      llvm::sort(S.Categories);
      ByName.push_back(std::move(S));
    }
    auto Sum = [](const NameSummaryRow &R) { return R.DirectSumUs; };
    if (Inference)
      stableSortDescending(ByName, Sum);
    else
      sortValuesDescending(ByName, Sum);
    percentages(ByName,
                [](const NameSummaryRow &R) { return R.DirectSumUs / 1000; });
  }

  // ops_unique_args (§6.4): groups keyed by the repr of the signature, in
  // first-appearance order; sorted by (direct sum desc, ex_UID asc).
  {
    // The key's texts as small ids: names by their pool id, track names by
    // text, argument values by repr (made once per stored value: shape
    // lists are interned, so most launchers share them).
    static constexpr llvm::StringLiteral ArgKeys[4] = {
        "Input Dims", "Input type", "Input Strides", "Concrete Inputs"};
    ReprIds Ids;
    uint32_t NoneId = Ids.text("None");
    uint32_t ArgKeyIds[4];
    for (int J = 0; J < 4; ++J)
      ArgKeyIds[J] = T.strings().lookup(ArgKeys[J]);
    ArgKeySlots Slots;
    llvm::DenseMap<TrackId, std::array<uint32_t, 3>> TrackIds;
    llvm::StringMap<uint32_t> GroupOf;
    std::vector<std::vector<uint32_t>> Members; // launcher rows per group
    for (uint32_t I = 0; I < Rows.size(); ++I) {
      EventId L = Rows[I].Launcher;
      std::array<uint32_t, 12> K;
      K[11] = Rows[I].ModuleIdx;
      K[0] = Rows[I].IsRecompute;
      K[1] = ByNumKernels ? Rows[I].NumKernels : 0;
      K[2] = T.nameId(L);
      K[3] = Rows[I].CategoryIdx;
      auto [TI, NewTrack] = TrackIds.try_emplace(T.track(L));
      if (NewTrack)
        TI->second = {Ids.text(processNameOf(T, L)),
                      Ids.text(processLabelOf(T, L)),
                      Ids.text(threadNameOf(T, L))};
      std::copy(TI->second.begin(), TI->second.end(), K.begin() + 4);
      ArgValue Vals[4];
      T.args(L).getByKeyIds(ArgKeyIds, 4, Vals, Slots);
      for (int J = 0; J < 4; ++J) {
        ArgValue V = Vals[J];
        if (V.isNull()) {
          K[7 + J] = NoneId;
          continue;
        }
        K[7 + J] = Ids.arg(T, L, ArgKeys[J], V);
      }
      llvm::StringRef Bytes(reinterpret_cast<const char *>(K.data()),
                            sizeof(K));
      auto [It, New] = GroupOf.try_emplace(Bytes, uint32_t(UniqueArgs.size()));
      if (New) {
        UniqueArgsRow Key;
        Key.Name = T.name(L).str();
        Key.Category = categoryName(Rows[I]).str();
        Key.ParentModule = Modules[Rows[I].ModuleIdx];
        Key.CallStack = Stacks[Rows[I].StackIdx];
        Key.ProcessName = processNameOf(T, L);
        Key.ProcessLabel = processLabelOf(T, L);
        Key.ThreadName = threadNameOf(T, L);
        Key.InputDims = argAsTuple(T, L, ArgKeys[0]);
        Key.InputType = argAsTuple(T, L, ArgKeys[1]);
        Key.InputStrides = argAsTuple(T, L, ArgKeys[2]);
        Key.ConcreteInputs = argAsTuple(T, L, ArgKeys[3]);
        Key.IsRecompute = Rows[I].IsRecompute;
        Key.NumKernels = Rows[I].NumKernels;
        Key.ExUid = T.uid(L);
        UniqueArgs.push_back(std::move(Key));
        Members.emplace_back();
      }
      Members[It->second].push_back(I);
    }
    std::vector<EventId> ByTs;
    for (size_t GI = 0; GI < UniqueArgs.size(); ++GI) {
      UniqueArgsRow &G = UniqueArgs[GI];
      std::vector<double> D, S;
      // summarizeKernelDetails of the members' kernel_details: the first
      // member with kernels gives the template (names, streams); the
      // others only durations, when their list is as long.
      std::vector<KernelDetail> Template;
      std::vector<double> Durs;
      for (uint32_t I : Members[GI]) {
        D.push_back(Rows[I].DirectTimeUs);
        S.push_back(Rows[I].SubtreeTimeUs);
        llvm::ArrayRef<EventId> Ks = kernelsOf(Rows[I]);
        if (Ks.empty() || (!Template.empty() && Ks.size() != Template.size()))
          continue;
        if (Template.empty()) {
          Template = detailsOf(Rows[I]);
          for (const KernelDetail &K : Template)
            Durs.push_back(K.Dur);
          continue;
        }
        ByTs.assign(Ks.begin(), Ks.end());
        sortByTs(T, ByTs);
        for (EventId K : ByTs)
          Durs.push_back(T.dur(K));
      }
      G.OperationCount = Members[GI].size();
      G.Direct = aggregate(D);
      G.Subtree = aggregate(S);
      G.KernelSummary = summarizeKernelDurations(Template, Durs);
      std::vector<uint32_t>().swap(Members[GI]);
    }
    std::stable_sort(UniqueArgs.begin(), UniqueArgs.end(),
                     [](const UniqueArgsRow &A, const UniqueArgsRow &B) {
                       if (A.Direct.Sum != B.Direct.Sum)
                         return A.Direct.Sum > B.Direct.Sum;
                       return A.ExUid < B.ExUid;
                     });
    percentages(UniqueArgs,
                [](const UniqueArgsRow &R) { return R.Direct.Sum; });
  }
}

const LauncherRow *OpTable::launcherRow(EventId E) const {
  auto It = llvm::lower_bound(
      RowOf, E, [](const std::pair<EventId, uint32_t> &P, EventId X) {
        return P.first < X;
      });
  return It == RowOf.end() || It->first != E ? nullptr : &Rows[It->second];
}

std::vector<KernelDetail> OpTable::detailsOf(const LauncherRow &R) const {
  std::vector<EventId> ByTs(kernelsOf(R).begin(), kernelsOf(R).end());
  std::stable_sort(ByTs.begin(), ByTs.end(),
                   [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
  return kernelDetailsOf(T, ByTs);
}

EventId OpTable::launcherOf(EventId Kernel) const {
  // Recomputed (cheap: the walk stops at the first non-python frame)
  // rather than kept per kernel.
  return launcherOfLaunch(T, Kernel);
}

llvm::StringRef OpTable::firstKernelName(EventId E) const {
  const LauncherRow *R = launcherRow(E);
  return R ? T.name(R->FirstKernel) : llvm::StringRef();
}

std::string OpTable::categoryOf(EventId E) const {
  return CategoryRegistry::builtin().categorize(T.name(E), firstKernelName(E));
}
