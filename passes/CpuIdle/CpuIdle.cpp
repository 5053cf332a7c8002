//===- CpuIdle.cpp - GPU idle, its causes and launch overhead -------------===//
//
// System tier (tracelens-analysis §6.1): category_data/cpu_idle_metrics.json
// in the reference schema, with the kernel statistics the reference meant
// to compute (its script reads columns the ops table does not have, so they
// are always zero; see docs/conformance.md), plus idle broken down by cause
// and kernel launch statistics under "tl_extensions". One finding when idle
// exceeds the threshold, with the dominant cause's mechanism.
//
//===----------------------------------------------------------------------===//
#include "CpuIdlePass.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/LaunchStats.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Analysis/TraceStart.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"
#include "tl/Support/PyValue.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace tl;
using llvm::StringRef;

namespace {

bool isGraphLaunchName(StringRef N) {
  return N.starts_with("cudaGraphLaunch") || N.starts_with("hipGraphLaunch");
}

/// What is left on the host when GPU graphs replay the model: the replays'
/// kernels and GPU windows, the idle inside and outside those windows, the
/// kernels still launched one by one, and the host ops outside every replay
/// (logits, sampling, input preparation), by name.
struct GraphReplayHost {
  struct HostOp {
    std::string Name;
    uint64_t Count = 0;
    double HostUs = 0, GpuUs = 0;
  };
  uint64_t Launches = 0, ReplayedKernels = 0, EagerKernels = 0;
  double ReplayedUs = 0, EagerUs = 0, IdleInsideUs = 0, IdleOutsideUs = 0;
  std::vector<HostOp> Outside; // largest host time first

  GraphReplayHost(const Trace &T, const GpuTimeline &TL,
                  const LaunchStats &LS) {
    llvm::DenseSet<EventId> Replayed, LaunchAncestors;
    std::vector<std::pair<double, double>> Windows;
    for (EventKind K : {EventKind::Runtime, EventKind::Driver})
      for (EventId L : T.eventsOfKind(K)) {
        if (!isGraphLaunchName(T.name(L)))
          continue;
        ++Launches;
        double Lo = 0, Hi = 0;
        bool Any = false;
        for (EventId G : T.subtreeGpuEvents(L)) {
          Replayed.insert(G);
          Lo = Any ? std::min(Lo, T.ts(G)) : T.ts(G);
          Hi = Any ? std::max(Hi, T.end(G)) : T.end(G);
          Any = true;
        }
        if (Any)
          Windows.push_back({Lo, Hi});
        for (EventId P = T.parent(L); P != NoEvent; P = T.parent(P))
          if (!LaunchAncestors.insert(P).second)
            break;
      }
    for (EventId E : TL.events()) {
      if (T.kind(E) != EventKind::Kernel)
        continue;
      bool R = Replayed.contains(E);
      (R ? ReplayedKernels : EagerKernels) += 1;
      (R ? ReplayedUs : EagerUs) += T.dur(E);
    }
    llvm::sort(Windows);
    for (const IdleGap &G : LS.gaps()) {
      // The last window starting at or before the gap holds it or none does.
      auto It = llvm::upper_bound(Windows, std::make_pair(G.Start, 1e300));
      bool Inside = It != Windows.begin() && std::prev(It)->second >= G.End;
      (Inside ? IdleInsideUs : IdleOutsideUs) += G.length();
    }
    std::map<std::string, HostOp> ByName;
    for (EventId R : T.cpuRoots()) {
      // Skip the ops around a launch and the capture's ops the merge copied
      // under it (docs/Inference.md): both are the replay, not the host.
      if (LaunchAncestors.contains(R))
        continue;
      bool UnderLaunch = false;
      for (EventId P = T.parent(R); P != NoEvent && !UnderLaunch;
           P = T.parent(P))
        UnderLaunch = isRuntimeKind(T.kind(P)) && isGraphLaunchName(T.name(P));
      if (UnderLaunch)
        continue;
      HostOp &H = ByName[T.name(R).str()];
      H.Name = T.name(R).str();
      ++H.Count;
      H.HostUs += T.dur(R);
      for (EventId G : T.subtreeGpuEvents(R))
        H.GpuUs += T.dur(G);
    }
    for (auto &[N, H] : ByName)
      Outside.push_back(std::move(H));
    llvm::stable_sort(Outside, [](const HostOp &A, const HostOp &B) {
      return A.HostUs > B.HostUs;
    });
  }

