//===- RankTimeline.cpp - Per-rank temporal breakdown of a job ------------===//
#include "tl/Driver/RankTimeline.h"

#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/StepSelection.h"
#include "tl/Driver/RankTable.h"
#include "tl/Driver/Stragglers.h"
#include "tl/IR/Trace.h"
#include "tl/Support/Intervals.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace tl {

std::optional<double> RankTimeline::commHiddenPct() const {
  if (!HasGpu || TotalCommUs <= 0)
    return std::nullopt;
  return (TotalCommUs - ExposedCommUs) / TotalCommUs * 100;
}

HtaKernelType htaKernelType(StringRef N) {
  // HTA's re.match patterns: anchored at the start, ".*" = anywhere.
  if (N.starts_with("nccl") || N.starts_with("hip") || N.starts_with("hccl") ||
      N.contains("ncclKernel"))
    return HtaKernelType::Communication;
  if (N.starts_with("Memcpy") || N.starts_with("hipMemcpy") ||
      N.starts_with("Memset") || N.starts_with("hipMemset") ||
      N.starts_with("dma"))
    return HtaKernelType::Memory;
  static constexpr StringLiteral NotComputePrefix[] = {
      "nccl",        "Stream Wait Event",
      "runFunction", "hip",
      "job_exe",     "packet",
      "pe_exe",      "cpum_exe_subgraph",
      "hccl",        "collective_subgraph_execution"};
  for (StringRef P : NotComputePrefix)
    if (N.starts_with(P))
      return HtaKernelType::Other;
  if (N.contains("Memcpy") || N.contains("Memset") || N.contains("dma") ||
      N.contains("Sync"))
    return HtaKernelType::Other;
  if (N.starts_with("cuda") && N.drop_front(4).contains("LaunchKernel"))
    return HtaKernelType::Other;
  return HtaKernelType::Computation;
}

/// |A ∩ B| of two merged interval lists.
static double overlapLength(const std::vector<Interval> &A,
                            const std::vector<Interval> &B) {
  return totalLength(B) - totalLength(subtractIntervals(A, B));
}

