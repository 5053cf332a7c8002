//===- TraceQuality.cpp - Trace-quality gate and pipeline choice ---------===//

#include "tl/Analysis/TraceQuality.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Analysis/StepChecks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

using namespace tl;
using llvm::StringRef;
using TH = QualityThresholds;

StringRef tl::severityName(IssueSeverity S) {
  switch (S) {
  case IssueSeverity::Info:
    return "info";
  case IssueSeverity::Warning:
    return "warning";
  case IssueSeverity::Critical:
    return "critical";
  }
  return "warning";
}

StringRef tl::capabilityName(Capability C) {
  static constexpr llvm::StringLiteral Names[NumCapabilities] = {
      "gpu-timeline", "kernel-tables",      "op-attribution",
      "perf-models",  "roofline",           "call-stacks",
      "module-attribution", "fusion",       "step-stats"};
  return Names[unsigned(C)];
}

StringRef tl::capabilityStateName(CapabilityState S) {
  switch (S) {
  case CapabilityState::Full:
    return "full";
  case CapabilityState::Limited:
    return "limited";
  case CapabilityState::Unavailable:
    return "unavailable";
  }
  return "full";
}

StringRef tl::verdictName(QualityVerdict V) {
  switch (V) {
  case QualityVerdict::Empty:
    return "empty";
  case QualityVerdict::NoGpu:
    return "no-gpu";
  case QualityVerdict::GpuOnly:
    return "gpu-only";
  case QualityVerdict::Degraded:
    return "degraded";
  case QualityVerdict::Ok:
    return "ok";
  }
  return "ok";
}

TraceQuality::TraceQuality(const Trace &T, AnalysisManager &) : TraceQuality(T) {}

TraceQuality::TraceQuality(const Trace &T) {
  detect(T);
  deriveCapabilities();
}

const QualityIssue *TraceQuality::find(StringRef Id) const {
  for (const QualityIssue &I : Issues)
    if (I.Id == Id)
      return &I;
  return nullptr;
}

void TraceQuality::limit(Capability Cap, CapabilityState S, StringRef Why) {
  unsigned I = unsigned(Cap);
  if (S <= Caps[I])
    return; // keep the worst state and its first reason
  Caps[I] = S;
  CapReasons[I] = Why.str();
}

static bool isGraphLaunch(StringRef Name) {
  return Name.starts_with("cudaGraphLaunch") ||
         Name.starts_with("hipGraphLaunch");
}

static bool isCaptureCall(StringRef Name) {
  return Name.contains("StreamBeginCapture") ||
         Name.contains("GraphInstantiate");
}

static bool isDeviceMalloc(StringRef Name) {
  return Name == "cudaMalloc" || Name == "hipMalloc" ||
         Name == "cudaMallocManaged" || Name == "hipMallocManaged" ||
         Name == "hipExtMallocWithFlags";
}

/// Frames of autotuning runs (Inductor/Triton config benchmarking, cuDNN/
/// MIOpen algorithm search). Not `autotune_cache`, a cache lookup.
static bool isAutotuneFrame(StringRef N) {
  // Python frame names are mostly distinct (file:line, per-call module
  // instances), so this runs per frame: three scans on a miss, the
  // "autotune" and "Find" ones standing for the names containing them.
  if (N.contains("benchmark_all_configs"))
    return true;
  if (N.contains("autotune") && (N.contains("autotune_to_one_config") ||
                                 N.contains("autotune_select_algorithm") ||
                                 N.contains("triton/runtime/autotuner.py")))
    return true;
  return N.contains("Find") &&
         (N.contains("cudnnFind") || N.contains("miopenFind"));
}

/// True when any Input Dims entry (Dims: the op's "Input Dims" arg) is a
/// non-empty shape list.
static bool hasShapes(ArgValue Dims) {
  if (!Dims.isArray())
    return false;
  for (size_t I = 0, N = Dims.size(); I < N; ++I) {
    ArgValue D = Dims[I];
    if (D.isArray() && D.size() > 0)
      return true;
  }
  return false;
}