  double replayedPct() const {
    double K = ReplayedUs + EagerUs;
    return K > 0 ? ReplayedUs / K * 100 : 0;
  }
  /// "aten::linear (1 call, 0.05 ms host), ..." for the first N.
  std::string topOutside(size_t N) const {
    std::string R;
    for (size_t I = 0; I < Outside.size() && I < N; ++I)
      R += (I ? ", " : "") + Outside[I].Name + " (" +
           std::to_string(Outside[I].Count) +
           (Outside[I].Count == 1 ? " call, " : " calls, ") +
           readableMs(Outside[I].HostUs / 1000) + " host)";
    return R;
  }
};

class CpuIdlePass : public PassBase<CpuIdlePass> {
public:
  static constexpr llvm::StringLiteral Argument = "cpu-idle";
  static constexpr llvm::StringLiteral Description =
      "GPU idle time by cause and kernel launch overhead (system tier)";
  static constexpr Tier PassTier = Tier::System;
  static constexpr Capability RequiredCapabilities[] = {
      Capability::GpuTimeline};
  static constexpr PipelineMembership Pipelines[] = {{"system", 100}};
  static constexpr llvm::StringLiteral SkillName = "cpu-idle-analyzer";
  static void prefetch(AnalysisPrefetch &P) { P.add<LaunchStats>(); }

  Option<double> idlePct{*this, "idle-pct",
                         desc("Flag GPU idle above this % of E2E"),
                         init(15.0)};
  Option<double> shortKernelUs{*this, "short-kernel-us",
                               desc("Short-kernel threshold (µs)"),
                               init(10.0)};
  Option<double> launchBoundShare{*this, "launch-bound-share",
                                  desc("Idle share (0-1) with the host "
                                       "dispatching that makes the workload "
                                       "launch-bound"),
                                  init(0.5)};
  Option<unsigned> topGaps{*this, "top-gaps",
                           desc("Largest gaps in the evidence"), init(10u)};

