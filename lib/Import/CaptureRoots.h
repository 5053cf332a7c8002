//===- CaptureRoots.h - The host subtrees of capture windows ----*- C++ -*-===//
//
// In a capture trace, each StreamBeginCapture / StreamEndCapture pair
// brackets the host work recorded into one graph. Its subtree is what the
// merge copies under a graph launch (spec/tracelens-inference.md §C.4).
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_IMPORT_CAPTUREROOTS_H
#define TL_LIB_IMPORT_CAPTUREROOTS_H

#include "tl/IR/Trace.h"

#include <cstdint>
#include <vector>

namespace tl {

/// One capture window: a synthetic `CaptureRoot` over the window's top
/// host events, and its subtree in the order the copies get their UIDs.
struct CaptureRootInfo {
  double Ts = 0, Dur = 0; // the window
  /// Capture events breadth-first from the CaptureRoot, stably sorted by
  /// ts; [0] is the CaptureRoot itself (NoEvent: it exists only here).
  std::vector<EventId> Subtree;
  /// Subtree index of each member's parent (0 for the tops; [0] unused).
  std::vector<uint32_t> ParentIdx;
  /// Children of each member as subtree indices (CSR, ts order).
  std::vector<uint32_t> ChildBegin, Children;
  /// Subtree indices of the launch calls (runtime/driver events whose name
  /// contains launch, memcpy or memset), in subtree order.
  std::vector<uint32_t> Launches;
  /// Subtree indices of the capture's cpu roots, in the capture's order.
  std::vector<uint32_t> CpuRoots;
};

/// The capture roots of C, one per Begin/End pair (paired by position).
std::vector<CaptureRootInfo> findCaptureRoots(const Trace &C);

} // namespace tl

#endif // TL_LIB_IMPORT_CAPTUREROOTS_H
