//===- OpTable.cpp - Kernel launchers and the ops_* tables ---------------===//
#include "tl/Analysis/OpTable.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/Recompute.h"
#include "tl/Support/Intervals.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>
#include <set>

using namespace tl;

//===----------------------------------------------------------------------===//
// Row fields
//===----------------------------------------------------------------------===//

PyValue tl::argAsTuple(const Trace &T, EventId E, llvm::StringRef Key) {
  ArgValue Root = T.args(E).get(Key);
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

OpTable::OpTable(const Trace &T, AnalysisManager &AM) : T(T) {
  const CategoryRegistry &Reg = CategoryRegistry::builtin();
  // Attribute kernels in file order; launchers appear in first-kernel order.
  for (EventId K : T.gpuEvents()) {
    if (isCommKernel(T.name(K)))
      continue;
    EventId R = T.parent(K);
    if (R == NoEvent)
      continue;
    EventId L = findLauncher(T, R);
    auto [It, New] = RowOf.try_emplace(L, uint32_t(Rows.size()));
    if (New) {
      Rows.emplace_back();
      Rows.back().Launcher = L;
    }
    Rows[It->second].Kernels.push_back(K);
    LauncherOfKernel[K] = L;
  }
  std::vector<uint32_t> Order(Rows.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    return T.ts(Rows[A].Launcher) < T.ts(Rows[B].Launcher);
  });
  std::vector<LauncherRow> Sorted;
  Sorted.reserve(Rows.size());
  for (uint32_t I : Order)
    Sorted.push_back(std::move(Rows[I]));
  Rows = std::move(Sorted);
  RowOf.clear();
  for (uint32_t I = 0; I < Rows.size(); ++I) {
    LauncherRow &Row = Rows[I];
    RowOf[Row.Launcher] = I;
    std::vector<EventId> ByTs = Row.Kernels;
    std::stable_sort(ByTs.begin(), ByTs.end(),
                     [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
    Row.Details = kernelDetailsOf(T, ByTs);
    Row.DirectTimeUs = unionTime(T, Row.Kernels);
    Row.SubtreeTimeUs = unionTime(T, T.subtreeGpuEvents(Row.Launcher));
    Row.Category = Reg.categorize(T.name(Row.Launcher), Row.Details.front().Name);
  }
  SplitRecompute = AM.options().DetectRecompute;
  ByNumKernels = AM.options().GroupByNumKernels;
  if (SplitRecompute) {
    const RecomputeMarks &RM = AM.get<RecomputeMarks>();
    for (LauncherRow &Row : Rows)
      Row.IsRecompute = RM.isRecompute(Row.Launcher);
  }

  // ops_summary_by_category (§6.2): sorted keys, then sum desc (stable).
  {
    std::map<std::pair<std::string, bool>, std::vector<double>> Groups;
    for (const LauncherRow &R : Rows)
      Groups[{R.Category, R.IsRecompute}].push_back(R.DirectTimeUs);
    for (auto &[Key, V] : Groups) {
      CategorySummaryRow S;
      S.Category = Key.first;
      S.IsRecompute = Key.second;
      S.Count = V.size();
      S.DirectMs = pandasGroupSum(V) / 1000;
      ByCategory.push_back(std::move(S));
    }
    sortValuesDescending(ByCategory,
                         [](const CategorySummaryRow &R) { return R.DirectMs; });
    percentages(ByCategory,
                [](const CategorySummaryRow &R) { return R.DirectMs; });
  }

  // ops_summary (§6.3): by name (sorted), then direct sum desc (stable).
  {
    struct Acc {
      std::vector<double> Direct, Subtree;
      std::set<std::string> Cats;
    };
    std::map<std::pair<std::string, bool>, Acc> Groups;
    for (const LauncherRow &R : Rows) {
      Acc &A = Groups[{T.name(R.Launcher).str(), R.IsRecompute}];
      A.Direct.push_back(R.DirectTimeUs);
      A.Subtree.push_back(R.SubtreeTimeUs);
      A.Cats.insert(R.Category);
    }
    for (auto &[Key, A] : Groups) {
      NameSummaryRow S;
      S.Name = Key.first;
      S.IsRecompute = Key.second;
      S.DirectSumUs = pandasGroupSum(A.Direct);
      S.SubtreeSumUs = pandasGroupSum(A.Subtree);
      S.Count = A.Direct.size();
      S.Categories.assign(A.Cats.begin(), A.Cats.end());
      ByName.push_back(std::move(S));
    }
    sortValuesDescending(ByName,
                         [](const NameSummaryRow &R) { return R.DirectSumUs; });
    percentages(ByName,
                [](const NameSummaryRow &R) { return R.DirectSumUs / 1000; });
  }

  // ops_unique_args (§6.4): groups keyed by the repr of the signature, in
  // first-appearance order; sorted by (direct sum desc, ex_UID asc).
  {
    llvm::StringMap<uint32_t> GroupOf;
    for (uint32_t I = 0; I < Rows.size(); ++I) {
      EventId L = Rows[I].Launcher;
      UniqueArgsRow Key;
      Key.Name = T.name(L).str();
      Key.Category = Rows[I].Category;
      Key.ProcessName = processNameOf(T, L);
      Key.ProcessLabel = processLabelOf(T, L);
      Key.ThreadName = threadNameOf(T, L);
      Key.InputDims = argAsTuple(T, L, "Input Dims");
      Key.InputType = argAsTuple(T, L, "Input type");
      Key.InputStrides = argAsTuple(T, L, "Input Strides");
      Key.ConcreteInputs = argAsTuple(T, L, "Concrete Inputs");
      Key.IsRecompute = Rows[I].IsRecompute;
      Key.NumKernels = Rows[I].Details.size();
      std::string K = Key.IsRecompute ? "R\x1f" : "";
      if (ByNumKernels)
        K += std::to_string(Key.NumKernels) + '\x1f';
      for (const std::string &S :
           {Key.Name, Key.Category, Key.ProcessName, Key.ProcessLabel,
            Key.ThreadName, pyRepr(Key.InputDims), pyRepr(Key.InputType),
            pyRepr(Key.InputStrides), pyRepr(Key.ConcreteInputs)}) {
        K += S;
        K += '\x1f';
      }
      auto [It, New] = GroupOf.try_emplace(K, uint32_t(UniqueArgs.size()));
      if (New) {
        Key.ExUid = T.uid(L);
        UniqueArgs.push_back(std::move(Key));
      }
      UniqueArgs[It->second].Members.push_back(I);
    }
    for (UniqueArgsRow &G : UniqueArgs) {
      std::vector<double> D, S;
      std::vector<const std::vector<KernelDetail> *> Lists;
      for (uint32_t I : G.Members) {
        D.push_back(Rows[I].DirectTimeUs);
        S.push_back(Rows[I].SubtreeTimeUs);
        Lists.push_back(&Rows[I].Details);
      }
      G.OperationCount = G.Members.size();
      G.Direct = aggregate(D);
      G.Subtree = aggregate(S);
      G.KernelSummary = summarizeKernelDetails(Lists);
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
  auto It = RowOf.find(E);
  return It == RowOf.end() ? nullptr : &Rows[It->second];
}

EventId OpTable::launcherOf(EventId Kernel) const {
  auto It = LauncherOfKernel.find(Kernel);
  return It == LauncherOfKernel.end() ? NoEvent : It->second;
}

std::string OpTable::categoryOf(EventId E) const {
  const LauncherRow *R = launcherRow(E);
  llvm::StringRef First = R ? R->Details.front().Name : llvm::StringRef();
  return CategoryRegistry::builtin().categorize(T.name(E), First);
}