static bool hasCpuOpAncestor(const Trace &T, EventId E) {
  for (EventId P = T.parent(E); P != NoEvent; P = T.parent(P))
    if (T.kind(P) == EventKind::CpuOp)
      return true;
  return false;
}

static double pct(double Part, double Whole) {
  return Whole > 0 ? Part / Whole * 100.0 : 0.0;
}

std::optional<Interval> tl::profilerSpan(const Trace &T) {
  std::optional<Interval> Span;
  for (EventId E : T.eventsOfKind(EventKind::Other))
    if (T.cat(E) == "Trace" && T.name(E).starts_with("PyTorch Profiler")) {
      if (!Span)
        Span = Interval{T.ts(E), T.end(E)};
      Span->Start = std::min(Span->Start, T.ts(E));
      Span->End = std::max(Span->End, T.end(E));
    }
  return Span;
}

std::optional<std::string>
tl::warmupStepEvidence(llvm::ArrayRef<ProfilerStep> Steps) {
  if (Steps.size() < 2)
    return std::nullopt;
  std::vector<double> Durs;
  for (const ProfilerStep &S : Steps)
    Durs.push_back(S.duration());
  double Med = *typicalStepValue(Durs);
  if (!(Med > 0 && Durs[0] > TH::WarmupStepRatio * Med))
    return std::nullopt;
  return fmt::format(
      "first step #{} took {:.3f} µs = {:.2f}x the median {:.3f} µs of "
      "the {}",
      Steps[0].Number, Durs[0], Durs[0] / Med, Med,
      Steps.size() == 2 ? std::string("other step")
                        : fmt::format("{} middle steps", Steps.size() - 2));
}

std::vector<std::string>
tl::truncatedStepEvidence(llvm::ArrayRef<ProfilerStep> Steps,
                          std::optional<double> ProfilerEnd) {
  std::vector<double> Durs, GpuCounts;
  for (const ProfilerStep &S : Steps) {
    Durs.push_back(S.duration());
    GpuCounts.push_back(double(S.GpuEvents));
  }
  bool HaveWindow = ProfilerEnd.has_value();
  double WinEnd = ProfilerEnd.value_or(0);
  std::vector<std::string> Trunc;
  if (Steps.size() >= 2) {
    size_t L = Steps.size() - 1;
    // With two steps a short second step is as likely a slow first one:
    // leave durations to the warm-up check and compare GPU work only.
    if (Steps.size() >= 3) {
      double Med = *typicalStepValue(Durs);
      if (Med > 0 && Durs[L] < TH::TruncatedStepRatio * Med)
        Trunc.push_back(fmt::format(
            "last step #{} took {:.3f} µs = {:.2f}x the median {:.3f} µs of "
            "the {} middle steps",
            Steps[L].Number, Durs[L], Durs[L] / Med, Med, Steps.size() - 2));
    }
    double MedG = *typicalStepValue(GpuCounts);
    if (MedG > 0 && GpuCounts[L] < TH::TruncatedStepRatio * MedG)
      Trunc.push_back(fmt::format(
          "last step #{} launched {} GPU events vs a median of {:.1f}",
          Steps[L].Number, Steps[L].GpuEvents, MedG));
  }
  if (!Steps.empty() && HaveWindow &&
      Steps.back().End >= WinEnd - TH::TraceEndToleranceUs)
    Trunc.push_back(fmt::format(
        "last step #{} ends at {:.3f} µs, at the profiler's end {:.3f} µs",
        Steps.back().Number, Steps.back().End, WinEnd));
  return Trunc;
}

namespace {

/// What the counting steps of TraceQuality::detect leave for its issue
/// steps.
struct DetectScan {
  /// The Kineto "PyTorch Profiler (N)" span when present, else unbounded.
  bool HaveWindow = false;
  double WinStart = -std::numeric_limits<double>::infinity();
  double WinEnd = std::numeric_limits<double>::infinity();
  /// Graph launches with no cpu_op above them.
  std::vector<EventId> GraphLaunchEvents;
  /// GPU events launched before the first recorded runtime call.
  uint64_t EarlyCount = 0;

