//===- ThreadTiming.cpp - Per-thread CPU time and time-trace setup --------===//
#include "tl/Support/ThreadTiming.h"

#include "llvm/Support/TimeProfiler.h"

#include <time.h>

namespace tl {

double threadCpuSeconds() {
  timespec TS;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &TS) != 0)
    return 0;
  return TS.tv_sec + TS.tv_nsec * 1e-9;
}

TimeTraceThreadScope::TimeTraceThreadScope(bool Enabled) {
  if (Enabled && !llvm::getTimeTraceProfilerInstance()) {
    llvm::timeTraceProfilerInitialize(/*TimeTraceGranularity=*/0, "tl-opt");
    Owned = true;
  }
}

TimeTraceThreadScope::~TimeTraceThreadScope() {
  if (Owned)
    llvm::timeTraceProfilerFinishThread();
}

} // namespace tl
