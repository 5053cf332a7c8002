//===- TraceQuality.h - Trace-quality gate and pipeline choice -*- C++ -*-===//
//
// Before any pass runs, the quality gate inspects the trace: what the
// profiler recorded (shapes, call stacks, CPU ops), whether kernels link to
// their launches, and whether the profiled window is representative. Every
// problem becomes an Issue with its evidence (numbers from the trace), what
// it disables and how to re-profile. From the issues the gate derives the
// capabilities the data supports and, with choosePipeline(), the passes
// that can run: a trace never makes the analysis fail, it makes it narrower
// and says so. Detections and thresholds: docs/TraceQuality.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_TRACEQUALITY_H
#define TL_ANALYSIS_TRACEQUALITY_H

#include "tl/Analysis/ProfilerSteps.h"
#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// Named thresholds of the detections (documented in docs/TraceQuality.md).
struct QualityThresholds {
  /// warmup-in-window: first step longer than this × median of the others.
  static constexpr double WarmupStepRatio = 1.5;
  /// truncated-final-step: last step (time or GPU events) below this ×
  /// median of the others.
  static constexpr double TruncatedStepRatio = 0.5;
  /// truncated-final-step: last step ends within this of the profiler end
  /// (stopping the profiler mid-step closes the step at the stop time).
  /// Also the margin for GPU events outside the profiler span.
  static constexpr double TraceEndToleranceUs = 0.5;
  /// unlinked-kernels: unlinked GPU time (not explained by outside-window)
  /// at or above this % of all GPU time.
  static constexpr double UnlinkedMinPct = 5.0;
  /// outside-window: reported as a warning at or above this % of GPU time,
  /// as info below.
  static constexpr double OutsideWindowWarnPct = 1.0;
  /// clock-skew: GPU event starting this much before its launch call.
  static constexpr double ClockSkewToleranceUs = 1.0;
  /// graph-replay-without-capture: graph-launched share of GPU time.
  static constexpr double GraphReplayMinPct = 50.0;
  /// short-window: first GPU start to last GPU end below this (µs).
  static constexpr double ShortWindowMinUs = 1000.0;
};

enum class IssueSeverity : uint8_t { Info, Warning, Critical };
llvm::StringRef severityName(IssueSeverity S); // "info", "warning", "critical"

/// Things an analysis can do with the data. Each is Full, Limited or
/// Unavailable for a given trace.
enum class Capability : uint8_t {
  GpuTimeline,       // busy/idle/comm/memcpy decomposition
  KernelTables,      // kernel summary, short kernels
  OpAttribution,     // kernels -> launching cpu_op (ops tables, categories)
  PerfModels,        // FLOPs/bytes from shapes
  Roofline,          // perf models against an arch spec
  CallStacks,        // python frames above ops
  ModuleAttribution, // nn.Module frames (per-module time, model family)
  Fusion,            // fusion candidates over op sequences
  StepStats,         // per-iteration statistics from ProfilerStep#N
};
inline constexpr unsigned NumCapabilities = 9;
/// Stable spelling: "gpu-timeline", "kernel-tables", "op-attribution",
/// "perf-models", "roofline", "call-stacks", "module-attribution", "fusion",
/// "step-stats".
llvm::StringRef capabilityName(Capability C);

enum class CapabilityState : uint8_t { Full, Limited, Unavailable };
llvm::StringRef capabilityStateName(CapabilityState S); // "full", ...

/// One problem found in the trace.
struct QualityIssue {
  std::string Id; // stable: "no-shapes", "gpu-only", ... (docs/TraceQuality.md)
  IssueSeverity Severity = IssueSeverity::Warning;
  std::string Summary;   // one line, e.g. "no tensor shapes recorded"
  std::string Evidence;  // numbers from the trace
  std::string Disables;  // what the report cannot show because of it
  std::string Reprofile; // how to record a better trace
};

