//===- AllToAllv.cpp - The job's all_to_allv tables -----------------------===//
#include "tl/Driver/AllToAllv.h"

#include "tl/Driver/CollectiveTables.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace tl {

static bool isAllToAllv(const MatchedCollective &C) {
  return C.CollType == "alltoallv";
}

bool hasAllToAllv(ArrayRef<MatchedCollective> Cs) {
  return any_of(Cs, isAllToAllv);
}

/// TraceLens's "MB": MiB.
static constexpr double MiB = 1024.0 * 1024.0;

/// A member's send buffer in MiB, nullopt for an unknown dtype or size.
static std::optional<double> sentMiB(const MatchedCollective &C,
                                     const MatchedMember &M) {
  unsigned B = collectiveDtypeBytes(C.Dtype);
  std::optional<int64_t> N = sentElements(M);
  if (!B || !N)
    return std::nullopt;
  return double(*N) * B / MiB;
}

static std::string rankListText(ArrayRef<int64_t> Rs) {
  std::string S = "[";
  for (size_t I = 0; I < Rs.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Rs[I]);
  return S + "]";
}

namespace {
/// §5.5's figures of one complete instance (µs, MiB, GiB/s).
struct Row {
  const MatchedCollective *C;
  double MinStart, MaxEnd, WallTime, MaxDur, MinDur, AvgDur;
  std::optional<double> TotalMiB, Throughput, Imbalance, MaxRankTp,
      MinRankTp;
  std::vector<std::optional<double>> MemberMiB; // Present order
};
} // namespace

static Row measureRow(const MatchedCollective &C) {
  Row R{&C, 0, 0, 0, 0, 0, 0, {}, {}, {}, {}, {}, {}};
  const std::vector<MatchedMember> &P = C.Present;
  R.MinStart = P[0].Start;
  R.MaxEnd = P[0].End;
  R.MaxDur = R.MinDur = P[0].dur();
  double DurSum = 0;
  bool AllSizes = true;
  double Sum = 0, Max = 0;
  for (const MatchedMember &M : P) {
    R.MinStart = std::min(R.MinStart, M.Start);
    R.MaxEnd = std::max(R.MaxEnd, M.End);
    R.MaxDur = std::max(R.MaxDur, M.dur());
    R.MinDur = std::min(R.MinDur, M.dur());
    DurSum += M.dur();
    std::optional<double> Mb = sentMiB(C, M);
    R.MemberMiB.push_back(Mb);
    if (!Mb) {
      AllSizes = false;
      continue;
    }
    Sum += *Mb;
    Max = std::max(Max, *Mb);
    if (M.dur() > 0) {
      // Per rank: In MiB / 1024 / (dur / 1e6).
      double Tp = *Mb / 1024 / (M.dur() / 1e6);
      R.MaxRankTp = std::max(R.MaxRankTp.value_or(Tp), Tp);
      R.MinRankTp = std::min(R.MinRankTp.value_or(Tp), Tp);
    }
  }
  R.WallTime = R.MaxEnd - R.MinStart;
  R.AvgDur = DurSum / double(P.size());
  if (AllSizes) {
    R.TotalMiB = Sum;
    if (R.WallTime > 0)
      R.Throughput = Sum / 1024 / (R.WallTime / 1e6);
    double Mean = Sum / double(P.size());
    if (Mean > 0)
      R.Imbalance = Max / Mean;
  }
  return R;
}

static std::vector<Row> completeRows(ArrayRef<MatchedCollective> Cs) {
  std::vector<Row> Rows;
  for (const MatchedCollective &C : Cs)
    if (isAllToAllv(C) && C.Status == MatchStatus::Ok && !C.Present.empty())
      Rows.push_back(measureRow(C));
  return Rows;
}

CsvTable allToAllvTable(ArrayRef<MatchedCollective> Cs) {
  std::vector<Row> Rows = completeRows(Cs);
  std::set<int64_t> Ranks;
  for (const Row &R : Rows)
    for (const MatchedMember &M : R.C->Present)
      Ranks.insert(M.Rank);
  std::vector<std::string> Cols = {
      "collective_id", "Process Group Name", "Process Group Ranks",
      "Collective name", "Group size", "dtype",
      "total data communicated (MB)", "wall_time", "throughput (GB/s)",
      "size_imbalance", "max_dur", "min_dur", "avg_dur",
      "max_rank_throughput (GB/s)", "min_rank_throughput (GB/s)",
      "skew in start time", "skew in end time"};
  for (int64_t Rk : Ranks)
    for (StringRef Suffix : {"ts", "dur", "In msg size (MB)",
                             "skew in start time", "skew in end time"})
      Cols.push_back("rank_" + std::to_string(Rk) + "_" + Suffix.str());
  CsvTable Tab(std::move(Cols));
  for (const Row &R : Rows) {
    const MatchedCollective &C = *R.C;
    std::vector<PyValue> V = {
        pyText(instanceId(C)),
        pyText(C.Pg),
        pyText(rankListText(C.GroupRanks.empty() ? C.Members : C.GroupRanks)),
        pyText(C.CollName),
        pyOptInt(C.GroupSize),
        pyText(C.Dtype),
        pyOptFloat(R.TotalMiB),
        pyFloat(R.WallTime),
        pyOptFloat(R.Throughput),
        pyOptFloat(R.Imbalance),
        pyFloat(R.MaxDur),
        pyFloat(R.MinDur),
        pyFloat(R.AvgDur),
        pyOptFloat(R.MaxRankTp),
        pyOptFloat(R.MinRankTp),
        pyFloat(C.ArrivalSkew),
        pyFloat(C.EndSkew)};
    for (int64_t Rk : Ranks) {
      auto It = find_if(C.Present,
                        [&](const MatchedMember &M) { return M.Rank == Rk; });
      if (It == C.Present.end()) {
        V.insert(V.end(), 5, PyValue::none());
        continue;
      }
      // skew in start time = start - min start; in end time = max end - end.
      V.push_back(pyFloat(It->Start));
      V.push_back(pyFloat(It->dur()));
      V.push_back(pyOptFloat(R.MemberMiB[size_t(It - C.Present.begin())]));
      V.push_back(pyFloat(It->Start - R.MinStart));
      V.push_back(pyFloat(R.MaxEnd - It->End));
    }
    Tab.addRow(std::move(V));
  }
  return Tab;
}

