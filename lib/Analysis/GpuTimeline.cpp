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

void BucketIntervals::push(GpuBucket B, Interval I) {
  switch (B) {
  case GpuBucket::Computation:
    Comp.push_back(I);
    break;
  case GpuBucket::Communication:
    Comm.push_back(I);
    break;
  case GpuBucket::Memcpy:
    Copy.push_back(I);
    break;
  }
}

void BucketIntervals::merge() {
  Comp = mergeIntervals(std::move(Comp));
  Comm = mergeIntervals(std::move(Comm));
  Copy = mergeIntervals(std::move(Copy));
}

double BucketIntervals::exposedComm() const {
  return totalLength(subtractIntervals(Comp, Comm));
}

double BucketIntervals::exposedMemcpy() const {
  return totalLength(subtractIntervals(Comm, subtractIntervals(Comp, Copy)));
}

void GpuTimeline::compute(const Trace &T) {
  std::vector<Interval> AllI;
  GpuBucketer Bucket(T);
  AllI.reserve(Events.size());
  for (EventId E : Events) {
    Interval I{T.ts(E), T.end(E)};
    AllI.push_back(I);
    Buckets.push(Bucket(E), I);
  }
  if (Events.empty())
    return;
  Buckets.merge();
  All = mergeIntervals(std::move(AllI));

  Computation = Buckets.computation();
  ExposedComm = Buckets.exposedComm();
  ExposedMemcpy = Buckets.exposedMemcpy();
  Busy = totalLength(All);
  Start = All.front().Start;
  Total = All.back().End - All.front().Start;
  TotalComm = Buckets.totalComm();
  TotalMemcpy = Buckets.totalMemcpy();
}

llvm::ArrayRef<Interval> GpuTimeline::merged(GpuBucket B) const {
  switch (B) {
  case GpuBucket::Computation:
    return Buckets.Comp;
  case GpuBucket::Communication:
    return Buckets.Comm;
  case GpuBucket::Memcpy:
    return Buckets.Copy;
  }
  return {};
}
