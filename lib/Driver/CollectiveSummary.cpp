//===- CollectiveSummary.cpp - collective_summary.csv ---------------------===//
//
// Spec multi-rank.md §7.1: one row per collective family (type, name,
// dtype, bytes, process group) over the complete (ok) instances.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/CollectiveTables.h"

#include "tl/Support/Stats.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <tuple>

using namespace llvm;

namespace tl {

namespace {
using FamilyKey = std::tuple<std::string, std::string, std::string,
                             std::optional<int64_t>, std::string>;

struct Family {
  FamilyKey Key;
  std::string NodeSpan; // the first instance's
  std::vector<double> Transfer, Skew, EndSkew, AlgBw, BusBw;
  double Blame = 0;
};
} // namespace

static double sum(ArrayRef<double> V) {
  double S = 0;
  for (double X : V)
    S += X;
  return S;
}

static PyValue cellMean(ArrayRef<double> V) {
  return V.empty() ? PyValue::none() : pyFloat(sum(V) / double(V.size()));
}

static PyValue cellMedian(ArrayRef<double> V) {
  return V.empty() ? PyValue::none() : pyFloat(numpyMedian(V));
}

static PyValue cellMin(ArrayRef<double> V) {
  return V.empty() ? PyValue::none() : pyFloat(*llvm::min_element(V));
}

static PyValue cellMax(ArrayRef<double> V) {
  return V.empty() ? PyValue::none() : pyFloat(*llvm::max_element(V));
}

CsvTable collectiveSummaryTable(ArrayRef<MatchedCollective> Cs,
                                std::optional<int64_t> GpusPerNode) {
  std::map<FamilyKey, Family> Fams;
  for (const MatchedCollective &C : Cs) {
    if (C.Status != MatchStatus::Ok)
      continue;
    std::optional<int64_t> Bytes;
    if (C.Bytes)
      Bytes = int64_t(*C.Bytes);
    FamilyKey K{C.CollType, C.CollName, C.Dtype, Bytes, C.Pg};
    auto [It, New] = Fams.try_emplace(K);
    Family &F = It->second;
    if (New) {
      F.Key = K;
      F.NodeSpan = nodeSpan(C, GpusPerNode);
    }
    F.Transfer.push_back(C.Transfer);
    F.Skew.push_back(C.ArrivalSkew);
    F.EndSkew.push_back(C.EndSkew);
    if (C.AlgBw)
      F.AlgBw.push_back(*C.AlgBw);
    if (C.BusBw)
      F.BusBw.push_back(*C.BusBw);
    F.Blame += C.Blame;
  }
  std::vector<const Family *> Order;
  for (auto &[K, F] : Fams)
    Order.push_back(&F); // key order
  llvm::stable_sort(Order, [](const Family *A, const Family *B) {
    return sum(A->Transfer) > sum(B->Transfer);
  });
  CsvTable Tab({"coll_type", "coll_name", "dtype", "bytes", "pg", "node_span",
                "count", "transfer_mean_us", "transfer_median_us",
                "transfer_min_us", "transfer_max_us", "transfer_total_ms",
                "arrival_skew_mean_us", "arrival_skew_max_us",
                "end_skew_mean_us", "algbw_median_GBps", "busbw_median_GBps",
                "busbw_min_GBps", "busbw_max_GBps", "blame_total_us"});
  for (const Family *F : Order) {
    auto &[Type, Name, Dtype, Bytes, Pg] = F->Key;
    Tab.addRow({pyText(Type), pyText(Name), pyText(Dtype), pyOptInt(Bytes),
                pyText(Pg), pyText(F->NodeSpan),
                pyInt(int64_t(F->Transfer.size())), cellMean(F->Transfer),
                cellMedian(F->Transfer), cellMin(F->Transfer), cellMax(F->Transfer),
                pyFloat(sum(F->Transfer) / 1000), cellMean(F->Skew),
                cellMax(F->Skew), cellMean(F->EndSkew), cellMedian(F->AlgBw),
                cellMedian(F->BusBw), cellMin(F->BusBw), cellMax(F->BusBw),
                pyFloat(F->Blame)});
  }
  return Tab;
}

} // namespace tl
