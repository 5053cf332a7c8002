//===- CollectiveTables.cpp - The job's cross-rank collective tables ------===//
#include "tl/Driver/CollectiveTables.h"

#include "tl/Support/Markdown.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;

namespace tl {

std::string instanceId(const MatchedCollective &C) {
  // A pair's Seq counts the group's point-to-point ops.
  if (C.Src)
    return C.Pg + "_p2p" + std::to_string(C.Seq) + "_" +
           std::to_string(*C.Src) + "-" + std::to_string(*C.Dst);
  return C.Pg + "_" + std::to_string(C.Seq);
}

std::string nodeSpan(const MatchedCollective &C,
                     std::optional<int64_t> GpusPerNode) {
  if (!GpusPerNode || *GpusPerNode <= 0 || C.Members.empty())
    return "unknown";
  std::set<int64_t> Nodes;
  for (int64_t R : C.Members)
    Nodes.insert(R / *GpusPerNode);
  return Nodes.size() == 1 ? "intra_node" : "inter_node";
}

static std::string joinRanks(ArrayRef<int64_t> Rs) {
  std::string S;
  for (int64_t R : Rs)
    S += (S.empty() ? "" : ";") + std::to_string(R);
  return S;
}

static std::vector<std::string> collectivesColumns() {
  return {"instance_id", "pg", "pg_desc", "match_key", "seq", "status",
          "coll_name", "coll_type", "dtype", "in_nelems", "out_nelems",
          "bytes", "group_size", "members", "node_span", "step",
          "first_start_us", "arrival_skew_us", "end_skew_us",
          "first_rank", "last_rank", "transfer_us", "mean_wait_us",
          "blame_us", "algbw_GBps", "busbw_GBps"};
}

/// collectives.csv's rows, one at a time into one reused row.
static void collectivesRows(ArrayRef<MatchedCollective> Cs,
                            std::optional<int64_t> GpusPerNode,
                            CsvRowSink Sink) {
  std::vector<PyValue> Row;
  for (const MatchedCollective &C : Cs) {
    Row = {pyText(instanceId(C)), pyText(C.Pg), pyText(C.PgDesc),
           pyText(matchKeyName(C.Key)), pyInt(C.Seq),
           pyText(matchStatusName(C.Status)), pyText(C.CollName),
           pyText(C.CollType), pyText(C.Dtype), pyOptInt(C.InNelems),
           pyOptInt(C.OutNelems),
           C.Bytes ? pyInt(int64_t(*C.Bytes)) : PyValue::none(),
           pyOptInt(C.GroupSize), pyText(joinRanks(C.Members)),
           pyText(nodeSpan(C, GpusPerNode)), pyOptInt(C.Step),
           pyFloat(C.FirstStart), pyFloat(C.ArrivalSkew),
           pyFloat(C.EndSkew), pyInt(C.FirstRank), pyInt(C.LastRank),
           pyFloat(C.Transfer), pyFloat(C.MeanWait), pyFloat(C.Blame),
           pyOptFloat(C.AlgBw), pyOptFloat(C.BusBw)};
    Sink(Row);
  }
}

static std::vector<std::string> collectivesLongColumns() {
  return {"instance_id", "rank", "start_us", "end_us", "dur_us",
          "wait_us", "sync_us", "transfer_us", "stream", "kernels"};
}

static void collectivesLongRows(ArrayRef<MatchedCollective> Cs,
                                CsvRowSink Sink) {
  std::vector<PyValue> Row;
  for (const MatchedCollective &C : Cs) {
    std::string Id = instanceId(C);
    for (const MatchedMember &M : C.Present) {
      // §5.1: the transfer is the shortest member's kernel; the rest of a
      // member's kernel is in-kernel synchronisation.
      Row = {pyText(Id), pyInt(M.Rank), pyFloat(M.Start),
             pyFloat(M.End), pyFloat(M.dur()), pyFloat(M.Wait),
             pyFloat(M.dur() - C.Transfer), pyFloat(C.Transfer),
             pyInt(M.Stream), pyInt(M.NumKernels)};
      Sink(Row);
    }
  }
}

CsvTable collectivesTable(ArrayRef<MatchedCollective> Cs,
                          std::optional<int64_t> GpusPerNode) {
  CsvTable Tab(collectivesColumns());
  collectivesRows(Cs, GpusPerNode,
                  [&](const std::vector<PyValue> &R) { Tab.addRow(R); });
  return Tab;
}

CsvTable collectivesLongTable(ArrayRef<MatchedCollective> Cs) {
  CsvTable Tab(collectivesLongColumns());
  collectivesLongRows(Cs, [&](const std::vector<PyValue> &R) { Tab.addRow(R); });
  return Tab;
}

Error writeCollectivesCsv(StringRef Dir, ArrayRef<MatchedCollective> Cs,
                          std::optional<int64_t> GpusPerNode) {
  return writeCsvRows(Dir, "collectives.csv", collectivesColumns(),
                      [&](CsvRowSink Sink) {
                        collectivesRows(Cs, GpusPerNode, Sink);
                      });
}

Error writeCollectivesLongCsv(StringRef Dir, ArrayRef<MatchedCollective> Cs) {
  return writeCsvRows(Dir, "collectives_long.csv", collectivesLongColumns(),
                      [&](CsvRowSink Sink) { collectivesLongRows(Cs, Sink); });
}

static std::string us(double V) { return printfDouble("%.3f", V); }

std::string collectivesMarkdown(ArrayRef<MatchedCollective> Cs) {
  if (Cs.empty())
    return "";
  std::string Text;
  raw_string_ostream OS(Text);
  std::map<std::string, unsigned> ByStatus, ByKey;
  for (const MatchedCollective &C : Cs) {
    ++ByStatus[matchStatusName(C.Status).str()];
    ++ByKey[matchKeyName(C.Key).str()];
  }
  OS << "## Collectives across ranks\n\n"
     << Cs.size() << " collective instance" << (Cs.size() == 1 ? "" : "s")
     << " matched across ranks (";
  bool First = true;
  for (auto &[K, N] : ByKey) {
    OS << (First ? "" : ", ") << N << " by " << K;
    First = false;
  }
  OS << "; ";
  First = true;
  for (auto &[S, N] : ByStatus) {
    OS << (First ? "" : ", ") << N << " " << S;
    First = false;
  }
  OS << "). Arrival skew: last start - first start; the wait of a rank: "
        "the last start - its start; transfer: the shortest member's "
        "kernel; bus bandwidth with the nccl-tests factors (GB/s = 1e9 "
        "B/s). Every instance is in `multirank/collectives.csv`, every "
        "member in `multirank/collectives_long.csv`, every family in "
        "`multirank/collective_summary.csv`";
  if (any_of(Cs, [](const MatchedCollective &C) {
        return C.CollType == "alltoallv";
      }))
    OS << "; the all_to_allv instances, per group and per (src, dst) "
          "pair in `multirank/all2allv.csv`, `all2allv_summary.csv` and "
          "`all2allv_heatmap.csv`";
  OS << ".\n\n";

  // Families of complete instances, by total transfer time.
  struct Family {
    std::string Type, Name, Dtype, Pg;
    std::optional<double> Bytes;
    std::vector<double> Transfer, BusBw, Skew;
    double Blame = 0;
  };
  std::map<std::tuple<std::string, std::string, std::string, double,
                      std::string>,
           Family>
      Fam;
  for (const MatchedCollective &C : Cs) {
    if (C.Status != MatchStatus::Ok)
      continue;
    Family &F = Fam[{C.CollType, C.CollName, C.Dtype, C.Bytes.value_or(-1),
                     C.Pg}];
    F.Type = C.CollType;
    F.Name = C.CollName;
    F.Dtype = C.Dtype;
    F.Pg = C.Pg;
    F.Bytes = C.Bytes;
    F.Transfer.push_back(C.Transfer);
    if (C.BusBw)
      F.BusBw.push_back(*C.BusBw);
    F.Skew.push_back(C.ArrivalSkew);
    F.Blame += C.Blame;
  }
  std::vector<const Family *> Order;
  for (auto &[K, F] : Fam)
    Order.push_back(&F);
  auto Sum = [](ArrayRef<double> V) {
    double S = 0;
    for (double X : V)
      S += X;
    return S;
  };
  llvm::stable_sort(Order, [&](const Family *A, const Family *B) {
    return Sum(A->Transfer) > Sum(B->Transfer);
  });
  if (!Order.empty()) {
    OS << "| collective | name | dtype | bytes | group | count | transfer "
          "median us | busbw median GB/s | arrival skew mean us | wait "
          "caused us |\n|---|---|---|---:|---|---:|---:|---:|---:|---:|\n";
    for (size_t I = 0; I < Order.size() && I < 10; ++I) {
      const Family &F = *Order[I];
      OS << "| " << F.Type << " | " << mdCode(F.Name, /*InTable=*/true)
         << " | " << F.Dtype << " | "
         << (F.Bytes ? std::to_string(int64_t(*F.Bytes)) : std::string())
         << " | " << mdCode(F.Pg, /*InTable=*/true) << " | "
         << F.Transfer.size() << " | " << us(numpyMedian(F.Transfer))
         << " | "
         << (F.BusBw.empty() ? std::string()
                             : printfDouble("%.3f", numpyMedian(F.BusBw)))
         << " | " << us(Sum(F.Skew) / double(F.Skew.size())) << " | "
         << us(F.Blame) << " |\n";
    }
    OS << "\n";
  }

  // The instances that made the job wait most.
  std::vector<const MatchedCollective *> Worst;
  for (const MatchedCollective &C : Cs)
    if (C.Status == MatchStatus::Ok && C.Present.size() > 1)
      Worst.push_back(&C);
  llvm::stable_sort(Worst, [](const MatchedCollective *A,
                              const MatchedCollective *B) {
    return A->ArrivalSkew > B->ArrivalSkew;
  });
  if (!Worst.empty()) {
    OS << "Largest arrival skews:\n\n| instance | collective | step | "
          "first start us | arrival skew us | last rank | first rank | "
          "mean wait us | transfer us | busbw GB/s |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (size_t I = 0; I < Worst.size() && I < 5; ++I) {
      const MatchedCollective &C = *Worst[I];
      OS << "| " << mdCode(instanceId(C), /*InTable=*/true) << " | "
         << C.CollType << " | "
         << (C.Step ? std::to_string(*C.Step) : std::string()) << " | "
         << us(C.FirstStart) << " | " << us(C.ArrivalSkew) << " | "
         << C.LastRank << " | " << C.FirstRank << " | " << us(C.MeanWait)
         << " | " << us(C.Transfer) << " | "
         << (C.BusBw ? printfDouble("%.3f", *C.BusBw) : std::string())
         << " |\n";
    }
    OS << "\n";
  }
  unsigned Bad = 0;
  for (const MatchedCollective &C : Cs)
    Bad += C.Status != MatchStatus::Ok;
  if (Bad)
    OS << Bad << " instance" << (Bad == 1 ? " is" : "s are")
       << " incomplete, mismatched or unaligned (the `status` column): "
          "left out of the skew and bandwidth statistics.\n\n";
  return Text;
}

} // namespace tl