  /// The first correlation of the runtime calls, read only when an
  /// unlinked GPU event asks (reading an arg of every runtime call cost
  /// more than the rest of the runtime loop).
  std::optional<int64_t> minRuntimeCorr(const Trace &T) {
    if (!MinRuntimeCorrMemo) {
      std::optional<int64_t> Min;
      for (EventKind K : {EventKind::Runtime, EventKind::Driver})
        for (EventId E : T.eventsOfKind(K))
          if (auto Corr = T.correlation(E))
            if (!Min || *Corr < *Min)
              Min = *Corr;
      MinRuntimeCorrMemo = Min;
    }
    return *MinRuntimeCorrMemo;
  }

private:
  std::optional<std::optional<int64_t>> MinRuntimeCorrMemo;
};

using Counts = TraceQuality::Counts;
using IssueList = std::vector<QualityIssue>;

void countHostEvents(const Trace &T, Counts &C) {
  llvm::ArrayRef<EventId> CpuOps = T.eventsOfKind(EventKind::CpuOp);
  C.CpuOps = CpuOps.size();
  // Dims lists are interned: tested once per stored list.
  StrId DimsKey = T.strings().lookup("Input Dims");
  llvm::DenseMap<uint64_t, bool> Memo;
  for (EventId E : CpuOps) {
    ArgValue Dims = T.args(E).getByKeyId(DimsKey);
    if (!Dims.isArray())
      continue;
    auto [It, New] = Memo.try_emplace(Dims.identity(), false);
    if (New)
      It->second = hasShapes(Dims);
    C.CpuOpsWithShapes += It->second;
  }
  for (EventId E : T.eventsOfKind(EventKind::PythonFunction)) {
    ++C.PythonFrames;
    if (T.name(E).starts_with("nn.Module: "))
      ++C.ModuleFrames;
  }
  C.GpuEvents = T.gpuEvents().size();
  C.Kernels = T.eventsOfKind(EventKind::Kernel).size();
}

/// Runtime calls: graph launches, captures, mallocs.
void countRuntimeCalls(const Trace &T, Counts &C, DetectScan &Scan) {
  // Name tests once per distinct runtime name: bit 0 graph launch, bit 1
  // capture call, bit 2 device malloc.
  NameMemo RuntimeName(T, [](StringRef N) -> uint8_t {
    return (isGraphLaunch(N) ? 1 : 0) | (isCaptureCall(N) ? 2 : 0) |
           (isDeviceMalloc(N) ? 4 : 0);
  });
  for (EventKind K : {EventKind::Runtime, EventKind::Driver})
    for (EventId E : T.eventsOfKind(K)) {
      ++C.Runtime;
      uint8_t Facts = RuntimeName(E);
      if (Facts & 1) {
        ++C.GraphLaunches;
        if (!hasCpuOpAncestor(T, E))
          Scan.GraphLaunchEvents.push_back(E);
      }
      if (Facts & 2)
        ++C.CaptureCalls;
      if (Facts & 4)
        ++C.DeviceMallocs;
    }
}

/// GPU side: time, devices, links, skew, window.
void countGpuEvents(const Trace &T, Counts &C, DetectScan &Scan) {
  std::set<std::string> Devices;
  llvm::DenseSet<TrackId> SeenTracks; // device text once per track
  double GpuFirst = std::numeric_limits<double>::infinity(), GpuLast = -GpuFirst;
  for (EventId G : T.gpuEvents()) {
    double D = T.dur(G);
    C.GpuTime += D;
    GpuFirst = std::min(GpuFirst, T.ts(G));
    GpuLast = std::max(GpuLast, T.end(G));
    if (SeenTracks.insert(T.track(G)).second)
      Devices.insert(T.trackPartText(T.trackInfo(T.track(G)).Pid));
    bool Outside =
        Scan.HaveWindow && (T.ts(G) < Scan.WinStart - TH::TraceEndToleranceUs ||
                            T.end(G) > Scan.WinEnd + TH::TraceEndToleranceUs);
    bool EarlyLaunch = false;
    if (!T.isLinked(G)) {
      auto Corr = T.correlation(G);
      if (Corr && Scan.minRuntimeCorr(T) && *Corr < *Scan.minRuntimeCorr(T)) {
        Outside = true; // launched before the first recorded runtime call
        EarlyLaunch = true;
      }
      if (!Outside) {
        ++C.UnlinkedGpu;
        C.UnlinkedTime += D;
      }
    } else {
      double Skew = T.ts(T.parent(G)) - T.ts(G);
      if (Skew > TH::ClockSkewToleranceUs) {
        ++C.SkewedGpu;
        C.MaxSkewUs = std::max(C.MaxSkewUs, Skew);
      }
    }
    if (Outside) {
      if (EarlyLaunch)
        ++Scan.EarlyCount;
      ++C.OutsideWindowGpu;
      C.OutsideWindowTime += D;
    }
  }
  C.Devices = Devices.size();
  C.GpuSpanUs = C.GpuEvents ? GpuLast - GpuFirst : 0;
}

/// GPU events under the graph launches that have no cpu_op context, and
/// those the capture merge left directly under the launch.
void countGraphLaunched(const Trace &T, Counts &C, const DetectScan &Scan) {
  std::set<EventId> Seen;
  for (EventId R : Scan.GraphLaunchEvents)
    for (EventId G : T.subtreeGpuEvents(R))
      if (Seen.insert(G).second) {
        ++C.GraphLaunchedGpu;
        C.GraphLaunchedTime += T.dur(G);
        if (T.parent(G) == R) {
          ++C.GraphUnmergedGpu;
          C.GraphUnmergedTime += T.dur(G);
        }
      }
}

/// Verdict-level issues: no GPU events, GPU-only.
void verdictIssues(const Counts &C, IssueList &Issues) {
  if (C.GpuEvents == 0) {
    Issues.push_back(
        {"no-gpu-events", IssueSeverity::Critical,
         "no GPU events (kernel, memcpy, memset) recorded",
         fmt::format("{} cpu_ops, {} runtime calls, 0 GPU events", C.CpuOps,
                     C.Runtime),
         "GPU timeline, kernel tables, op attribution, perf models, roofline, fusion",
         "torch.profiler.profile(activities=[ProfilerActivity.CPU, "
         "ProfilerActivity.CUDA]) (CUDA covers ROCm too)"});
  } else if (C.CpuOps == 0) {
    Issues.push_back(
        {"gpu-only", IssueSeverity::Warning,
         "GPU-only trace: no CPU ops recorded",
         fmt::format("0 cpu_ops; {} GPU events ({} kernels), {} runtime calls",
                     C.GpuEvents, C.Kernels, C.Runtime),
         "op attribution, op tables and categories, perf models, roofline, "
         "fusion; GPU-side analyses (timeline, kernel tables) only",
         "torch.profiler.profile(activities=[ProfilerActivity.CPU, "
         "ProfilerActivity.CUDA], record_shapes=True, with_stack=True)"});
  }
}

/// What the profiler recorded: shapes, call stacks, module frames.
void recordingIssues(const Trace &T, const Counts &C, IssueList &Issues) {
  if (C.CpuOps > 0 && C.CpuOpsWithShapes == 0) {
    ArgValue RS = T.topLevel().get("record_shapes");
    std::string Flag =
        RS.isNull() ? "" : fmt::format("; record_shapes = {}", RS.toJson());
    Issues.push_back(
        {"no-shapes", IssueSeverity::Warning, "no tensor shapes recorded",
         fmt::format("0 of {} cpu_ops have non-empty Input Dims{}", C.CpuOps,
                     Flag),
         "perf models (FLOPs, bytes), roofline, shape-derived workload facts",
         "torch.profiler.profile(record_shapes=True)"});
  }
  if (C.CpuOps > 0 && C.PythonFrames == 0) {
    ArgValue WS = T.topLevel().get("with_stack");
    std::string Flag =
        WS.isNull() ? "" : fmt::format("; with_stack = {}", WS.toJson());
    Issues.push_back(
        {"no-call-stacks", IssueSeverity::Warning,
         "no Python call stacks or module frames recorded",
         fmt::format("0 python_function events for {} cpu_ops{}", C.CpuOps,
                     Flag),
         "call-stack attribution, per-module time, model family; fusion "
         "candidates limited to op sequences",
         "torch.profiler.profile(with_stack=True, with_modules=True)"});
  } else if (C.CpuOps > 0 && C.ModuleFrames == 0) {
    Issues.push_back(
        {"no-module-frames", IssueSeverity::Info,
         "Python frames recorded but no nn.Module frames",
         fmt::format("{} python_function events, 0 named 'nn.Module: ...'",
                     C.PythonFrames),
         "per-module time and model-family identification",
         "torch.profiler.profile(with_stack=True, with_modules=True)"});
  }
}

void outsideWindowIssue(const Trace &T, const Counts &C, DetectScan &Scan,
                        IssueList &Issues) {
  if (C.OutsideWindowGpu == 0)
    return;
  double P = pct(C.OutsideWindowTime, C.GpuTime);
  std::string Why;
  if (Scan.EarlyCount)
    Why = fmt::format("{} launched before the first recorded runtime call "
                      "(correlation < {})",
                      Scan.EarlyCount, *Scan.minRuntimeCorr(T));
  if (C.OutsideWindowGpu > Scan.EarlyCount)
    Why += fmt::format("{}{} outside the profiler span [{:.3f}, {:.3f}] µs",
                       Why.empty() ? "" : "; ",
                       C.OutsideWindowGpu - Scan.EarlyCount, Scan.WinStart,
                       Scan.WinEnd);
  Issues.push_back(
      {"outside-window",
       P >= TH::OutsideWindowWarnPct ? IssueSeverity::Warning
                                     : IssueSeverity::Info,
       "GPU work from outside the profiled window",
       fmt::format("{} of {} GPU events ({:.2f}% of GPU time, {:.3f} µs): {}",
                   C.OutsideWindowGpu, C.GpuEvents, P, C.OutsideWindowTime,
                   Why),
       "these events have no launching op: excluded from the GPU "
       "timeline and op tables (kept in kernel tables)",
       "start the window on an iteration boundary: "
       "schedule(wait=1, warmup=1, active=3) with prof.step() each "
       "iteration; torch.cuda.synchronize() before the window opens"});
}

/// Links and clocks: unlinked events, skew, graph replay without capture.
void linkIssues(const Trace &T, const Counts &C, const DetectScan &Scan,
                IssueList &Issues) {
  double UnlPct = pct(C.UnlinkedTime, C.GpuTime);
  if (C.UnlinkedGpu > 0 && UnlPct >= TH::UnlinkedMinPct)
    Issues.push_back(
        {"unlinked-kernels", IssueSeverity::Warning,
         "GPU events not linked to a launch",
         fmt::format("{} of {} GPU events ({:.2f}% of GPU time) have no "
                     "launching runtime call (link key '{}')",
                     C.UnlinkedGpu, C.GpuEvents, UnlPct, T.linkKey()),
         "op attribution and the GPU timeline cover linked events only",
         "record CPU activity for the whole run "
         "(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]); "
         "profile every launching thread"});
  if (C.SkewedGpu > 0)
    Issues.push_back(
        {"clock-skew", IssueSeverity::Warning,
         "GPU events start before their launch call",
         fmt::format("{} linked GPU events start more than {:.1f} µs before "
                     "their runtime call (max {:.3f} µs)",
                     C.SkewedGpu, TH::ClockSkewToleranceUs, C.MaxSkewUs),
         "CPU/GPU overlap and launch-latency numbers (idle time, "
         "dependency gaps) are unreliable",
         "re-profile with an up-to-date profiler stack (Kineto/CUPTI or "
         "roctracer) so host and device clocks are synchronized"});
  if (C.GraphUnmergedGpu == 0)
    return;
  double P = pct(C.GraphUnmergedTime, C.GpuTime);
  if (P >= TH::GraphReplayMinPct && C.CaptureCalls == 0)
    Issues.push_back(
        {"graph-replay-without-capture", IssueSeverity::Warning,
         "GPU-graph replay without its capture",
         fmt::format("{} graph launches with no cpu_op context launched "
                     "{} of {} GPU events ({:.2f}% of GPU time); 0 "
                     "capture calls in the trace",
                     Scan.GraphLaunchEvents.size(), C.GraphUnmergedGpu,
                     C.GpuEvents, P),
         "kernels are attributed to the graph launch, not to ops: op "
         "tables, categories, perf models and fusion are limited",
         "also profile the graph capture and pass it with "
         "--capture-folder (or one run with graphs off, e.g. vLLM "
         "enforce_eager=True / SGLang --disable-cuda-graph)"});
}

/// The profiled window: devices, length, step markers.
void windowIssues(const Counts &C, llvm::ArrayRef<ProfilerStep> Steps,
                  IssueList &Issues) {
  if (C.Devices > 1)
    Issues.push_back({"multiple-devices", IssueSeverity::Warning,
                      "GPU events from more than one device",
                      fmt::format("GPU events on {} device pids", C.Devices),
                      "the GPU timeline merges devices: busy/idle times mix them",
                      "profile one device per trace (one trace per rank)"});
  if (C.GpuSpanUs < TH::ShortWindowMinUs)
    Issues.push_back(
        {"short-window", IssueSeverity::Warning,
         "profiling window too short to be representative",
         fmt::format("{} GPU events span {:.3f} µs (< {:.0f} µs)", C.GpuEvents,
                     C.GpuSpanUs, TH::ShortWindowMinUs),
         "rankings and percentages rest on very little work",
         "profile several steady-state iterations: "
         "schedule(wait=1, warmup=1, active=3)"});
  if (Steps.empty())
    Issues.push_back(
        {"no-step-markers", IssueSeverity::Info, "no ProfilerStep#N markers",
         "0 ProfilerStep annotations",
         "per-iteration statistics; warm-up and truncation checks",
         "drive the profiler with a schedule and call prof.step() each "
         "iteration: schedule(wait=1, warmup=1, active=3)"});
  else if (Steps.size() == 1)
    Issues.push_back(
        {"single-step", IssueSeverity::Info,
         "only one profiler step in the window",
         fmt::format("1 ProfilerStep (#{}, {:.3f} µs)", Steps[0].Number,
                     Steps[0].duration()),
         "step-to-step variation; warm-up check by step times",
         "profile several iterations: schedule(wait=1, warmup=1, active=3)"});
}

std::string joinEvidence(llvm::ArrayRef<std::string> Parts) {
  std::string Ev;
  for (const std::string &W : Parts)
    Ev += (Ev.empty() ? "" : "; ") + W;
  return Ev;
}

/// Warm-up: a slow first step, one-off allocations, autotuning.
void warmupIssue(const Trace &T, const Counts &C,
                 llvm::ArrayRef<ProfilerStep> Steps, IssueList &Issues) {
  std::vector<std::string> Warm;
  if (std::optional<std::string> W = warmupStepEvidence(Steps))
    Warm.push_back(std::move(*W));
  if (C.DeviceMallocs > 0)
    Warm.push_back(fmt::format("{} device allocation calls (cudaMalloc/hipMalloc)",
                               C.DeviceMallocs));
  uint64_t Autotune = 0;
  NamePredicate IsAutotune(T, isAutotuneFrame);
  for (EventKind K : {EventKind::PythonFunction, EventKind::UserAnnotation,
                      EventKind::CpuOp})
    for (EventId E : T.eventsOfKind(K))
      Autotune += IsAutotune(E);
  if (Autotune > 0)
    Warm.push_back(fmt::format("{} autotuning frames", Autotune));
  if (Warm.empty())
    return;
  Issues.push_back(
      {"warmup-in-window", IssueSeverity::Warning,
       "warm-up or first-iteration effects in the window", joinEvidence(Warm),
       "steady-state step time and per-op averages are inflated",
       "skip warm-up iterations: schedule(wait=1, warmup=1, active=3); "
       "run autotuning and allocations before the profiled steps"});
}

/// Truncation: a last step much shorter (or with much less GPU work) than
/// the others, or a last step the profiler stopped in.
void truncationIssue(llvm::ArrayRef<ProfilerStep> Steps, const DetectScan &Scan,
                     IssueList &Issues) {
  std::vector<std::string> Trunc = truncatedStepEvidence(
      Steps, Scan.HaveWindow ? std::optional<double>(Scan.WinEnd) : std::nullopt);
  if (Trunc.empty())
    return;
  Issues.push_back(
      {"truncated-final-step", IssueSeverity::Warning,
       "the final step is cut short", joinEvidence(Trunc),
       "per-step averages and the last step's GPU work are incomplete",
       "call prof.step() at the end of each iteration and "
       "torch.cuda.synchronize() before the profiler stops"});
}

} // namespace