/// Overall verdict, most severe first.
enum class QualityVerdict : uint8_t {
  Empty,    // no events at all
  NoGpu,    // host events only: nothing to analyze on the GPU side
  GpuOnly,  // GPU events without CPU ops (GPU-side analyses only)
  Degraded, // warnings: some analyses limited or unavailable
  Ok,       // nothing worse than info
};
llvm::StringRef verdictName(QualityVerdict V); // "empty", "no-gpu", "gpu-only", "degraded", "ok"

class TraceQuality {
public:
  static constexpr llvm::StringLiteral Name = "trace-quality";
  TraceQuality(const Trace &T, AnalysisManager &AM);
  explicit TraceQuality(const Trace &T);

  QualityVerdict verdict() const { return Verdict; }
  llvm::ArrayRef<QualityIssue> issues() const { return Issues; }
  /// The issue with this id, or null.
  const QualityIssue *find(llvm::StringRef Id) const;
  bool has(llvm::StringRef Id) const { return find(Id) != nullptr; }

  CapabilityState capability(Capability C) const {
    return Caps[unsigned(C)];
  }
  bool available(Capability C) const {
    return capability(C) != CapabilityState::Unavailable;
  }
  /// One line per limited/unavailable capability, saying why.
  llvm::StringRef capabilityReason(Capability C) const {
    return CapReasons[unsigned(C)];
  }

  /// Numbers the detections used (also printed as evidence).
  struct Counts {
    uint64_t CpuOps = 0, CpuOpsWithShapes = 0, PythonFrames = 0,
             ModuleFrames = 0, GpuEvents = 0, Kernels = 0, Runtime = 0,
             UnlinkedGpu = 0, OutsideWindowGpu = 0, SkewedGpu = 0,
             GraphLaunches = 0, GraphLaunchedGpu = 0, CaptureCalls = 0,
             DeviceMallocs = 0, Devices = 0;
    /// GPU events still hanging directly under a graph launch: those the
    /// capture merge (docs/Inference.md) gave no capture context.
    uint64_t GraphUnmergedGpu = 0;
    double GraphUnmergedTime = 0;
    double GpuTime = 0;            // Σ dur of GPU events (µs)
    double UnlinkedTime = 0;       // Σ dur, unlinked and inside the window
    double OutsideWindowTime = 0;  // Σ dur, launched before profiling began
    double GraphLaunchedTime = 0;  // Σ dur under graph launches w/o cpu_op
    double MaxSkewUs = 0;
    double GpuSpanUs = 0;          // first GPU start .. last GPU end
  };
  const Counts &counts() const { return C; }
  llvm::ArrayRef<ProfilerStep> steps() const { return Steps; }

private:
  void detect(const Trace &T);
  void deriveCapabilities();
  void addIssue(QualityIssue I) { Issues.push_back(std::move(I)); }
  void limit(Capability Cap, CapabilityState S, llvm::StringRef Why);

  QualityVerdict Verdict = QualityVerdict::Ok;
  std::vector<QualityIssue> Issues;
  CapabilityState Caps[NumCapabilities] = {};
  std::string CapReasons[NumCapabilities];
  Counts C;
  std::vector<ProfilerStep> Steps;
};

/// What the driver should run.
struct PipelineChoice {
  std::vector<std::string> Run;     // requested passes that can run, in order
  std::vector<std::string> Skipped; // requested passes dropped by the gate
  /// Human-readable lines for the report ("skipped gemm: op-attribution
  /// unavailable (gpu-only trace)", "fallback: ...").
  std::vector<std::string> Notes;
  /// True when the gate narrowed the pipeline (the report says so).
  bool Fallback = false;
  /// "full", or "fallback: <what is left>" for the report header.
  std::string Mode = "full";
};

/// A pass asking the gate to run: its name and the capabilities it declares
/// it needs (Pass::requiredCapabilities()).
struct GateRequest {
  std::string Pass;
  std::vector<Capability> Needs;
};

/// Filter the requested passes to those the trace supports. Passes that
/// need a Limited capability still run, with a note.
PipelineChoice choosePipeline(llvm::ArrayRef<GateRequest> Requested,
                              const TraceQuality &Q);

} // namespace tl

#endif // TL_ANALYSIS_TRACEQUALITY_H