/// GPU events that are the first launch on their host thread after a
/// cudaStreamWaitEvent / hipStreamWaitEvent there (a cross-stream
/// dependency the GPU may wait on).
static DenseSet<EventId> afterStreamWait(const Trace &T) {
  std::map<TrackId, std::vector<EventId>> ByTrack;
  for (EventKind K : {EventKind::Runtime, EventKind::Driver})
    for (EventId E : T.eventsOfKind(K))
      ByTrack[T.track(E)].push_back(E);
  DenseSet<EventId> Out;
  for (auto &[Track, Es] : ByTrack) {
    llvm::stable_sort(Es,
                      [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
    bool Pending = false;
    for (EventId E : Es) {
      if (T.name(E).contains("StreamWaitEvent")) {
        Pending = true;
        continue;
      }
      ArrayRef<EventId> Gpu = T.subtreeGpuEvents(E);
      if (Pending && !Gpu.empty()) {
        Out.insert(Gpu.front());
        Pending = false;
      }
    }
  }
  return Out;
}

RankTimeline computeRankTimeline(const Trace &T, const GpuTimeline &TL,
                                 ArrayRef<StepWindow> Steps) {
  RankTimeline R;
  if (!TL.hasGpuEvents())
    return R;
  double WS = Steps.empty() ? TL.start() : Steps.front().Start;
  double WE = Steps.empty() ? TL.end() : Steps.back().End;
  R.RangeStart = WS;
  R.RangeEnd = WE;

  struct Clipped {
    Interval I;
    EventId E;
  };
  std::vector<Clipped> Events;
  BucketIntervals Buckets;
  std::vector<Interval> All, HComp, HComm;
  GpuBucketer Bucket(T);
  for (EventId E : TL.events()) {
    Interval I{std::max(T.ts(E), WS), std::min(T.end(E), WE)};
    // A clipped piece of positive length, or an instant inside the range.
    bool Instant = T.dur(E) == 0 && T.ts(E) >= WS && T.ts(E) <= WE;
    if (!(I.End > I.Start) && !Instant)
      continue;
    Events.push_back({I, E});
    All.push_back(I);
    Buckets.push(Bucket(E), I);
    switch (htaKernelType(T.name(E))) {
    case HtaKernelType::Computation:
      HComp.push_back(I);
      break;
    case HtaKernelType::Communication:
      HComm.push_back(I);
      break;
    default:
      break;
    }
  }
  if (Events.empty())
    return R;
  R.HasGpu = true;
  Buckets.merge();
  All = mergeIntervals(std::move(All));
  R.ComputationUs = Buckets.computation();
  R.ExposedCommUs = Buckets.exposedComm();
  R.ExposedMemcpyUs = Buckets.exposedMemcpy();
  R.BusyUs = totalLength(All);
  R.TotalCommUs = Buckets.totalComm();
  R.TotalMemcpyUs = Buckets.totalMemcpy();

  // Idle by cause, window by window (a gap across two windows is the tail
  // of one and the lead of the next): each hole of the merged busy time is
  // named by the GPU events that start where it ends.
  std::vector<Clipped> ByStart = Events;
  for (Clipped &C : ByStart)
    C.I.Start = T.ts(C.E);
  llvm::stable_sort(ByStart, [](const Clipped &A, const Clipped &B) {
    return A.I.Start < B.I.Start;
  });
  DenseSet<EventId> AfterWait = afterStreamWait(T);
  auto Classify = [&](double From, double To, bool Leading) {
    auto It = llvm::lower_bound(
        ByStart, To, [](const Clipped &C, double V) { return C.I.Start < V; });
    // The GPU waited for the host when everything that starts here was
    // launched after the gap began; else on a dependency.
    bool Host = It != ByStart.end() && It->I.Start == To, Sync = false;
    for (; It != ByStart.end() && It->I.Start == To; ++It) {
      EventId G = It->E;
      EventId L = T.isLinked(G) ? T.parent(G) : NoEvent;
      Host &= L != NoEvent && T.ts(L) > From;
      Sync |= Bucket(G) == GpuBucket::Communication || AfterWait.count(G);
    }
    double Gap = To - From;
    if (Host)
      R.HostWaitIdleUs += Gap;
    else if (Sync && !Leading)
      R.SyncWaitIdleUs += Gap;
    else
      R.OtherIdleUs += Gap;
  };
  std::vector<Interval> Windows;
  // A hole between two windows (the CPU idle between steps) is the next
  // window's lead, so the gaps add up to the range's idle time.
  for (const StepWindow &W : Steps)
    Windows.push_back({Windows.empty() ? W.Start : Windows.back().End, W.End});
  if (Windows.empty())
    Windows.push_back({WS, WE});
  size_t K = 0;
  for (const Interval &W : Windows) {
    while (K < All.size() && All[K].End <= W.Start)
      ++K;
    double Prev = W.Start;
    bool Leading = true;
    for (size_t I = K; I < All.size() && All[I].Start < W.End; ++I) {
      if (All[I].Start > Prev)
        Classify(Prev, All[I].Start, Leading);
      Leading = false;
      Prev = std::max(Prev, std::min(All[I].End, W.End));
    }
    if (W.End > Prev)
      R.TailIdleUs += W.End - Prev;
  }

  // HTA: over the span of the (clipped) GPU events.
  R.HtaKernelUs = All.back().End - All.front().Start;
  R.HtaIdleUs = R.HtaKernelUs - R.BusyUs;
  HComp = mergeIntervals(std::move(HComp));
  HComm = mergeIntervals(std::move(HComm));
  R.HtaComputeUs = totalLength(HComp);
  R.HtaNonComputeUs = R.HtaKernelUs - R.HtaComputeUs - R.HtaIdleUs;
  if (double C = totalLength(HComm); C > 0)
    R.HtaOverlapPct = pyRound(overlapLength(HComp, HComm) / C * 100, 2);
  return R;
}

namespace {
/// A metric of rank_timeline.csv: its column and its value on a row.
struct Metric {
  const char *Name;
  std::optional<double> (*Get)(const RankTimeline &);
};
} // namespace

#define TL_METRIC(NAME, EXPR)                                                  \
  Metric {                                                                     \
    NAME, [](const RankTimeline &R) -> std::optional<double> { return EXPR; }  \
  }

static ArrayRef<Metric> metrics() {
  static const Metric M[] = {
      TL_METRIC("total_us", R.totalUs()),
      TL_METRIC("computation_us", R.ComputationUs),
      TL_METRIC("exposed_comm_us", R.ExposedCommUs),
      TL_METRIC("exposed_memcpy_us", R.ExposedMemcpyUs),
      TL_METRIC("busy_us", R.BusyUs),
      TL_METRIC("idle_us", R.idleUs()),
      TL_METRIC("total_comm_us", R.TotalCommUs),
      TL_METRIC("total_memcpy_us", R.TotalMemcpyUs),
      TL_METRIC("comm_hidden_pct", R.commHiddenPct()),
      TL_METRIC("host_wait_idle_us", R.HostWaitIdleUs),
      TL_METRIC("sync_wait_idle_us", R.SyncWaitIdleUs),
      TL_METRIC("other_idle_us", R.OtherIdleUs),
      TL_METRIC("tail_idle_us", R.TailIdleUs),
      TL_METRIC("hta_idle_time_us", R.HtaIdleUs),
      TL_METRIC("hta_compute_time_us", R.HtaComputeUs),
      TL_METRIC("hta_non_compute_time_us", R.HtaNonComputeUs),
      TL_METRIC("hta_kernel_time_us", R.HtaKernelUs),
      TL_METRIC("hta_comp_comm_overlap_pctg", R.HtaOverlapPct),
  };
  return M;
}
#undef TL_METRIC


CsvTable rankTimelineTable(ArrayRef<RankSummary> Ranks) {
  std::vector<std::string> Cols{"rank"};
  for (const Metric &M : metrics())
    Cols.push_back(M.Name);
  CsvTable Tab(std::move(Cols));
  for (const RankSummary *S : inRankOrder(Ranks)) {
    std::vector<PyValue> Row{pyInt(S->Claim.Rank)};
    for (const Metric &M : metrics()) {
      std::optional<double> V =
          S->Timeline.HasGpu ? M.Get(S->Timeline) : std::nullopt;
      Row.push_back(V ? pyFloat(*V) : PyValue::none());
    }
    Tab.addRow(std::move(Row));
  }
  return Tab;
}

namespace {
/// A metric over the ranks that have it (spec §6 cross-rank aggregation).
struct Spread {
  std::vector<std::pair<int64_t, double>> Values; // rank order
  double Min = 0, Median = 0, Max = 0;
  int64_t ArgMax = 0;
  std::vector<int64_t> Imbalanced;
};
} // namespace

static Spread spread(ArrayRef<const RankSummary *> Ranks, const Metric &M) {
  Spread S;
  for (const RankSummary *R : Ranks)
    if (R->Timeline.HasGpu)
      if (std::optional<double> V = M.Get(R->Timeline))
        S.Values.push_back({R->Claim.Rank, *V});
  if (S.Values.empty())
    return S;
  std::vector<double> Vs;
  S.Min = S.Max = S.Values.front().second;
  S.ArgMax = S.Values.front().first;
  for (auto &[Rank, V] : S.Values) {
    Vs.push_back(V);
    S.Min = std::min(S.Min, V);
    if (V > S.Max) {
      S.Max = V;
      S.ArgMax = Rank;
    }
  }
  S.Median = numpyMedian(Vs);
  std::vector<double> Dev;
  for (double V : Vs)
    Dev.push_back(std::fabs(V - S.Median));
  double Mad = numpyMedian(Dev);
  for (auto &[Rank, V] : S.Values) {
    double D = std::fabs(V - S.Median);
    if (D > 0.1 * std::fabs(S.Median) && D > 2 * Mad)
      S.Imbalanced.push_back(Rank);
  }
  return S;
}

CsvTable rankTimelineStatsTable(ArrayRef<RankSummary> Ranks) {
  CsvTable Tab({"metric", "min", "median", "max", "spread", "argmax_rank",
                "imbalanced_ranks"});
  std::vector<const RankSummary *> Order = inRankOrder(Ranks);
  for (const Metric &M : metrics()) {
    Spread S = spread(Order, M);
    if (S.Values.empty()) {
      Tab.addRow({pyText(M.Name), PyValue::none(), PyValue::none(),
                  PyValue::none(), PyValue::none(), PyValue::none(),
                  pyText("")});
      continue;
    }
    std::string Imb;
    for (int64_t R : S.Imbalanced)
      Imb += (Imb.empty() ? "" : ";") + std::to_string(R);
    Tab.addRow({pyText(M.Name), pyFloat(S.Min), pyFloat(S.Median),
                pyFloat(S.Max), pyFloat(S.Max - S.Min), pyInt(S.ArgMax),
                pyText(Imb)});
  }
  return Tab;
}

/// "rank 0 180.0 us, rank 1 210.0 us, ..." (at most 16 ranks).
static std::string perRank(const Spread &S, const char *Unit) {
  std::string Out;
  size_t Shown = std::min<size_t>(S.Values.size(), 16);
  for (size_t I = 0; I < Shown; ++I)
    Out += (I ? ", rank " : "rank ") + std::to_string(S.Values[I].first) + " " +
           printfDouble("%.1f", S.Values[I].second) + Unit;
  if (Shown < S.Values.size())
    Out += ", ...";
  return Out;
}

static const Metric &metric(StringRef Name) {
  for (const Metric &M : metrics())
    if (Name == M.Name)
      return M;
  llvm_unreachable("unknown rank_timeline metric");
}

std::vector<JobFinding>
timelineFindings(ArrayRef<RankSummary> Ranks,
                 ArrayRef<MatchedCollective> Collectives) {
  std::vector<JobFinding> Out;
  std::vector<const RankSummary *> Order = inRankOrder(Ranks);
  if (Order.size() < 2)
    return Out;

  // MR-COMPUTE-SKEW: max / median computation >= 1.10.
  Spread Comp = spread(Order, metric("computation_us"));
  if (Comp.Values.size() >= 2 && Comp.Median > 0 &&
      Comp.Max / Comp.Median >= 1.10) {
    double Ratio = Comp.Max / Comp.Median;
    JobFinding F;
    F.Id = "MR-COMPUTE-SKEW";
    F.Severity = Ratio >= 1.25 ? "medium" : "low";
    F.Rank = Comp.ArgMax;
    F.TimeUs = Comp.Max - Comp.Median;
    F.ImpactPct = (Ratio - 1) * 100;
    F.Title = "rank " + std::to_string(Comp.ArgMax) + " computes " +
              printfDouble("%.2f", Ratio) + "x the median rank's GPU time (" +
              printfDouble("%.1f", Comp.Max) + " us vs " +
              printfDouble("%.1f", Comp.Median) + " us)";
    F.Detail = "Computation per rank: " + perRank(Comp, " us") +
               ". The other ranks wait for the slowest at the next "
               "collective: balance the work (data, layers, experts) across "
               "ranks.";
    Out.push_back(std::move(F));
  }

  // MR-EXPOSED-COMM: median exposed comm >= 5 % of the rank's total.
  std::vector<double> ExpPct;
  Spread Exp = spread(Order, metric("exposed_comm_us"));
  for (const RankSummary *R : Order)
    if (R->Timeline.HasGpu && R->Timeline.totalUs() > 0)
      ExpPct.push_back(R->Timeline.ExposedCommUs / R->Timeline.totalUs() * 100);
  if (!ExpPct.empty() && numpyMedian(ExpPct) >= 5) {
    double Med = numpyMedian(ExpPct);
    JobFinding F;
    F.Id = "MR-EXPOSED-COMM";
    F.Severity = Med > 20 ? "high" : "medium";
    F.TimeUs = Exp.Median;
    F.ImpactPct = Med;
    // The collective family with the most transfer time.
    std::map<std::string, std::pair<double, std::string>> Family;
    for (const MatchedCollective &C : Collectives) {
      if (C.Status != MatchStatus::Ok)
        continue;
      std::string Key =
          C.CollType + " " +
          (C.Bytes ? printfDouble("%.0f", *C.Bytes) + " B" : std::string("?")) +
          " pg " + C.Pg;
      auto &[Sum, Type] = Family[Key];
      Sum += C.Transfer;
      Type = C.CollType;
    }
    std::string Worst;
    double WorstUs = 0;
    for (auto &[K, V] : Family)
      if (V.first > WorstUs) {
        WorstUs = V.first;
        Worst = K;
        F.Collective = V.second;
      }
    F.Title = "communication not hidden behind compute: median " +
              printfDouble("%.2f", Med) + " % of the ranks' GPU time";
    F.Detail = "Exposed communication per rank: " + perRank(Exp, " us") + "." +
               (Worst.empty() ? std::string()
                              : " Most transfer time: " + Worst + " (" +
                                    printfDouble("%.1f", WorstUs) + " us).");
    Out.push_back(std::move(F));
  }

  // MR-LOW-OVERLAP: median comm_hidden_pct < 70 % with median comm >= 100.
  Spread Hid = spread(Order, metric("comm_hidden_pct"));
  Spread Tot = spread(Order, metric("total_comm_us"));
  if (!Hid.Values.empty() && Hid.Median < 70 && Tot.Median >= 100) {
    JobFinding F;
    F.Id = "MR-LOW-OVERLAP";
    F.Severity = "low";
    F.TimeUs = Tot.Median;
    F.ImpactPct = Hid.Median;
    F.Title = "low compute/communication overlap: median " +
              printfDouble("%.2f", Hid.Median) +
              " % of the communication hidden (target 70 %)";
    F.Detail = "Hidden communication per rank: " + perRank(Hid, " %") +
               "; total communication per rank: " + perRank(Tot, " us") + ".";
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace tl