void TraceQuality::detect(const Trace &T) {
  DetectScan Scan;
  countHostEvents(T, C);
  if (std::optional<Interval> Span = profilerSpan(T)) {
    Scan.HaveWindow = true;
    Scan.WinStart = Span->Start;
    Scan.WinEnd = Span->End;
  }
  countRuntimeCalls(T, C, Scan);
  countGpuEvents(T, C, Scan);
  countGraphLaunched(T, C, Scan);
  Steps = collectProfilerSteps(T);

  if (T.size() == 0) {
    addIssue({"empty-trace", IssueSeverity::Critical, "the trace holds no events",
              "0 events", "every analysis",
              "check that the profiler ran and exported: prof.export_chrome_trace(path)"});
    return;
  }
  verdictIssues(C, Issues);
  recordingIssues(T, C, Issues);
  if (C.GpuEvents == 0)
    return; // the GPU-side checks below need GPU events
  outsideWindowIssue(T, C, Scan, Issues);
  linkIssues(T, C, Scan, Issues);
  windowIssues(C, Steps, Issues);
  warmupIssue(T, C, Steps, Issues);
  truncationIssue(Steps, Scan, Issues);
}

void TraceQuality::deriveCapabilities() {
  using S = CapabilityState;
  auto Unavail = [&](Capability Cap, StringRef Why) {
    limit(Cap, S::Unavailable, Why);
  };
  auto Limited = [&](Capability Cap, StringRef Why) {
    limit(Cap, S::Limited, Why);
  };
  if (has("empty-trace"))
    for (unsigned I = 0; I < NumCapabilities; ++I)
      Unavail(Capability(I), "empty trace");
  if (C.GpuEvents == 0) {
    for (Capability Cap : {Capability::GpuTimeline, Capability::KernelTables,
                           Capability::OpAttribution, Capability::PerfModels,
                           Capability::Roofline, Capability::Fusion})
      Unavail(Cap, "no GPU events");
  }
  if (C.CpuOps == 0)
    for (Capability Cap : {Capability::OpAttribution, Capability::PerfModels,
                           Capability::Roofline, Capability::Fusion})
      Unavail(Cap, "no CPU ops (gpu-only trace)");
  if (has("no-shapes")) {
    Unavail(Capability::PerfModels, "no shapes (record_shapes off)");
    Unavail(Capability::Roofline, "no shapes (record_shapes off)");
  }
  if (C.PythonFrames == 0)
    Unavail(Capability::CallStacks, "no python frames (with_stack off)");
  if (C.ModuleFrames == 0)
    Unavail(Capability::ModuleAttribution, "no nn.Module frames (with_modules off)");
  if (C.PythonFrames == 0)
    Limited(Capability::Fusion, "no call stacks (with_stack off)");
  if (has("graph-replay-without-capture")) {
    Limited(Capability::OpAttribution, "graph replay without capture");
    Limited(Capability::Fusion, "graph replay without capture");
    Limited(Capability::PerfModels, "graph replay without capture");
  }
  if (has("unlinked-kernels")) {
    Limited(Capability::OpAttribution, "unlinked GPU events");
    Limited(Capability::GpuTimeline, "unlinked GPU events excluded");
  }
  if (const QualityIssue *I = find("outside-window"))
    if (I->Severity >= IssueSeverity::Warning)
      Limited(Capability::GpuTimeline, "GPU work from outside the window excluded");
  if (has("multiple-devices"))
    Limited(Capability::GpuTimeline, "several devices merged");
  if (Steps.empty())
    Unavail(Capability::StepStats, "no ProfilerStep markers");
  else if (Steps.size() == 1)
    Limited(Capability::StepStats, "one step only");
  if (has("warmup-in-window") && Steps.size() > 1)
    Limited(Capability::StepStats, "warm-up in the window");
  if (has("truncated-final-step"))
    Limited(Capability::StepStats, "final step truncated");

  // Verdict: the most severe condition wins.
  if (has("empty-trace"))
    Verdict = QualityVerdict::Empty;
  else if (has("no-gpu-events"))
    Verdict = QualityVerdict::NoGpu;
  else if (has("gpu-only"))
    Verdict = QualityVerdict::GpuOnly;
  else if (llvm::any_of(Issues, [](const QualityIssue &I) {
             return I.Severity >= IssueSeverity::Warning;
           }))
    Verdict = QualityVerdict::Degraded;
  else
    Verdict = QualityVerdict::Ok;
}

