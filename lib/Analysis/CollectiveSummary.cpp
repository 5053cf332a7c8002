//===- CollectiveSummary.cpp - coll_analysis table -----------------------===//
#include "tl/Analysis/CollectiveSummary.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"

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
  // What a kernel's group depends on, as raw ids: each key's arg type and
  // value (integers and float bits, pooled string pointers, stored
  // container identities), and the cross_device_reduce name test. Equal
  // raw keys give equal texts, so the Python values and their reprs are
  // made once per raw key, not per kernel.
  struct Memo {
    Acc *G = nullptr; // null: a key is missing, the kernel is dropped
    std::optional<double> InMB, OutMB;
  };
  llvm::StringMap<Memo> ByRaw;
  std::array<uint64_t, 34> Raw;
  forEachKernel([&](EventId E) {
    ArgValue A = T.args(E);
    std::array<ArgValue, 11> Vals;
    for (unsigned I = 1; I < 11; ++I) {
      ArgValue V = Vals[I] = A.getByKeyId(KeyIds[I]);
      ArgValue::Type Ty = V.type();
      uint64_t X = 0, Y = 0;
      switch (Ty) {
      case ArgValue::Type::Null:
        break;
      case ArgValue::Type::Bool:
        X = V.getBool();
        break;
      case ArgValue::Type::Int:
        X = uint64_t(V.getInt());
        break;
      case ArgValue::Type::Double:
        X = llvm::bit_cast<uint64_t>(V.getDouble());
        break;
      case ArgValue::Type::String: {
        llvm::StringRef Str = V.getString();
        X = reinterpret_cast<uintptr_t>(Str.data());
        Y = Str.size();
        break;
      }
      case ArgValue::Type::Array:
      case ArgValue::Type::Object:
        X = V.identity();
        break;
      }
      Raw[3 * I] = uint64_t(Ty);
      Raw[3 * I + 1] = X;
      Raw[3 * I + 2] = Y;
    }
    Raw[0] = Vals[3].isNull() && IsCrossDeviceReduce(E);
    Raw[1] = Raw[2] = 0;
    Raw[33] = 0;
    llvm::StringRef RawBytes(reinterpret_cast<const char *>(Raw.data()),
                             sizeof(Raw));
    auto [MI, NewRaw] = ByRaw.try_emplace(RawBytes);
    Memo &M = MI->second;
    if (NewRaw) {
      std::array<PyValue, 11> Keys;
      Keys[0] = PyValue::integer(0);
      for (unsigned I = 1; I < 11; ++I)
        Keys[I] = argValueAsTuple(Vals[I]);
      if (Raw[0])
        Keys[3] = PyValue::str("allreduce");
      if (Keys[1].isNone() || Simplified)
        Keys[1] = PyValue::str(Simplified ? "all" : "Unknown_Group");
      if (Keys[5].kind() == PyValue::Kind::Str) {
        unsigned B = ncclDtypeBytes(Keys[5].getStr());
        auto MB = [&](const PyValue &N) -> std::optional<double> {
          if (!B || !N.isNumber())
            return std::nullopt;
          return N.asDouble() * B / (1024.0 * 1024.0);
        };
        M.InMB = MB(Keys[6]);
        M.OutMB = MB(Keys[7]);
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
      if (!Missing) {
        auto [It, New] = ByKey.try_emplace(Key);
        if (New)
          It->second.Keys = std::move(Keys);
        M.G = &It->second;
      }
    }
    if (!M.G)
      return;
    Acc &G = *M.G;
    G.Dur.push_back(T.dur(E));
    if (!G.InMB)
      G.InMB = M.InMB;
    if (!G.OutMB)
      G.OutMB = M.OutMB;
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
