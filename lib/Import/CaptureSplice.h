//===- CaptureSplice.h - Copy capture subtrees under graph launches -*- C++ -*-===//
//
// The edit of spec/tracelens-inference.md §C.7 on the IR: appends the
// copies, re-parents the replayed kernels and rebuilds the structure that
// depends on the tree (children, cpu roots, subtree GPU ranges).
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_IMPORT_CAPTURESPLICE_H
#define TL_LIB_IMPORT_CAPTURESPLICE_H

#include "CaptureRoots.h"

#include <utility>
#include <vector>

namespace tl {

/// One aligned (capture root, graph launch) pair.
struct SplicePlan {
  EventId GraphLaunch = NoEvent;
  const Trace *Capture = nullptr;
  const CaptureRootInfo *Root = nullptr;
  /// (replayed GPU event of T, subtree index of its capture launch).
  std::vector<std::pair<EventId, uint32_t>> Pairs;
};

/// Apply the plans to T in order. Copies get the next UIDs, the graph
/// launch's ts, dur and track, and args copied into T. Returns the number
/// of events copied.
uint64_t spliceCaptures(Trace &T, llvm::ArrayRef<SplicePlan> Plans);

} // namespace tl

#endif // TL_LIB_IMPORT_CAPTURESPLICE_H
