//===- GpuTimeline.h - GPU busy/idle/comm/memcpy decomposition -*- C++ -*-===//
//
// The eight metrics of the reference's gpu_timeline sheet (spec
// tracelens-perf-report.md §3): interval unions over the linked GPU events
// (all GPU events with AnalysisOptions::IncludeUnlinked), bucketed into
// computation / communication / memcpy.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_GPUTIMELINE_H
#define TL_ANALYSIS_GPUTIMELINE_H

#include "tl/IR/Trace.h"
#include "tl/Support/Intervals.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <utility>
#include <vector>

namespace tl {

class AnalysisManager;

/// Which bucket a GPU event counts in (spec §3.2). Memset is computation.
enum class GpuBucket : uint8_t { Computation, Communication, Memcpy };
GpuBucket gpuBucket(const Trace &T, EventId E);

/// gpuBucket with its name tests done once per distinct (kind, name): the
/// tests scan the name, and traces repeat a few thousand kernel names over
/// millions of events.
class GpuBucketer {
public:
  explicit GpuBucketer(const Trace &T) : T(T) {}
  GpuBucket operator()(EventId E);

private:
  const Trace &T;
  llvm::DenseMap<uint64_t, GpuBucket> Memo;
};

/// GPU intervals by bucket, collected unmerged, then merged once, and
/// gpu_timeline's measures of them (spec §3): exposed comm is comm not
/// under computation, exposed memcpy is memcpy under neither.
struct BucketIntervals {
  std::vector<Interval> Comp, Comm, Copy;
  void push(GpuBucket B, Interval I);
  void merge();
  double computation() const { return totalLength(Comp); }
  double exposedComm() const;
  double exposedMemcpy() const;
  double totalComm() const { return totalLength(Comm); }
  double totalMemcpy() const { return totalLength(Copy); }
};

class GpuTimeline {
public:
  static constexpr llvm::StringLiteral Name = "gpu-timeline";
  GpuTimeline(const Trace &T, AnalysisManager &AM);
  /// The timeline over an explicit set of GPU events (file order), e.g. the
  /// recompute / non-recompute halves of --detect-recompute.
  GpuTimeline(const Trace &T, std::vector<EventId> Events);

  /// All in µs.
  double computationTime() const { return Computation; }
  double exposedCommTime() const { return ExposedComm; }
  double exposedMemcpyTime() const { return ExposedMemcpy; }
  double busyTime() const { return Busy; }
  double idleTime() const { return Total - Busy; }
  double totalTime() const { return Total; }
  double totalCommTime() const { return TotalComm; }
  double totalMemcpyTime() const { return TotalMemcpy; }
  /// Percent of totalTime() (0 when the total is 0).
  double percent(double Us) const { return Total > 0 ? Us / Total * 100 : 0; }

  /// False when the trace has no (linked) GPU events.
  bool hasGpuEvents() const { return !Events.empty(); }
  /// The events the timeline covers, in file order.
  llvm::ArrayRef<EventId> events() const { return Events; }
  /// Merged busy intervals per bucket and overall.
  llvm::ArrayRef<Interval> merged(GpuBucket B) const;
  llvm::ArrayRef<Interval> mergedAll() const { return All; }
  /// First start and last end of the covered events.
  double start() const { return Start; }
  double end() const { return All.empty() ? 0 : All.back().End; }

private:
  void compute(const Trace &T);
  std::vector<EventId> Events;
  BucketIntervals Buckets;
  std::vector<Interval> All;
  double Computation = 0, ExposedComm = 0, ExposedMemcpy = 0, Busy = 0,
         Total = 0, TotalComm = 0, TotalMemcpy = 0, Start = 0;
};

} // namespace tl

#endif // TL_ANALYSIS_GPUTIMELINE_H
