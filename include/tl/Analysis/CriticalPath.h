//===- CriticalPath.h - Last-arrival critical path per step ----*- C++ -*-===//
//
// The chain of dependent activities that produced each step's wall time
// (spec critical-path.md §6): a dependency graph over the start and end
// instants of host events (cpu_op, user_annotation, runtime, driver) and GPU
// events, with edges for spans, host nesting and program order, launches,
// in-order streams, cross-stream event waits and blocking synchronisations.
// From the window's sink the walk goes backwards, taking at every node the
// dependency satisfied last, until it reaches the window's start: the
// segments cover the window exactly, so their categories add up to its
// length.
//
// The graph is implicit: every node's predecessors come from per-event
// tables built in O(n log n) (sorting), and the walk is iterative and linear
// in the path's length.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_CRITICALPATH_H
#define TL_ANALYSIS_CRITICALPATH_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tl {

class AnalysisManager;

/// Why v could not happen before u (spec §6.2), in tie-break priority order
/// (earlier = preferred when two predecessors are equally late).
enum class CpEdgeKind : uint8_t {
  Span,    // start(e) -> end(e)
  XStream, // end(src) -> start(dst), Stream Wait Event
  Sync,    // end(gpu) -> end(blocking call)
  Stream,  // end(prev) -> start(g), same (device, stream)
  Launch,  // start(runtime call) -> start(gpu)
  NestOut, // end(child) -> end(parent)
  NestIn,  // start(parent) -> start(child)
  Seq,     // end(a) -> start(b), consecutive siblings or roots
  Start,   // no edge: from the window's start to where the walk stopped
};
llvm::StringRef cpEdgeKindName(CpEdgeKind K); // "SPAN", "NEST_IN", ...

/// Segment categories (spec §6.5), in the summary's order.
enum class CpCategory : uint8_t {
  GpuCompute,
  GpuComm,
  GpuMemcpy,
  GpuMemset,
  CpuOp,
  CpuRuntime,
  CpuSyncCall,
  HostUntraced,
  DataLoading,
  LaunchLatency,
  GpuGap,
  GpuSyncGap,
  SyncReturn,
};
inline constexpr unsigned NumCpCategories = unsigned(CpCategory::SyncReturn) + 1;
llvm::StringRef cpCategoryName(CpCategory C); // "gpu_compute", ...
bool isCpuBound(CpCategory C);
bool isGpuBound(CpCategory C);
bool isCpOverhead(CpCategory C);

/// One piece of the path, [Start, End] in µs.
struct CpSegment {
  double Start = 0, End = 0;
  CpEdgeKind Kind = CpEdgeKind::Span;
  CpCategory Category = CpCategory::HostUntraced;
  /// The event the time is charged to (§6.5); NoEvent for a gap between a
  /// thread's top-level events ("(thread)") or the window-start filler.
  EventId Event = NoEvent;
  /// The path nodes the segment joins: From's instant is Start (unclipped),
  /// To's is End. A node is an event's start or end (the *End flags).
  EventId From = NoEvent, To = NoEvent;
  bool FromEnd = false, ToEnd = false;
  /// A SYNC edge inferred without cuda_sync events (§6.3).
  bool Inferred = false;
  double dur() const { return End - Start; }
};

/// Critical time per top op (spec §6.6 critical_ops).
struct CpOpShare {
  /// Outermost cpu_op ancestor (a runtime call without one is its own top
  /// op); NoEvent = "(untraced)" (annotations, thread gaps).
  EventId TopOp = NoEvent;
  double CriticalUs = 0;
  /// From the op's start to the latest end of the op and its GPU events.
  double SpanUs = 0;
  double fraction() const { return SpanUs > 0 ? CriticalUs / SpanUs : 0; }
};

