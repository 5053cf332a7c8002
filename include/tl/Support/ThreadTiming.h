//===- ThreadTiming.h - Per-thread CPU time and time-trace setup -*- C++ -*-===//
//
// Passes, prefetched analyses and emitters run on pool threads; their
// --timing CPU figures and --time-trace events are per thread.
//
//===----------------------------------------------------------------------===//

#ifndef TL_SUPPORT_THREADTIMING_H
#define TL_SUPPORT_THREADTIMING_H

namespace tl {

/// CPU time of the calling thread in seconds (0 when unavailable).
double threadCpuSeconds();

/// Gives a pool thread its own time-trace profiler instance for the scope
/// when Enabled and the thread has none (the main thread's is kept).
class TimeTraceThreadScope {
public:
  explicit TimeTraceThreadScope(bool Enabled);
  ~TimeTraceThreadScope();
  TimeTraceThreadScope(const TimeTraceThreadScope &) = delete;
  TimeTraceThreadScope &operator=(const TimeTraceThreadScope &) = delete;

private:
  bool Owned = false;
};

} // namespace tl

#endif
