//===- CollectiveSummary.cpp - coll_analysis table -----------------------===//
#include "tl/Analysis/CollectiveSummary.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

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
  struct Row {
    std::array<PyValue, 11> Keys;
    std::optional<double> InMB, OutMB;
    double Dur;
  };
  std::vector<Row> Rows;
  bool AnyGroupName = false;
  std::set<std::string> Streams;
  for (EventId E : T.eventsOfKind(EventKind::Kernel)) {
    if (!isCommKernel(T.name(E)))
      continue;
    if (!T.correlation(E) && !T.externalId(E))
      continue;
    Row R;
    R.Dur = T.dur(E);
    R.Keys[0] = PyValue::integer(0);
    for (unsigned I = 1; I < 10; ++I)
      R.Keys[I] = argAsTuple(T, E, KeyNames[I]);
    R.Keys[10] = argAsTuple(T, E, "stream");
    if (R.Keys[3].isNone() && T.name(E).contains("cross_device_reduce"))
      R.Keys[3] = PyValue::str("allreduce");
    if (!R.Keys[1].isNone())
      AnyGroupName = true;
    Streams.insert(pyRepr(R.Keys[10]));
    if (R.Keys[5].kind() == PyValue::Kind::Str) {
      unsigned B = ncclDtypeBytes(R.Keys[5].getStr());
      auto MB = [&](const PyValue &N) -> std::optional<double> {
        if (!B || !N.isNumber())
          return std::nullopt;
        return N.asDouble() * B / (1024.0 * 1024.0);
      };
      R.InMB = MB(R.Keys[6]);
      R.OutMB = MB(R.Keys[7]);
    }
    Rows.push_back(std::move(R));
  }
  // Simplified mode: no process-group names and one stream per rank (all
  // rows are rank 0 here).
  bool Simplified = !AnyGroupName && Streams.size() <= 1;
  for (Row &R : Rows)
    if (R.Keys[1].isNone() || Simplified)
      R.Keys[1] = PyValue::str(Simplified ? "all" : "Unknown_Group");

  // pandas: an int column with a missing value is float64.
  std::array<bool, 11> AsFloat{};
  for (unsigned I = 0; I < 11; ++I)
    for (const Row &R : Rows)
      if (R.Keys[I].isNone() || R.Keys[I].kind() == PyValue::Kind::Float)
        AsFloat[I] = true;

  std::map<std::vector<std::string>, std::vector<uint32_t>> ByKey;
  for (uint32_t I = 0; I < Rows.size(); ++I) {
    Row &R = Rows[I];
    bool Missing = false;
    std::vector<std::string> Key;
    for (unsigned K = 0; K < 11; ++K) {
      if (R.Keys[K].isNone())
        Missing = true;
      else if (AsFloat[K] && R.Keys[K].kind() == PyValue::Kind::Int)
        R.Keys[K] = PyValue::real(double(R.Keys[K].getInt()));
      Key.push_back(pyRepr(R.Keys[K]));
    }
    if (!Missing)
      ByKey[Key].push_back(I);
  }
  for (auto &[Key, Members] : ByKey) {
    CollectiveGroupRow G;
    G.Keys = Rows[Members.front()].Keys;
    std::vector<double> D;
    for (uint32_t I : Members) {
      D.push_back(Rows[I].Dur);
      if (!G.InMsgMB)
        G.InMsgMB = Rows[I].InMB;
      if (!G.OutMsgMB)
        G.OutMsgMB = Rows[I].OutMB;
    }
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