CsvTable allToAllvSummaryTable(ArrayRef<MatchedCollective> Cs) {
  struct Agg {
    std::string Pg, Dtype;
    std::optional<int64_t> GroupSize;
    std::vector<double> Wall, Tp, Imb, SkewStart, SkewEnd, Mb;
  };
  std::map<std::pair<std::string, std::string>, Agg> Groups;
  for (const Row &R : completeRows(Cs)) {
    Agg &A = Groups[{R.C->Pg, R.C->Dtype}];
    A.Pg = R.C->Pg;
    A.Dtype = R.C->Dtype;
    if (!A.GroupSize)
      A.GroupSize = R.C->GroupSize;
    A.Wall.push_back(R.WallTime);
    if (R.Throughput)
      A.Tp.push_back(*R.Throughput);
    if (R.Imbalance)
      A.Imb.push_back(*R.Imbalance);
    if (R.TotalMiB)
      A.Mb.push_back(*R.TotalMiB);
    A.SkewStart.push_back(R.C->ArrivalSkew);
    A.SkewEnd.push_back(R.C->EndSkew);
  }
  auto Sum = [](ArrayRef<double> V) {
    double S = 0;
    for (double X : V)
      S += X;
    return S;
  };
  auto Mean = [&](ArrayRef<double> V) {
    return V.empty() ? PyValue::none() : pyFloat(Sum(V) / double(V.size()));
  };
  auto Median = [](ArrayRef<double> V) {
    return V.empty() ? PyValue::none() : pyFloat(numpyMedian(V));
  };
  auto Min = [](ArrayRef<double> V) {
    return V.empty() ? PyValue::none() : pyFloat(*llvm::min_element(V));
  };
  auto Max = [](ArrayRef<double> V) {
    return V.empty() ? PyValue::none() : pyFloat(*llvm::max_element(V));
  };
  std::vector<const Agg *> Order;
  for (auto &[K, A] : Groups)
    Order.push_back(&A);
  // Total wall time descending, then (group, dtype).
  llvm::stable_sort(Order, [&](const Agg *A, const Agg *B) {
    return Sum(A->Wall) > Sum(B->Wall);
  });
  CsvTable Tab(
      {"Process Group Name", "dtype", "Group size", "count",
       "total data communicated (MB)_mean", "total data communicated (MB)_sum",
       "wall_time_mean", "wall_time_median", "wall_time_min", "wall_time_max",
       "throughput (GB/s)_mean", "throughput (GB/s)_median",
       "throughput (GB/s)_min", "throughput (GB/s)_max", "size_imbalance_mean",
       "size_imbalance_max", "skew in start time_mean",
       "skew in end time_mean", "Total wall time (ms)"});
  for (const Agg *A : Order)
    Tab.addRow({pyText(A->Pg), pyText(A->Dtype), pyOptInt(A->GroupSize),
                pyInt(int64_t(A->Wall.size())), Mean(A->Mb),
                A->Mb.empty() ? PyValue::none() : pyFloat(Sum(A->Mb)),
                Mean(A->Wall), Median(A->Wall), Min(A->Wall), Max(A->Wall),
                Mean(A->Tp), Median(A->Tp), Min(A->Tp), Max(A->Tp),
                Mean(A->Imb), Max(A->Imb), Mean(A->SkewStart),
                Mean(A->SkewEnd), pyFloat(Sum(A->Wall) / 1000)});
  return Tab;
}

CsvTable allToAllvHeatmapTable(ArrayRef<MatchedCollective> Cs) {
  // (src, dst) -> (MiB sent, instances).
  std::map<std::pair<int64_t, int64_t>, std::pair<double, unsigned>> Cells;
  for (const MatchedCollective &C : Cs) {
    unsigned B = collectiveDtypeBytes(C.Dtype);
    if (!isAllToAllv(C) || !B)
      continue;
    // In split size[j] goes to the group's j-th rank.
    ArrayRef<int64_t> Peers = C.GroupRanks.empty() ? C.Members : C.GroupRanks;
    for (const MatchedMember &M : C.Present) {
      if (M.InSplit.size() != Peers.size())
        continue;
      for (size_t J = 0; J < Peers.size(); ++J) {
        auto &[Mb, N] = Cells[{M.Rank, Peers[J]}];
        Mb += double(M.InSplit[J]) * B / MiB;
        ++N;
      }
    }
  }
  CsvTable Tab({"src", "dst", "total_sent_MB", "avg_sent_MB", "count"});
  for (auto &[Key, Cell] : Cells)
    Tab.addRow({pyInt(Key.first), pyInt(Key.second), pyFloat(Cell.first),
                pyFloat(Cell.first / Cell.second), pyInt(Cell.second)});
  return Tab;
}

} // namespace tl