/// The path of one window: a step's W(N) (multi-rank.md §2.4), or the whole
/// trace without steps.
struct CpWindow {
  /// N of ProfilerStep#N; -1 for the whole trace or a non-numbered step.
  int64_t Step = -1;
  EventId StepEvent = NoEvent; // NoEvent for the whole trace
  double Start = 0, End = 0;   // W = [Start, End], End = the sink's time
  /// Segments in time order; they cover [Start, End] exactly.
  std::vector<CpSegment> Segments;
  std::array<double, NumCpCategories> ByCategory{};
  /// Sorted by CriticalUs descending, then by the top op's start.
  std::vector<CpOpShare> Ops;
  /// False when the walk stopped at a node without predecessors after
  /// Start (the rest is a host_untraced filler segment).
  bool ReachedStart = true;
  double length() const { return End - Start; }
  double categoryUs(CpCategory C) const { return ByCategory[unsigned(C)]; }
  double cpuBoundUs() const;
  double gpuBoundUs() const;
  double overheadUs() const;
};

class CriticalPath {
public:
  static constexpr llvm::StringLiteral Name = "critical-path";
  CriticalPath(const Trace &T, AnalysisManager &AM);

  /// One window per ProfilerStep#N in start order, or one for the whole
  /// trace when there are none.
  llvm::ArrayRef<CpWindow> windows() const { return Windows; }
  /// True when the trace has `cuda_sync` rows (else cross-stream waits are
  /// not visible and GPU->CPU waits are inferred).
  bool hasSyncEvents() const { return HasSync; }
  /// Outermost cpu_op ancestor of a host event, of a GPU event's launcher,
  /// or the runtime call itself without one; NoEvent otherwise.
  EventId topOp(EventId E) const;
  /// The runtime call that launched GPU event G: the IR's link, else the
  /// runtime call with G's correlation; NoEvent when none.
  EventId launcher(EventId G) const {
    return G < Launcher.size() ? Launcher[G] : NoEvent;
  }
  /// Critical time summed over every window, per category.
  std::array<double, NumCpCategories> totalByCategory() const;
  /// Time of the windows' segments charged to each event (summed over the
  /// windows); events off every path are absent (0).
  double criticalUsOf(EventId E) const;
  /// The part of criticalUsOf(E) inside E's own [ts, ts + dur]: E's own
  /// execution on the path. A GPU event's launch latency and stream gaps,
  /// charged to it but lying before its start, are not counted, so the
  /// value never exceeds E's duration (path impact, docs/ReportFormat.md).
  double onPathUsOf(EventId E) const;

private:
  std::vector<CpWindow> Windows;
  std::vector<EventId> TopOf; // per event, see topOp()
  std::vector<EventId> Launcher;
  std::vector<double> CriticalOf;
  std::vector<double> OwnOf; // see onPathUsOf()
  bool HasSync = false;
};

/// Where a chain walk starts (multi-rank extension, spec §6.8): a path
/// node, the start or end instant of Event, walked back no further than
/// Floor (the start of the window holding it).
struct CpChainOrigin {
  EventId Event = NoEvent;
  bool End = false;
  double Floor = 0;
};

/// A piece of critical path reduced to what a job needs once the rank's IR
/// is freed: the walk from an origin back to the first stop node (the end
/// of a stop event) or to the floor, as its time per category.
struct CpChain {
  /// [From, To]: To = the origin's instant, From = the stop's or the floor.
  double From = 0, To = 0;
  std::array<double, NumCpCategories> ByCategory{};
  /// The stop the walk reached (StopOf's value); -1: it reached the floor.
  int64_t Stop = -1;
  double length() const { return To - From; }
};

/// The walk of CriticalPath from each origin (same graph, same choice of
/// predecessor), stopping at the first node end(e) with StopOf(e) >= 0
/// later than the floor: an origin that is such a node is a chain of
/// length 0. Builds the graph once for all origins.
std::vector<CpChain>
criticalChains(const Trace &T, AnalysisManager &AM,
               llvm::ArrayRef<CpChainOrigin> Origins,
               llvm::function_ref<int64_t(EventId)> StopOf);

} // namespace tl

#endif // TL_ANALYSIS_CRITICALPATH_H
