//===- GpuTimeline.cpp - GPU busy/idle/comm/memcpy decomposition ---------===//
//
// Spec tracelens-perf-report.md §3: bucket the (linked) GPU events, merge
// each bucket's [ts, ts + dur] intervals and measure unions and differences.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/GpuTimeline.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/OpCategory.h"

using namespace tl;

GpuBucket tl::gpuBucket(const Trace &T, EventId E) {
  EventKind K = T.kind(E);
  if (K == EventKind::Memcpy)
    return GpuBucket::Memcpy;
  llvm::StringRef Name = T.name(E);
  if (K == EventKind::Kernel) {
    if (isLegacyCopyKernel(Name))
      return GpuBucket::Memcpy;
    if (isFillKernel(Name))
      return GpuBucket::Computation;
  }
  if (isCommKernel(Name))
    return GpuBucket::Communication;
  // Memset counts as computation (§3.2).
  return GpuBucket::Computation;
}

GpuBucket GpuBucketer::operator()(EventId E) {
  uint64_t Key = (uint64_t(T.nameId(E)) << 8) | uint64_t(T.kind(E));
  auto [It, New] = Memo.try_emplace(Key, GpuBucket::Computation);
  if (New)
    It->second = gpuBucket(T, E);
  return It->second;
}

GpuTimeline::GpuTimeline(const Trace &T, AnalysisManager &AM) {
  bool IncludeUnlinked = AM.options().IncludeUnlinked;
  for (EventId E : T.gpuEvents())
    if (IncludeUnlinked || T.isLinked(E))
      Events.push_back(E);
  compute(T);
}

GpuTimeline::GpuTimeline(const Trace &T, std::vector<EventId> Evs)
    : Events(std::move(Evs)) {
  compute(T);
}

void GpuTimeline::compute(const Trace &T) {
  std::vector<Interval> CompI, CommI, CopyI, AllI;
  GpuBucketer Bucket(T);
  AllI.reserve(Events.size());
  for (EventId E : Events) {
    Interval I{T.ts(E), T.end(E)};
    AllI.push_back(I);
    switch (Bucket(E)) {
    case GpuBucket::Computation:
      CompI.push_back(I);
      break;
    case GpuBucket::Communication:
      CommI.push_back(I);
      break;
    case GpuBucket::Memcpy:
      CopyI.push_back(I);
      break;
    }
  }
  if (Events.empty())
    return;
  Comp = mergeIntervals(std::move(CompI));
  Comm = mergeIntervals(std::move(CommI));
  Copy = mergeIntervals(std::move(CopyI));
  All = mergeIntervals(std::move(AllI));

  Computation = totalLength(Comp);
  ExposedComm = totalLength(subtractIntervals(Comp, Comm));
  ExposedMemcpy =
      totalLength(subtractIntervals(Comm, subtractIntervals(Comp, Copy)));
  Busy = totalLength(All);
  Start = All.front().Start;
  Total = All.back().End - All.front().Start;
  TotalComm = totalLength(Comm);
  TotalMemcpy = totalLength(Copy);
}

llvm::ArrayRef<Interval> GpuTimeline::merged(GpuBucket B) const {
  switch (B) {
  case GpuBucket::Computation:
    return Comp;
  case GpuBucket::Communication:
    return Comm;
  case GpuBucket::Memcpy:
    return Copy;
  }
  return {};
}
