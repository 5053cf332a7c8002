//===- LaunchStats.cpp - Kernel launch latency and idle causes -----------===//
#include "tl/Analysis/LaunchStats.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Support/Intervals.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace tl;

namespace {
bool isSyncCall(llvm::StringRef N) {
  return N.ends_with("Synchronize") || N.contains("Synchronize(");
}

/// |[A, B] ∩ S| for merged, sorted S.
double coverage(const std::vector<Interval> &S, double A, double B) {
  double L = 0;
  auto It = std::lower_bound(S.begin(), S.end(), A,
                             [](const Interval &I, double V) {
                               return I.End < V;
                             });
  for (; It != S.end() && It->Start < B; ++It)
    L += std::max(0.0, std::min(B, It->End) - std::max(A, It->Start));
  return L;
}
} // namespace

LaunchStats::LaunchStats(const Trace &T, AnalysisManager &AM) {
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  std::vector<double> Lat;
  llvm::DenseMap<StrId, size_t> Idx; // pooled names: equal ids, equal texts
  double FirstLaunch = 0, LastLaunch = 0;
  for (EventId E : TL.events()) {
    if (T.kind(E) != EventKind::Kernel)
      continue;
    ++Kernels;
    KernelUs += T.dur(E);
    if (T.dur(E) < 10)
      ++Short;
    EventId R = T.parent(E);
    double L = 0, Call = 0;
    if (R != NoEvent) {
      L = T.ts(E) - T.ts(R);
      Call = T.dur(R);
      if (Lat.empty() || T.ts(R) < FirstLaunch)
        FirstLaunch = T.ts(R);
      LastLaunch = std::max(LastLaunch, T.ts(R));
      Lat.push_back(L);
    }
    LatencyUs += L;
    auto [It, New] = Idx.try_emplace(T.nameId(E), PerKernel.size());
    if (New)
      PerKernel.push_back({T.name(E).str(), 0, 0, 0, 0, 0});
    KernelLaunchStats &K = PerKernel[It->second];
    ++K.Count;
    K.TotalKernelUs += T.dur(E);
    K.TotalLatencyUs += L;
    K.TotalLaunchCallUs += Call;
    if (R != NoEvent && T.dur(E) < Call) {
      ++K.ShorterThanLaunch;
      ++Shorter;
    }
  }
  if (!Lat.empty()) {
    std::vector<double> &S = Lat; // not needed in file order any more
    // Order statistics by selection: the values a full sort would put at
    // these positions.
    auto At = [&](size_t K) {
      std::nth_element(S.begin(), S.begin() + K, S.end());
      return S[K];
    };
    size_t Mid = S.size() / 2;
    if (S.size() % 2) {
      MedianLatency = At(Mid);
    } else {
      double Hi = At(Mid);
      // After the selection the lower half holds the smaller values.
      double Lo = *std::max_element(S.begin(), S.begin() + Mid);
      MedianLatency = (Lo + Hi) / 2;
    }
    P90Latency = At(std::min(S.size() - 1, size_t(0.9 * (S.size() - 1) + 0.5)));
    if (LastLaunch > FirstLaunch)
      Rate = Lat.size() / ((LastLaunch - FirstLaunch) / 1e6);
  }
  std::stable_sort(PerKernel.begin(), PerKernel.end(),
                   [](const KernelLaunchStats &A, const KernelLaunchStats &B) {
                     if (A.Count != B.Count)
                       return A.Count > B.Count;
                     return A.Name < B.Name;
                   });

  // Host activity: synchronize calls, and everything else the host did
  // (CPU op roots and runtime calls).
  std::vector<Interval> SyncI, BusyI;
  NamePredicate IsSync(T, isSyncCall);
  for (EventKind K : {EventKind::Runtime, EventKind::Driver})
    for (EventId E : T.eventsOfKind(K)) {
      Interval I{T.ts(E), T.end(E)};
      (IsSync(E) ? SyncI : BusyI).push_back(I);
    }
  for (EventId E : T.cpuRoots())
    BusyI.push_back({T.ts(E), T.end(E)});
  std::vector<Interval> Sync = mergeIntervals(std::move(SyncI));
  std::vector<Interval> Busy = subtractIntervals(Sync,
                                                 mergeIntervals(std::move(BusyI)));

  // Gaps between merged busy intervals; the kernels on either side.
  llvm::ArrayRef<Interval> All = TL.mergedAll();
  for (size_t I = 1; I < All.size(); ++I) {
    IdleGap G;
    G.Start = All[I - 1].End;
    G.End = All[I].Start;
    if (G.End <= G.Start)
      continue;
    G.SyncUs = coverage(Sync, G.Start, G.End);
    G.LaunchUs = coverage(Busy, G.Start, G.End);
    G.NoHostUs = std::max(0.0, G.length() - G.SyncUs - G.LaunchUs);
    SyncUs += G.SyncUs;
    LaunchUs += G.LaunchUs;
    NoHostUs += G.NoHostUs;
    Gaps.push_back(G);
  }
  // Neighbouring events: one sweep over events sorted by start.
  std::vector<EventId> ByStart(TL.events().begin(), TL.events().end());
  auto ByTs = [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); };
  if (!std::is_sorted(ByStart.begin(), ByStart.end(), ByTs))
    std::stable_sort(ByStart.begin(), ByStart.end(), ByTs);
  size_t J = 0;
  EventId LastEnded = NoEvent;
  for (IdleGap &G : Gaps) {
    while (J < ByStart.size() && T.ts(ByStart[J]) < G.End) {
      if (LastEnded == NoEvent || T.end(ByStart[J]) >= T.end(LastEnded))
        LastEnded = ByStart[J];
      ++J;
    }
    G.KernelBefore = LastEnded;
    if (J < ByStart.size()) {
      G.KernelAfter = ByStart[J];
      for (EventId P = T.parent(G.KernelAfter); P != NoEvent; P = T.parent(P))
        if (T.kind(P) == EventKind::CpuOp) {
          G.OpAfter = P;
          break;
        }
    }
  }
}
