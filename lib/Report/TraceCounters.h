//===- TraceCounters.h - Counter tracks of the annotated trace -*- C++ -*-===//
//
// The step functions trace_annotated.json.gz draws as Chrome-trace counters
// (docs/ReportFormat.md, "Annotated trace"): each is a list of (ts, value)
// points, one wherever the value changes, holding until the next point.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_TRACECOUNTERS_H
#define TL_REPORT_TRACECOUNTERS_H

#include <cstdint>
#include <utility>
#include <vector>

namespace tl {

class Trace;
class AnalysisManager;

struct CounterPoint {
  double Ts = 0; // µs, the trace's clock
  int64_t Value = 0;
};

struct TraceCounters {
  /// 1 while any GPU event of the GPU timeline runs (its union), else 0.
  std::vector<CounterPoint> GpuBusy;
  /// 1 while communication runs with no computation beside it, else 0.
  std::vector<CounterPoint> ExposedComm;
  /// GPU events launched (runtime event start) and not yet finished.
  std::vector<CounterPoint> QueueDepth;
};

TraceCounters computeTraceCounters(const Trace &T, AnalysisManager &AM);

/// The step function of a sum of changes (ts, delta) starting from 0: one
/// point per distinct ts where the running value differs from the last
/// point's (the first point where it leaves 0).
std::vector<CounterPoint>
stepFunction(std::vector<std::pair<double, int64_t>> Changes);

} // namespace tl

#endif // TL_REPORT_TRACECOUNTERS_H
