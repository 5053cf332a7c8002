//===- CollectiveSummary.cpp - coll_analysis table -----------------------===//
#include "tl/Analysis/CollectiveSummary.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <map>
#include <set>

using namespace tl;

static const char *const KeyNames[] = {
    "rank",           "Process Group Name", "Process Group Ranks",
    "Collective name", "Group size",         "dtype",
    "In msg nelems",  "Out msg nelems",     "In split size",
    "Out split size", "stream"};

llvm::ArrayRef<const char *> CollectiveSummary::keyNames() { return KeyNames; }

unsigned tl::ncclDtypeBytes(llvm::StringRef D) {
  return llvm::StringSwitch<unsigned>(D)
      .Cases("Float", "Int", 4)
      .Cases("Long", "Double", 8)
      .Cases("BFloat16", "Half", "Short", 2)
      .Cases("Bool", "Byte", 1)
      .Default(0);
}

CollectiveSummary::CollectiveSummary(const Trace &T, AnalysisManager &AM) {
  // Two passes over the communication kernels so that no per-kernel key
  // array is kept (eleven Python values per kernel dominated the report
  // phase's heap on large traces): the first finds the column-wide facts
  // (group names, streams, float columns), the second groups.
  NamePredicate IsComm(T, isCommKernel);
  // Keys 1..9 by name, key 10 is the "stream" arg; ids looked up once.
  std::array<StrId, 11> KeyIds{};
  for (unsigned I = 1; I < 10; ++I)
    KeyIds[I] = T.strings().lookup(KeyNames[I]);
  KeyIds[10] = T.strings().lookup("stream");
  NamePredicate IsCrossDeviceReduce(
      T, [](llvm::StringRef N) { return N.contains("cross_device_reduce"); });
  auto forEachKernel = [&](auto &&Fn) {
    for (EventId E : T.eventsOfKind(EventKind::Kernel)) {
      if (!IsComm(E))
        continue;
      if (!T.correlation(E) && !T.externalId(E))
        continue;
      Fn(E);
    }
  };
  auto Rows = [&](auto &&Fn) {
    forEachKernel([&](EventId E) {
      ArgValue A = T.args(E);
      std::array<PyValue, 11> Keys;
      Keys[0] = PyValue::integer(0);
      for (unsigned I = 1; I < 11; ++I)
        Keys[I] = argValueAsTuple(A.getByKeyId(KeyIds[I]));
      if (Keys[3].isNone() && IsCrossDeviceReduce(E))
        Keys[3] = PyValue::str("allreduce");
      Fn(E, Keys);
    });
  };
  bool AnyGroupName = false, AnyFloatGroupName = false;
  std::set<std::string> Streams;
  // pandas: an int column with a missing value is float64.
  std::array<bool, 11> AsFloat{};
  // The first pass needs only whether each key is None (a missing or null
  // arg) or a float (a double arg), and the distinct stream texts: read
  // from the arg types, with the text of an integer stream made only when
  // it differs from the last one.
  std::optional<int64_t> LastStream;
  forEachKernel([&](EventId E) {
    ArgValue A = T.args(E);
    for (unsigned I = 1; I < 11; ++I) {
      ArgValue V = A.getByKeyId(KeyIds[I]);
      ArgValue::Type Ty = V.type();
      bool None = Ty == ArgValue::Type::Null;
      if (I == 3 && None && IsCrossDeviceReduce(E))
        None = false; // "allreduce"
      bool Float = Ty == ArgValue::Type::Double;
      if (None || Float)
        AsFloat[I] = true;
      if (I == 1) {
        AnyGroupName |= !None;
        AnyFloatGroupName |= Float;
      }
      if (I == 10) {
        if (Ty == ArgValue::Type::Int) {
          int64_t S = V.getInt();
          if (LastStream == S)
            continue;
          LastStream = S;
        } else {
          LastStream.reset();
        }
        Streams.insert(pyRepr(argValueAsTuple(V)));
      }
    }
  });
  // Simplified mode: no process-group names and one stream per rank (all
  // rows are rank 0 here). The group-name column is then all text, or
  // missing names become text: it is float only through a float name.
  bool Simplified = !AnyGroupName && Streams.size() <= 1;
  AsFloat[1] = !Simplified && AnyFloatGroupName;

  struct Acc {
    std::array<PyValue, 11> Keys;
    std::vector<double> Dur;
    std::optional<double> InMB, OutMB;
  };
  std::map<std::vector<std::string>, Acc> ByKey;
  std::vector<std::string> Key;
  Rows([&](EventId E, std::array<PyValue, 11> &Keys) {
    if (Keys[1].isNone() || Simplified)
      Keys[1] = PyValue::str(Simplified ? "all" : "Unknown_Group");
    std::optional<double> InMB, OutMB;
    if (Keys[5].kind() == PyValue::Kind::Str) {
      unsigned B = ncclDtypeBytes(Keys[5].getStr());
      auto MB = [&](const PyValue &N) -> std::optional<double> {
        if (!B || !N.isNumber())
          return std::nullopt;
        return N.asDouble() * B / (1024.0 * 1024.0);
      };
      InMB = MB(Keys[6]);
      OutMB = MB(Keys[7]);
    }
    bool Missing = false;
    Key.clear();
    for (unsigned K = 0; K < 11; ++K) {
      if (Keys[K].isNone())
        Missing = true;
      else if (AsFloat[K] && Keys[K].kind() == PyValue::Kind::Int)
        Keys[K] = PyValue::real(double(Keys[K].getInt()));
      Key.push_back(pyRepr(Keys[K]));
    }
    if (Missing)
      return;
    auto [It, New] = ByKey.try_emplace(Key);
    Acc &G = It->second;
    if (New)
      G.Keys = std::move(Keys);
    G.Dur.push_back(T.dur(E));
    if (!G.InMB)
      G.InMB = InMB;
    if (!G.OutMB)
      G.OutMB = OutMB;
  });
  for (auto &[K, A] : ByKey) {
    CollectiveGroupRow G;
    G.Keys = std::move(A.Keys);
    G.InMsgMB = A.InMB;
    G.OutMsgMB = A.OutMB;
    const std::vector<double> &D = A.Dur;
    G.DurSum = pandasGroupSum(D);
    G.DurMean = pandasGroupMean(D);
    G.DurStd = pandasGroupStd(D, 1);
    G.DurMin = minOf(D);
    G.DurMax = maxOf(D);
    G.Count = D.size();
    Groups.push_back(std::move(G));
  }
  // sort_values(ascending=False): numpy quicksort order, ties included.
  {
    std::vector<double> K;
    for (const CollectiveGroupRow &G : Groups)
      K.push_back(G.DurSum);
    std::vector<CollectiveGroupRow> Sorted;
    for (size_t I : pandasSortValuesOrder(K, /*Ascending=*/false))
      Sorted.push_back(std::move(Groups[I]));
    Groups = std::move(Sorted);
  }
  (void)AM;
}
