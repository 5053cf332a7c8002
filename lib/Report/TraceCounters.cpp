//===- TraceCounters.cpp - Counter tracks of the annotated trace ----------===//
//
// Exact step functions, no bins: the busy and exposed-communication tracks
// are the GPU timeline's own interval sets (so their 1-segments sum to the
// gpu_timeline sheet's busy_time and exposed_comm_time), the queue depth a
// sweep over launch and end times.
//
//===----------------------------------------------------------------------===//
#include "TraceCounters.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>

namespace tl {

std::vector<CounterPoint>
stepFunction(std::vector<std::pair<double, int64_t>> Changes) {
  // The changes at one ts are summed, so their order does not matter.
  std::sort(Changes.begin(), Changes.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<CounterPoint> Out;
  int64_t V = 0, Last = 0;
  for (size_t I = 0; I < Changes.size();) {
    double Ts = Changes[I].first;
    // Every change at one instant applies at once: no spike in between.
    for (; I < Changes.size() && Changes[I].first == Ts; ++I)
      V += Changes[I].second;
    if (V != Last) {
      Out.push_back({Ts, V});
      Last = V;
    }
  }
  return Out;
}

static std::vector<CounterPoint> indicator(llvm::ArrayRef<Interval> Set) {
  std::vector<std::pair<double, int64_t>> C;
  C.reserve(2 * Set.size());
  for (const Interval &I : Set) {
    C.push_back({I.Start, 1});
    C.push_back({I.End, -1});
  }
  return stepFunction(std::move(C));
}

TraceCounters computeTraceCounters(const Trace &T, AnalysisManager &AM) {
  TraceCounters Out;
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  Out.GpuBusy = indicator(TL.mergedAll());
  std::vector<Interval> Comp(TL.merged(GpuBucket::Computation).begin(),
                             TL.merged(GpuBucket::Computation).end());
  std::vector<Interval> Comm(TL.merged(GpuBucket::Communication).begin(),
                             TL.merged(GpuBucket::Communication).end());
  // Communication minus computation: GpuTimeline's exposed_comm_time.
  Out.ExposedComm = indicator(subtractIntervals(Comp, Comm));

  // In the queue from the launching runtime call's start to the GPU
  // event's end (an end before the launch, clock skew, counts nothing).
  std::vector<std::pair<double, int64_t>> Q;
  for (EventId E : T.gpuEvents()) {
    EventId L = T.isLinked(E) ? T.parent(E) : NoEvent;
    if (L == NoEvent)
      continue;
    double From = T.ts(L), To = T.end(E);
    if (!(To > From))
      continue;
    Q.push_back({From, 1});
    Q.push_back({To, -1});
  }
  Out.QueueDepth = stepFunction(std::move(Q));
  return Out;
}

} // namespace tl
