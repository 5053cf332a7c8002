//===- TraceStart.cpp - The origin of report times ------------------------===//
#include "tl/Analysis/TraceStart.h"

#include "tl/IR/Trace.h"

namespace tl {

double traceStartUs(const Trace &T) {
  double Start = 0;
  for (EventId E = 0; E < T.size(); ++E)
    if (E == 0 || T.ts(E) < Start)
      Start = T.ts(E);
  return Start;
}

} // namespace tl