//===----------------------------------------------------------------------===//
// Pipeline choice
//===----------------------------------------------------------------------===//

PipelineChoice tl::choosePipeline(llvm::ArrayRef<GateRequest> Requested,
                                  const TraceQuality &Q) {
  PipelineChoice R;
  for (const GateRequest &Req : Requested) {
    const std::string &P = Req.Pass;
    std::string Missing, Limits;
    for (Capability Cap : Req.Needs) {
      CapabilityState S = Q.capability(Cap);
      std::string Why = fmt::format("{} {} ({})", capabilityName(Cap),
                                    capabilityStateName(S),
                                    Q.capabilityReason(Cap).str());
      if (S == CapabilityState::Unavailable)
        Missing += (Missing.empty() ? "" : ", ") + Why;
      else if (S == CapabilityState::Limited)
        Limits += (Limits.empty() ? "" : ", ") + Why;
    }
    if (!Missing.empty()) {
      R.Skipped.push_back(P);
      R.Notes.push_back(fmt::format("skipped {}: {}", P, Missing));
      continue;
    }
    R.Run.push_back(P);
    if (!Limits.empty())
      R.Notes.push_back(fmt::format("{} runs with {}", P, Limits));
  }
  if (Q.available(Capability::OpAttribution) &&
      !Q.available(Capability::PerfModels) && !R.Run.empty())
    R.Notes.push_back(fmt::format("no perf-model metrics (FLOPs, bytes, "
                                  "roofline): {}",
                                  Q.capabilityReason(Capability::PerfModels)));
  if (!R.Skipped.empty()) {
    R.Fallback = true;
    std::vector<std::string> Left;
    if (Q.available(Capability::GpuTimeline))
      Left.push_back("GPU timeline");
    if (Q.available(Capability::KernelTables))
      Left.push_back("kernel tables");
    for (const std::string &P : R.Run)
      Left.push_back(P);
    std::string L;
    for (const std::string &S : Left)
      L += (L.empty() ? "" : ", ") + S;
    R.Mode = fmt::format("fallback ({}): {}", verdictName(Q.verdict()),
                         L.empty() ? std::string("nothing to analyze") : L);
    R.Notes.push_back(R.Mode);
  }
  return R;
}