  llvm::Error run(const Trace &T, AnalysisManager &AM,
                  FindingSink &Sink) override;
};

llvm::Error CpuIdlePass::run(const Trace &T, AnalysisManager &AM,
                             FindingSink &Sink) {
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  const LaunchStats &LS = AM.get<LaunchStats>();
  double Total = TL.totalTime();
  double IdlePct = pyRound(TL.percent(TL.idleTime()), 2);
  bool Flagged = TL.percent(TL.idleTime()) > idlePct;

  // Kernel statistics over the timeline's kernels (the fixed
  // kernel_analysis block): category = op category of the launching op.
  uint64_t KCount = 0, KShort = 0;
  double KUs = 0;
  std::map<std::string, int64_t> ByCat;
  const CategoryRegistry &Reg = CategoryRegistry::builtin();
  for (EventId E : TL.events()) {
    if (T.kind(E) != EventKind::Kernel)
      continue;
    ++KCount;
    KUs += T.dur(E);
    if (T.dur(E) < shortKernelUs)
      ++KShort;
    EventId Op = NoEvent;
    for (EventId P = T.parent(E); P != NoEvent; P = T.parent(P))
      if (T.kind(P) == EventKind::CpuOp) {
        Op = P;
        break;
      }
    ++ByCat[Op == NoEvent ? "other" : Reg.categorize(T.name(Op), T.name(E))];
  }

  std::vector<const IdleGap *> Largest;
  for (const IdleGap &G : LS.gaps())
    Largest.push_back(&G);
  llvm::stable_sort(Largest, [](const IdleGap *A, const IdleGap *B) {
    return A->length() > B->length();
  });
  if (Largest.size() > topGaps)
    Largest.resize(topGaps);
  double Idle = LS.idleSyncUs() + LS.idleLaunchUs() + LS.idleNoHostUs();
  auto Share = [&](double V) { return Idle > 0 ? V / Idle : 0; };
  auto OpName = [&](EventId E) {
    return E == NoEvent ? std::string() : T.name(E).str();
  };

  const TraceQuality::Counts &QC = AM.get<TraceQuality>().counts();
  std::optional<GraphReplayHost> Graphs;
  if (QC.GraphLaunches > 0)
    Graphs.emplace(T, TL, LS);

  {
  // category_data/cpu_idle_metrics.json, written by the report.
  using Items = std::vector<std::pair<std::string, PyValue>>;
  auto Real = [](double V) { return PyValue::real(V); };
  auto Int = [](uint64_t V) {
    return PyValue::integer(static_cast<int64_t>(V));
  };
  Items Util = {
      {"total_time_ms", Real(pyRound(Total / 1000, 3))},
      {"idle_time_ms", Real(pyRound(TL.idleTime() / 1000, 3))},
      {"idle_time_percent", Real(IdlePct)},
      {"computation_percent",
       Real(pyRound(TL.percent(TL.computationTime()), 2))},
      {"communication_percent",
       Real(pyRound(TL.percent(TL.exposedCommTime()), 2))},
      {"memcpy_percent", Real(pyRound(TL.percent(TL.exposedMemcpyTime()), 2))}};
  Items ByCatItems;
  for (auto &[C, N] : ByCat)
    ByCatItems.push_back({C, PyValue::integer(N)});
  Items Kernels = {
      {"short_kernel_count", Int(KShort)},
      {"total_kernel_count", Int(KCount)},
      {"avg_kernel_time_us", Real(KCount ? pyRound(KUs / KCount, 2) : 0.0)},
      {"kernel_count_by_category", PyValue::dict(std::move(ByCatItems))}};
  Items IdleByCause = {
      {"sync_wait_ms", Real(pyRound(LS.idleSyncUs() / 1000, 3))},
      {"launch_bound_ms", Real(pyRound(LS.idleLaunchUs() / 1000, 3))},
      {"no_host_activity_ms", Real(pyRound(LS.idleNoHostUs() / 1000, 3))},
      {"gap_count", Int(LS.gaps().size())}};
  Items Launch = {
      {"kernel_count", Int(LS.kernelCount())},
      {"mean_latency_us", Real(pyRound(LS.meanLatencyUs(), 3))},
      {"median_latency_us", Real(pyRound(LS.medianLatencyUs(), 3))},
      {"p90_latency_us", Real(pyRound(LS.p90LatencyUs(), 3))},
      {"shorter_than_launch", Int(LS.shorterThanLaunch())},
      {"launch_rate_per_s", Real(pyRound(LS.launchRatePerSec(), 1))}};
  std::vector<PyValue> GapList;
  for (const IdleGap *G : Largest)
    GapList.push_back(PyValue::dict(
        {{"start_us", Real(G->Start)},
         {"idle_us", Real(pyRound(G->length(), 3))},
         {"sync_wait_us", Real(pyRound(G->SyncUs, 3))},
         {"launch_bound_us", Real(pyRound(G->LaunchUs, 3))},
         {"no_host_activity_us", Real(pyRound(G->NoHostUs, 3))},
         {"kernel_before", PyValue::str(OpName(G->KernelBefore))},
         {"kernel_after", PyValue::str(OpName(G->KernelAfter))},
         {"op_after", PyValue::str(OpName(G->OpAfter))}}));
  Items Ext = {{"idle_by_cause", PyValue::dict(std::move(IdleByCause))},
               {"launch", PyValue::dict(std::move(Launch))},
               {"largest_gaps", PyValue::list(std::move(GapList))}};
  if (Graphs) {
    std::vector<PyValue> Outside;
    for (size_t I = 0; I < Graphs->Outside.size() && I < topGaps; ++I) {
      const GraphReplayHost::HostOp &H = Graphs->Outside[I];
      Outside.push_back(
          PyValue::dict({{"name", PyValue::str(H.Name)},
                         {"count", Int(H.Count)},
                         {"host_time_ms", Real(pyRound(H.HostUs / 1000, 3))},
                         {"gpu_time_ms", Real(pyRound(H.GpuUs / 1000, 3))}}));
    }
    Ext.push_back(
        {"graph_replay",
         PyValue::dict(
             {{"graph_launches", Int(Graphs->Launches)},
              {"replayed_kernel_count", Int(Graphs->ReplayedKernels)},
              {"replayed_kernel_time_ms",
               Real(pyRound(Graphs->ReplayedUs / 1000, 3))},
              {"replayed_kernel_time_percent",
               Real(pyRound(Graphs->replayedPct(), 2))},
              {"eager_kernel_count", Int(Graphs->EagerKernels)},
              {"eager_kernel_time_ms", Real(pyRound(Graphs->EagerUs / 1000, 3))},
              {"idle_inside_replays_ms",
               Real(pyRound(Graphs->IdleInsideUs / 1000, 3))},
              {"idle_outside_replays_ms",
               Real(pyRound(Graphs->IdleOutsideUs / 1000, 3))},
              {"host_ops_outside_replays", PyValue::list(std::move(Outside))}})});
  }
  Sink.categoryMetrics(
      "cpu_idle",
      PyValue::dict({{"status", PyValue::str("OK")},
                     {"idle_flagged", PyValue::boolean(Flagged)},
                     {"gpu_utilization", PyValue::dict(std::move(Util))},
                     {"kernel_analysis", PyValue::dict(std::move(Kernels))},
                     {"impact_estimates", PyValue::list({})},
                     {"tl_extensions", PyValue::dict(std::move(Ext))}}),
      /*TrailingNewline=*/true);
  }

  if (!Flagged)
    return llvm::Error::success();

  // Dominant cause decides the mechanism.
  double SSync = Share(LS.idleSyncUs()), SLaunch = Share(LS.idleLaunchUs()),
         SNone = Share(LS.idleNoHostUs());
  std::string Cause, Action, Mech, Expect;
  // A trace that already replays GPU graphs gets advice about what is left
  // on the host, not "use graphs", whatever the host was doing; a serving
  // trace (inference mode) gets serving advice, not data loading.
  bool GraphReplay = Graphs && Graphs->replayedPct() >= 50;
  bool Serving = AM.options().Inference;
  if (GraphReplay) {
    Cause = SLaunch >= launchBoundShare && SLaunch >= SSync && SLaunch >= SNone
                ? "launch-bound between graph replays"
                : "host work outside graph replays";
    Action =
        "The step already replays GPU graphs (" +
        std::to_string(Graphs->Launches) +
        (Graphs->Launches == 1 ? " graph launch, " : " graph launches, ") +
        readablePct(pyRound(Graphs->replayedPct(), 2)) +
        " of kernel time): what is left is the host work outside them, " +
        readableMs(Graphs->IdleOutsideUs / 1000) +
        " of GPU idle outside the replays and " +
        std::to_string(Graphs->EagerKernels) +
        " kernels still launched one by one (" +
        readableMs(Graphs->EagerUs / 1000) + ")" +
        (Graphs->Outside.empty()
             ? std::string()
             : "; the host ops outside the replays are " +
                   Graphs->topOutside(3)) +
        ". Shorten the gaps between replays: overlap sampling and the "
        "scheduling of the next step with the current replay, and capture "
        "the eager ops into the graph.";
    Mech = "host work between graph replays";
    Expect = "shorter gaps between graph replays";
  } else if (SLaunch >= launchBoundShare && SLaunch >= SSync &&
             SLaunch >= SNone) {
    Cause = "launch-bound";
    Action = "Capture the steady-state step in a GPU graph so its " +
             std::to_string(LS.kernelCount()) +
             " kernels launch with one host call instead of one each.";
    Mech = "GPU graph";
    Expect = "lower GPU idle time and launch overhead per step";
  } else if (SSync >= SNone && Serving) {
    Cause = "host synchronization";
    Action = "Make the per-step host reads asynchronous: read the sampled "
             "tokens back with a non-blocking copy and process the outputs "
             "of step n while step n+1 runs, so the host keeps launching "
             "while the GPU works.";
    Mech = "asynchronous output processing";
    Expect = "lower GPU idle time inside synchronize calls";
  } else if (SSync >= SNone) {
    Cause = "host synchronization";
    Action = "Make the blocking host reads asynchronous: copy results into "
             "pinned buffers with non_blocking=True and consume them a step "
             "later, so the host keeps launching while the GPU works.";
    Mech = "asynchronous host reads";
    Expect = "lower GPU idle time inside synchronize calls";
  } else if (Serving) {
    Cause = "no host activity (request scheduling / Python)";
    Action = "Keep the GPU fed between steps: schedule and batch the next "
             "requests while the current step runs (asynchronous "
             "scheduling, continuous batching with enough concurrent "
             "requests), so the next step is ready when this one ends.";
    Mech = "asynchronous scheduling";
    Expect = "lower GPU idle time between steps";
  } else {
    Cause = "no host activity (data loading / Python)";
    Action = "Overlap input preparation with GPU work: more DataLoader "
             "workers with prefetching and pinned memory, so the next batch "
             "is ready when the step ends.";
    Mech = "data-loader prefetch";
    Expect = "lower GPU idle time between steps";
  }
  EvidenceTable Causes;
  Causes.Title = "GPU idle by host activity";
  Causes.Columns = {"cause", "idle_ms", "share_pct"};
  Causes.Rows = {
      {"host waiting in synchronize", pyRound(LS.idleSyncUs() / 1000, 3),
       pyRound(SSync * 100, 2)},
      {"host dispatching (launch-bound)", pyRound(LS.idleLaunchUs() / 1000, 3),
       pyRound(SLaunch * 100, 2)},
      {"no host activity seen", pyRound(LS.idleNoHostUs() / 1000, 3),
       pyRound(SNone * 100, 2)}};
  EvidenceTable Gaps;
  Gaps.Title = "Largest idle gaps";
  // Gap starts in ms from the trace start (TraceStart.h), the timeline a
  // reader sees in a trace viewer; cpu_idle_metrics.json
  // keeps the reference's absolute start_us.
  double TraceStart = traceStartUs(T);
  Gaps.Columns = {"start_ms", "idle_us", "sync_us", "launch_us",
                  "no_host_us", "kernel_before", "kernel_after", "op_after"};
  for (const IdleGap *G : Largest)
    Gaps.Rows.push_back({pyRound((G->Start - TraceStart) / 1000, 3),
                         pyRound(G->length(), 3),
                         pyRound(G->SyncUs, 3), pyRound(G->LaunchUs, 3),
                         pyRound(G->NoHostUs, 3), OpName(G->KernelBefore),
                         OpName(G->KernelAfter), OpName(G->OpAfter)});
  EvidenceTable Launch;
  Launch.Title = "Kernel launches";
  Launch.Columns = {"kernel", "count", "mean_kernel_us", "mean_latency_us",
                    "mean_launch_call_us", "shorter_than_launch"};
  for (const KernelLaunchStats &K : LS.perKernel()) {
    if (Launch.Rows.size() >= topGaps)
      break;
    Launch.Rows.push_back({K.Name, static_cast<int64_t>(K.Count),
                           pyRound(K.TotalKernelUs / K.Count, 3),
                           pyRound(K.TotalLatencyUs / K.Count, 3),
                           pyRound(K.TotalLaunchCallUs / K.Count, 3),
                           static_cast<int64_t>(K.ShorterThanLaunch)});
  }
  EvidenceTable Outside;
  if (Graphs) {
    Outside.Title = "Host work outside graph replays";
    Outside.Columns = {"op", "count", "host_ms", "gpu_ms"};
    for (size_t I = 0; I < Graphs->Outside.size() && I < topGaps; ++I) {
      const GraphReplayHost::HostOp &H = Graphs->Outside[I];
      Outside.Rows.push_back({H.Name, static_cast<int64_t>(H.Count),
                              pyRound(H.HostUs / 1000, 3),
                              pyRound(H.GpuUs / 1000, 3)});
    }
  }
  // What the host was doing during most of the idle, for the sentence.
  double Top = std::max({SSync, SLaunch, SNone});
  std::string While = Top == SLaunch ? "while the host was still launching kernels"
                      : Top == SSync ? "while the host waited in synchronize calls"
                                     : "with no host activity in the trace";
  std::string Insight =
      "The GPU is idle for " + readableMs(TL.idleTime() / 1000) + ", " +
      readablePct(IdlePct) + " of the end-to-end time" +
      (Idle > 0 ? "; " + readablePct(Top * 100) + " of that idle falls " + While
                : std::string()) +
      ".";
  if (!Largest.empty())
    Insight += " The longest gap lasts " +
               readableMs(Largest.front()->length() / 1000) + " and starts " +
               readableMs((Largest.front()->Start - TraceStart) / 1000) +
               " after the trace start.";
  FindingBuilder B =
      Sink.system("cpu_idle", "GPU idle " + printfDouble("%.1f", IdlePct) +
                                  "% of end-to-end time (" + Cause + ")");
  B.key("gpu-idle")
      .insight(Insight)
      .metric("idle_time_percent", IdlePct, "%")
      .metric("idle_time_ms", pyRound(TL.idleTime() / 1000, 3), "ms")
      .share(IdlePct)
      .metric("dominant_cause", Cause)
      .kernels(static_cast<int64_t>(LS.kernelCount()))
      .metric("short_kernel_count", static_cast<int64_t>(KShort))
      .metric("kernels_shorter_than_launch",
              static_cast<int64_t>(LS.shorterThanLaunch()))
      .metric("mean_launch_latency_us", pyRound(LS.meanLatencyUs(), 3), "us")
      .metric("launch_rate_per_s", pyRound(LS.launchRatePerSec(), 1), "1/s")
      .evidence(std::move(Causes))
      .evidence(std::move(Gaps))
      .evidence(std::move(Launch));
  if (Graphs)
    B.metric("graph_launches", static_cast<int64_t>(Graphs->Launches))
        .metric("idle_outside_replays_ms",
                pyRound(Graphs->IdleOutsideUs / 1000, 3), "ms")
        .evidence(std::move(Outside));
  B.nonQuantified()
      .severity(IdlePct > 50 ? Severity::High : Severity::Medium)
      .action(Action)
      .mechanism(Mech)
      .expect(Expect);
  return llvm::Error::success();
}

} // namespace

void tl::registerCpuIdlePass(PassRegistry &R) { R.registerPass<CpuIdlePass>(); }
