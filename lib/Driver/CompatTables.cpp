//===- CompatTables.cpp - The job's TraceLens-compatible tables -----------===//
//
// Spec multi-rank.md §7.1 (compat/), §5.2 (straggler_summary), §5.4
// (TraceLens's GiB/MiB bandwidth) and Appendix B 8-11. Numbers are typed
// as pandas types them: ts and dur are int64 columns when every value is
// integral, so what is derived from them by max/min/sum stays int, means
// and bandwidths are floats, and a column with a missing value is float.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/CompatTables.h"

#include "tl/Analysis/CollectiveInstances.h"
#include "tl/Driver/RankTable.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>
#include <map>
#include <tuple>

using namespace llvm;

namespace tl {

static constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

/// TraceLens's bytes per element: it knows these nine dtypes only.
static unsigned tracelensDtypeBytes(StringRef Dtype) {
  return StringSwitch<unsigned>(Dtype)
      .Cases("Float", "Int", 4)
      .Cases("Long", "Double", 8)
      .Cases("BFloat16", "Half", "Short", 2)
      .Cases("Char", "Byte", 1)
      .Default(0);
}

/// "In msg size (MB)": MiB, NaN when the size is unknown.
static double mib(OptionalInt Nelems, StringRef Dtype) {
  unsigned B = tracelensDtypeBytes(Dtype);
  if (!Nelems || !B)
    return NaN;
  return double(*Nelems) * B / (1024.0 * 1024.0);
}

/// Python's str() of a list of ints, as PyTorch records the lists.
static std::string listText(ArrayRef<int64_t> V) {
  std::string S = "[";
  for (size_t I = 0; I < V.size(); ++I)
    S += (I ? ", " : "") + std::to_string(V[I]);
  return S + "]";
}

static bool integral(double V) {
  return std::isfinite(V) && V == std::floor(V);
}

/// A value of a column pandas holds as int64 when Int, else as float64.
static PyValue num(double V, bool Int) {
  if (std::isnan(V))
    return PyValue::none();
  return Int ? pyInt(int64_t(V)) : pyFloat(V);
}
static PyValue real(double V) { return num(V, /*Int=*/false); }
static PyValue optInt(OptionalInt V) { return V ? pyInt(*V) : PyValue::none(); }
static PyValue optText(StringRef S) {
  return S.empty() ? PyValue::none() : pyText(S);
}

TraceLensCompat collectTraceLensCompat(ArrayRef<RankSummary> Ranks) {
  TraceLensCompat C;
  const RankSummary *First = nullptr;
  for (const RankSummary &R : Ranks) {
    if (!First || R.Claim.Position < First->Claim.Position)
      First = &R;
    std::map<StringRef, int64_t> Next;
    std::map<StringRef, SharedName> RanksText;
    for (const CollectiveInstance &I : R.Collectives.Instances) {
      // TraceLens reads the metadata off the kernel: without a group and a
      // name (kernels before the trace's first record_param_comms) the
      // call has no collective_id.
      if (I.Pg.empty() || I.CollName.empty())
        continue;
      CompatCall Call;
      Call.Rank = R.Claim.Rank;
      Call.IndexInGroup = Next[I.Pg.ref()]++;
      Call.Pg = I.Pg;
      Call.CollName = I.CollName;
      Call.Dtype = I.Dtype;
      auto [It, New] = RanksText.try_emplace(I.Pg.ref());
      if (New)
        if (auto G = R.Collectives.PgRanks.find(I.Pg.str());
            G != R.Collectives.PgRanks.end())
          It->second = SharedName(listText(G->second));
      Call.PgRanks = It->second;
      Call.InNelems = I.InNelems;
      Call.OutNelems = I.OutNelems;
      Call.GroupSize = I.GroupSize;
      Call.InSplit = I.InSplit;
      Call.OutSplit = I.OutSplit;
      Call.Stream = I.Stream;
      Call.Ts = I.Start;
      Call.Dur = I.dur();
      C.IntTs &= integral(Call.Ts);
      C.IntDur &= integral(Call.Dur);
      C.Calls.push_back(std::move(Call));
    }
  }
  // Appendix B 11: the first file's deviceProperties, whatever the others.
  if (First && First->DeviceCount > 0)
    C.GpusPerNode = int64_t(First->DeviceCount);
  return C;
}

namespace {
using CallKey = std::pair<StringRef, int64_t>; // (pg, index in group)

/// One row of nccl_implicit_sync.csv.
struct SyncRow {
  /// Into TraceLensCompat::Calls, rank order.
  std::vector<size_t> Calls;
  std::vector<double> Waits; // same order
  double MinTs = 0, MaxTs = 0, MinEnd = 0, MaxEnd = 0, Latency = 0;
  double AvgWait = 0;
  int64_t EarliestRank = 0;
  /// The member with the smallest wait, the first wait column on ties.
  int64_t LastRank = 0;
  double InMb = NaN, OutMb = NaN, FullMb = NaN, AlgBw = NaN, BusBw = NaN;
};

enum class RankCol { Ts, Dur, Wait };

struct SyncTable {
  std::vector<SyncRow> Rows;
  /// The per-rank columns in pandas' order (first appearance).
  std::vector<std::pair<int64_t, RankCol>> Columns;
  /// Ranks in the order of their wait columns.
  std::vector<int64_t> Ranks;
};
} // namespace

/// TraceLens's four implicit-sync types (§5.1).
static bool isImplicitSync(StringRef CollName) {
  std::string T = collectiveType(CollName, "");
  return T == "allreduce" || T == "allgather" || T == "reducescatter" ||
         T == "alltoall";
}

static SyncTable syncTable(const TraceLensCompat &C) {
  SyncTable T;
  std::map<CallKey, size_t> RowOf;
  for (size_t I = 0; I < C.Calls.size(); ++I) {
    const CompatCall &Call = C.Calls[I];
    if (!isImplicitSync(Call.CollName))
      continue;
    auto [It, New] =
        RowOf.try_emplace({Call.Pg.ref(), Call.IndexInGroup}, T.Rows.size());
    if (New)
      T.Rows.emplace_back();
    T.Rows[It->second].Calls.push_back(I);
  }
  std::map<int64_t, size_t> WaitPos;
  for (SyncRow &R : T.Rows) {
    std::vector<int64_t> Fresh;
    for (size_t I : R.Calls)
      if (WaitPos.try_emplace(C.Calls[I].Rank, T.Ranks.size()).second) {
        T.Ranks.push_back(C.Calls[I].Rank);
        Fresh.push_back(C.Calls[I].Rank);
      }
    for (int64_t Rank : Fresh) {
      T.Columns.push_back({Rank, RankCol::Ts});
      T.Columns.push_back({Rank, RankCol::Dur});
    }
    for (int64_t Rank : Fresh)
      T.Columns.push_back({Rank, RankCol::Wait});

    const CompatCall &F = C.Calls[R.Calls.front()];
    R.MinTs = R.MaxTs = F.Ts;
    R.MinEnd = R.MaxEnd = F.Ts + F.Dur;
    R.Latency = F.Dur;
    for (size_t I : R.Calls) {
      const CompatCall &M = C.Calls[I];
      R.MinTs = std::min(R.MinTs, M.Ts);
      R.MaxTs = std::max(R.MaxTs, M.Ts);
      R.MinEnd = std::min(R.MinEnd, M.Ts + M.Dur);
      R.MaxEnd = std::max(R.MaxEnd, M.Ts + M.Dur);
      R.Latency = std::min(R.Latency, M.Dur);
    }
    std::optional<std::pair<double, int64_t>> Earliest;
    std::optional<std::pair<double, size_t>> Last;
    for (size_t I : R.Calls) {
      const CompatCall &M = C.Calls[I];
      double W = R.MaxTs - M.Ts;
      R.Waits.push_back(W);
      // Ties: the highest rank (a max over (wait, rank) pairs).
      if (!Earliest || std::pair(W, M.Rank) > *Earliest)
        Earliest = {W, M.Rank};
      size_t Pos = WaitPos[M.Rank];
      if (!Last || W < Last->first || (W == Last->first && Pos < Last->second))
        Last = {W, Pos};
    }
    R.AvgWait = numpyMean(R.Waits);
    R.EarliestRank = Earliest->second;
    R.LastRank = T.Ranks[Last->second];
    // The metadata of the first member (the lowest rank).
    R.InMb = mib(F.InNelems, F.Dtype);
    R.OutMb = mib(F.OutNelems, F.Dtype);
    std::string Type = collectiveType(F.CollName, "");
    R.FullMb = Type == "allgather" ? R.OutMb : R.InMb;
    if (R.Latency > 0 && !std::isnan(R.FullMb)) {
      R.AlgBw = (R.FullMb / 1024) / (R.Latency / 1e6);
      if (F.GroupSize && *F.GroupSize > 0) {
        double N = double(*F.GroupSize);
        R.BusBw =
            R.AlgBw * (Type == "allreduce" ? 2 * (N - 1) / N : (N - 1) / N);
      }
    }
  }
  return T;
}

static std::string callId(const CompatCall &Call) {
  return Call.Pg.str() + "_" + std::to_string(Call.IndexInGroup);
}

/// "intra_node" when every rank is on one node (rank / GpusPerNode).
static StringRef span(const TraceLensCompat &C, ArrayRef<size_t> Calls) {
  int64_t G = *C.GpusPerNode;
  for (size_t I : Calls)
    if (C.Calls[I].Rank / G != C.Calls[Calls.front()].Rank / G)
      return "inter_node";
  return "intra_node";
}

Error writeNcclLongCsv(StringRef Dir, StringRef Name,
                       const TraceLensCompat &C) {
  std::vector<std::string> Columns = {"collective_id",
                                      "index_in_group",
                                      "rank",
                                      "Process Group Name",
                                      "Process Group Ranks",
                                      "Collective name",
                                      "Group size",
                                      "dtype",
                                      "In msg nelems",
                                      "In msg size (MB)",
                                      "Out msg nelems",
                                      "Out msg size (MB)",
                                      "In split size",
                                      "Out split size",
                                      "stream",
                                      "ts",
                                      "dur"};
  // node_span of a collective_id: over every rank's call of it.
  std::map<CallKey, std::vector<size_t>> ById;
  if (C.GpusPerNode) {
    Columns.push_back("node_id");
    Columns.push_back("node_span");
    for (size_t I = 0; I < C.Calls.size(); ++I)
      ById[{C.Calls[I].Pg.ref(), C.Calls[I].IndexInGroup}].push_back(I);
  }
  return writeCsvRows(Dir, Name, Columns, [&](CsvRowSink Sink) {
    std::vector<PyValue> Row;
    for (const CompatCall &Call : C.Calls) {
      Row = {pyText(callId(Call)),
             pyInt(Call.IndexInGroup),
             pyInt(Call.Rank),
             pyText(Call.Pg),
             optText(Call.PgRanks),
             pyText(Call.CollName),
             optInt(Call.GroupSize),
             optText(Call.Dtype),
             optInt(Call.InNelems),
             real(mib(Call.InNelems, Call.Dtype)),
             optInt(Call.OutNelems),
             real(mib(Call.OutNelems, Call.Dtype)),
             pyText(listText(Call.InSplit)),
             pyText(listText(Call.OutSplit)),
             Call.Stream >= 0 ? pyInt(Call.Stream) : PyValue::none(),
             num(Call.Ts, C.IntTs),
             num(Call.Dur, C.IntDur)};
      if (C.GpusPerNode) {
        Row.push_back(pyInt(Call.Rank / *C.GpusPerNode));
        Row.push_back(
            pyText(span(C, ById[{Call.Pg.ref(), Call.IndexInGroup}])));
      }
      Sink(Row);
    }
  });
}

Error writeNcclImplicitSyncCsv(StringRef Dir, StringRef Name,
                               const TraceLensCompat &C) {
  SyncTable T = syncTable(C);
  std::vector<std::string> Columns = {
      "collective_id",       "Process Group Name",
      "Process Group Ranks", "Collective name",
      "Group size",          "dtype",
      "In msg nelems",       "Out msg nelems",
      "In msg size (MB)",    "Out msg size (MB)",
      "Full msg size (MB)",  "comm_latency",
      "skew in start time",  "earliest arrival rank",
      "avg_wait_time",       "skew in end time",
      "algo bw (GB/s)",      "bus bw (GB/s)"};
  std::map<int64_t, size_t> RankIndex; // into T.Ranks
  for (size_t I = 0; I < T.Ranks.size(); ++I)
    RankIndex[T.Ranks[I]] = I;
  for (auto [Rank, Kind] : T.Columns)
    Columns.push_back("rank_" + std::to_string(Rank) +
                      (Kind == RankCol::Ts    ? "_ts"
                       : Kind == RankCol::Dur ? "_dur"
                                              : "_wait_time"));
  if (C.GpusPerNode)
    Columns.push_back("node_span");
  bool IntEnd = C.IntTs && C.IntDur;
  return writeCsvRows(Dir, Name, Columns, [&](CsvRowSink Sink) {
    std::vector<PyValue> Row;
    // Per rank of T.Ranks: the member's call and wait in this row.
    std::vector<const CompatCall *> Of(T.Ranks.size());
    std::vector<double> WaitOf(T.Ranks.size());
    for (const SyncRow &R : T.Rows) {
      const CompatCall &F = C.Calls[R.Calls.front()];
      Row = {pyText(callId(F)),
             pyText(F.Pg),
             optText(F.PgRanks),
             pyText(F.CollName),
             optInt(F.GroupSize),
             optText(F.Dtype),
             optInt(F.InNelems),
             optInt(F.OutNelems),
             real(R.InMb),
             real(R.OutMb),
             real(R.FullMb),
             num(R.Latency, C.IntDur),
             num(R.MaxTs - R.MinTs, C.IntTs),
             pyInt(R.EarliestRank),
             real(R.AvgWait),
             num(R.MaxEnd - R.MinEnd, IntEnd),
             real(R.AlgBw),
             real(R.BusBw)};
      std::fill(Of.begin(), Of.end(), nullptr);
      for (size_t K = 0; K < R.Calls.size(); ++K) {
        size_t I = RankIndex[C.Calls[R.Calls[K]].Rank];
        Of[I] = &C.Calls[R.Calls[K]];
        WaitOf[I] = R.Waits[K];
      }
      for (auto [Rank, Kind] : T.Columns) {
        size_t I = RankIndex[Rank];
        if (!Of[I])
          Row.push_back(PyValue::none());
        else if (Kind == RankCol::Ts)
          Row.push_back(num(Of[I]->Ts, C.IntTs));
        else if (Kind == RankCol::Dur)
          Row.push_back(num(Of[I]->Dur, C.IntDur));
        else
          Row.push_back(num(WaitOf[I], C.IntTs));
      }
      if (C.GpusPerNode)
        Row.push_back(pyText(span(C, R.Calls)));
      Sink(Row);
    }
  });
}

/// min / max skipping NaN; NaN when nothing is left (pandas groupby).
static double nanMin(ArrayRef<double> V) {
  double M = NaN;
  for (double X : V)
    if (!std::isnan(X) && (std::isnan(M) || X < M))
      M = X;
  return M;
}
static double nanMax(ArrayRef<double> V) {
  double M = NaN;
  for (double X : V)
    if (!std::isnan(X) && (std::isnan(M) || X > M))
      M = X;
  return M;
}
/// groupby "first": the first non-NaN value.
static double nanFirst(ArrayRef<double> V) {
  for (double X : V)
    if (!std::isnan(X))
      return X;
  return NaN;
}

CsvTable ncclSummaryImplicitSyncTable(const TraceLensCompat &C) {
  SyncTable T = syncTable(C);
  using Key = std::tuple<std::string, std::string, int64_t>;
  struct Group {
    const SyncRow *First = nullptr;
    // comm_latency, skew in start time, skew in end time, algo bw, bus bw
    std::vector<double> Values[5];
  };
  // groupby's sorted keys; rows with a missing key are dropped.
  std::map<Key, Group> Groups;
  for (const SyncRow &R : T.Rows) {
    const CompatCall &F = C.Calls[R.Calls.front()];
    if (F.Dtype.empty() || !F.InNelems)
      continue;
    Group &G = Groups[{F.CollName.str(), F.Dtype.str(), *F.InNelems}];
    if (!G.First)
      G.First = &R;
    double V[5] = {R.Latency, R.MaxTs - R.MinTs, R.MaxEnd - R.MinEnd, R.AlgBw,
                   R.BusBw};
    for (unsigned I = 0; I < 5; ++I)
      G.Values[I].push_back(V[I]);
  }
  std::vector<std::string> Columns = {"Collective name", "dtype",
                                      "In msg nelems",   "Process Group Name",
                                      "Group size",      "Full msg size (MB)"};
  static constexpr const char *Metrics[] = {
      "comm_latency", "skew in start time", "skew in end time",
      "algo bw (GB/s)", "bus bw (GB/s)"};
  for (const char *M : Metrics)
    for (const char *A : {"mean", "median", "min", "max"})
      Columns.push_back(std::string(M) + "_" + A);
  Columns.push_back("count");
  Columns.push_back("Total comm latency (ms)");
  // min / max keep an int64 column's type.
  bool Int[5] = {C.IntDur, C.IntTs, C.IntTs && C.IntDur, false, false};
  std::vector<std::vector<PyValue>> Rows;
  std::vector<double> Totals;
  for (const auto &[K, G] : Groups) {
    const CompatCall &F = C.Calls[G.First->Calls.front()];
    std::vector<PyValue> Row = {pyText(std::get<0>(K)), pyText(std::get<1>(K)),
                                pyInt(std::get<2>(K)),  pyText(F.Pg),
                                optInt(F.GroupSize),    real(G.First->FullMb)};
    for (unsigned I = 0; I < 5; ++I) {
      Row.push_back(real(pandasGroupMean(G.Values[I])));
      Row.push_back(real(pandasGroupMedian(G.Values[I])));
      Row.push_back(num(nanMin(G.Values[I]), Int[I]));
      Row.push_back(num(nanMax(G.Values[I]), Int[I]));
    }
    Row.push_back(pyInt(int64_t(G.Values[0].size())));
    Totals.push_back(pandasGroupSum(G.Values[0]) / 1000);
    Row.push_back(real(Totals.back()));
    Rows.push_back(std::move(Row));
  }
  CsvTable Out(std::move(Columns));
  for (size_t I : pandasSortValuesOrder(Totals, /*Ascending=*/false))
    Out.addRow(std::move(Rows[I]));
  return Out;
}

CsvTable ncclSummaryLongTable(const TraceLensCompat &C) {
  using Key = std::tuple<int64_t, std::string, std::string, std::string,
                         int64_t, std::string, int64_t, int64_t, std::string,
                         std::string, int64_t>;
  struct Group {
    std::vector<double> InMb, OutMb, Dur;
  };
  std::map<Key, Group> Groups;
  for (const CompatCall &Call : C.Calls) {
    // groupby drops the rows with a NaN key.
    if (Call.PgRanks.empty() || !Call.GroupSize || Call.Dtype.empty() ||
        !Call.InNelems || !Call.OutNelems || Call.Stream < 0)
      continue;
    Group &G = Groups[{Call.Rank, Call.Pg.str(), Call.PgRanks.str(),
                       Call.CollName.str(), *Call.GroupSize, Call.Dtype.str(),
                       *Call.InNelems, *Call.OutNelems, listText(Call.InSplit),
                       listText(Call.OutSplit), Call.Stream}];
    G.InMb.push_back(mib(Call.InNelems, Call.Dtype));
    G.OutMb.push_back(mib(Call.OutNelems, Call.Dtype));
    G.Dur.push_back(Call.Dur);
  }
  CsvTable Out({"rank", "Process Group Name", "Process Group Ranks",
                "Collective name", "Group size", "dtype", "In msg nelems",
                "Out msg nelems", "In split size", "Out split size", "stream",
                "In msg size (MB)_first", "Out msg size (MB)_first", "dur_sum",
                "dur_mean", "dur_std", "dur_min", "dur_max",
                "operation_count"});
  std::vector<std::vector<PyValue>> Rows;
  std::vector<double> Sums;
  for (const auto &[K, G] : Groups) {
    Sums.push_back(pandasGroupSum(G.Dur));
    Rows.push_back(
        {pyInt(std::get<0>(K)), pyText(std::get<1>(K)), pyText(std::get<2>(K)),
         pyText(std::get<3>(K)), pyInt(std::get<4>(K)), pyText(std::get<5>(K)),
         pyInt(std::get<6>(K)), pyInt(std::get<7>(K)), pyText(std::get<8>(K)),
         pyText(std::get<9>(K)), pyInt(std::get<10>(K)), real(nanFirst(G.InMb)),
         real(nanFirst(G.OutMb)), num(Sums.back(), C.IntDur),
         real(pandasGroupMean(G.Dur)), real(pandasGroupStd(G.Dur)),
         num(nanMin(G.Dur), C.IntDur), num(nanMax(G.Dur), C.IntDur),
         pyInt(int64_t(G.Dur.size()))});
  }
  for (size_t I : pandasSortValuesOrder(Sums, /*Ascending=*/false))
    Out.addRow(std::move(Rows[I]));
  return Out;
}

CsvTable compatStragglerTable(const TraceLensCompat &C) {
  SyncTable T = syncTable(C);
  std::vector<std::string> Columns = {"rank",
                                      "total_wait_time_us",
                                      "mean_wait_time_us",
                                      "times_arrived_last",
                                      "times_arrived_first",
                                      "pct_arrived_last",
                                      "num_collectives",
                                      "total_nccl_dur_us"};
  if (C.GpusPerNode)
    Columns.push_back("node_id");
  std::map<int64_t, size_t> Pos;
  for (size_t I = 0; I < T.Ranks.size(); ++I)
    Pos[T.Ranks[I]] = I;
  size_t N = T.Rows.size();
  // A rank's wait column, NaN filled with 0 as pandas' nansum does.
  std::vector<std::vector<double>> Waits(T.Ranks.size(),
                                         std::vector<double>(N, 0));
  std::vector<size_t> Present(T.Ranks.size()), Last(T.Ranks.size()),
      First(T.Ranks.size());
  for (size_t R = 0; R < N; ++R) {
    const SyncRow &Row = T.Rows[R];
    for (size_t K = 0; K < Row.Calls.size(); ++K) {
      size_t I = Pos[C.Calls[Row.Calls[K]].Rank];
      Waits[I][R] = Row.Waits[K];
      ++Present[I];
    }
    ++Last[Pos[Row.LastRank]];
    ++First[Pos[Row.EarliestRank]];
  }
  std::map<int64_t, std::vector<double>> Durs;
  for (const CompatCall &Call : C.Calls)
    Durs[Call.Rank].push_back(Call.Dur);
  std::vector<std::vector<PyValue>> Rows;
  std::vector<double> Totals;
  for (size_t I = 0; I < T.Ranks.size(); ++I) {
    int64_t Rank = T.Ranks[I];
    double Total = numpyRound(numpySum(Waits[I]), 1);
    Totals.push_back(Total);
    // A wait column without NaN keeps the int64 of ts.
    bool IntWait = C.IntTs && Present[I] == N;
    std::vector<PyValue> Row = {
        pyInt(Rank), num(Total, IntWait),
        real(numpyRound(numpySum(Waits[I]) / double(Present[I]), 1)),
        pyInt(int64_t(Last[I])), pyInt(int64_t(First[I])),
        // Over every instance, the rank's or not (Appendix B 8).
        real(numpyRound(100.0 * double(Last[I]) / double(N), 1)),
        pyInt(int64_t(N)),
        num(numpyRound(pandasGroupSum(Durs[Rank]), 1), C.IntDur)};
    if (C.GpusPerNode)
      Row.push_back(pyInt(Rank / *C.GpusPerNode));
    Rows.push_back(std::move(Row));
  }
  CsvTable Out(std::move(Columns));
  for (size_t I : pandasSortValuesOrder(Totals, /*Ascending=*/true))
    Out.addRow(std::move(Rows[I]));
  return Out;
}

} // namespace tl
