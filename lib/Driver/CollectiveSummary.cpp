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

double CollectiveFamily::transferTotalUs() const { return sum(Transfer); }

std::vector<CollectiveFamily>
collectiveFamilies(ArrayRef<MatchedCollective> Cs,
                   std::optional<int64_t> GpusPerNode) {
  using FamilyKey = std::tuple<std::string, std::string, std::string,
                               std::optional<int64_t>, std::string>;
  std::map<FamilyKey, CollectiveFamily> Fams;
  for (const MatchedCollective &C : Cs) {
    if (C.Status != MatchStatus::Ok)
      continue;
    std::optional<int64_t> Bytes;
    if (C.Bytes)
      Bytes = int64_t(*C.Bytes);
    auto [It, New] =
        Fams.try_emplace(FamilyKey{C.CollType, C.CollName, C.Dtype, Bytes, C.Pg});
    CollectiveFamily &F = It->second;
    if (New) {
      F.CollType = C.CollType;
      F.CollName = C.CollName;
      F.Dtype = C.Dtype;
      F.Bytes = Bytes;
      F.Pg = C.Pg;
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
  std::vector<CollectiveFamily> Out;
  for (auto &[K, F] : Fams)
    Out.push_back(std::move(F)); // key order
  llvm::stable_sort(Out, [](const CollectiveFamily &A,
                            const CollectiveFamily &B) {
    return A.transferTotalUs() > B.transferTotalUs();
  });
  return Out;
}

CsvTable collectiveSummaryTable(ArrayRef<MatchedCollective> Cs,
                                std::optional<int64_t> GpusPerNode) {
  CsvTable Tab({"coll_type", "coll_name", "dtype", "bytes", "pg", "node_span",
                "count", "transfer_mean_us", "transfer_median_us",
                "transfer_min_us", "transfer_max_us", "transfer_total_ms",
                "arrival_skew_mean_us", "arrival_skew_max_us",
                "end_skew_mean_us", "algbw_median_GBps", "busbw_median_GBps",
                "busbw_min_GBps", "busbw_max_GBps", "blame_total_us"});
  for (const CollectiveFamily &F : collectiveFamilies(Cs, GpusPerNode))
    Tab.addRow({pyText(F.CollType), pyText(F.CollName), pyText(F.Dtype),
                pyOptInt(F.Bytes), pyText(F.Pg), pyText(F.NodeSpan),
                pyInt(int64_t(F.Transfer.size())), cellMean(F.Transfer),
                cellMedian(F.Transfer), cellMin(F.Transfer), cellMax(F.Transfer),
                pyFloat(F.transferTotalUs() / 1000), cellMean(F.Skew),
                cellMax(F.Skew), cellMean(F.EndSkew), cellMedian(F.AlgBw),
                cellMedian(F.BusBw), cellMin(F.BusBw), cellMax(F.BusBw),
                pyFloat(F.Blame)});
  return Tab;
}

} // namespace tl
