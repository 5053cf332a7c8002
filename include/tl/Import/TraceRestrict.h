//===- TraceRestrict.h - Keep a subset of a trace's events ------*- C++ -*-===//
//
// The one IR edit behind --steps: after import, the trace keeps only the
// events of the selected window, and every analysis, pass and emitter sees
// that window as if it were the whole trace. Which events belong to the
// window is the step selection's business (tl/Analysis/StepSelection.h);
// this edit keeps what it is told and rebuilds the structure so that every
// invariant of verifyTrace() holds.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IMPORT_TRACERESTRICT_H
#define TL_IMPORT_TRACERESTRICT_H

#include "tl/IR/Trace.h"
#include "tl/IR/TraceWindow.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace tl {

/// Keep the events E with Keep[E] != 0 (Keep has one entry per event) and
/// the allocator instants with ts in [W.HostStart, W.HostEnd), and record W
/// as traceWindow(T). A kept host event whose parent is dropped
/// becomes a root, a kept GPU event whose launcher is dropped becomes
/// unlinked (for a time window neither happens to a descendant of a kept
/// event: a parent starts no later than its children). Event ids are
/// renumbered; uids, names, args and tracks stay.
void restrictTrace(Trace &T, llvm::ArrayRef<uint8_t> Keep, TraceWindow W);

} // namespace tl

#endif // TL_IMPORT_TRACERESTRICT_H
