//===- MemoryEvent.h - The allocator's instants in the IR ------*- C++ -*-===//
//
// The only instant events the IR keeps: the caching allocator's `[memory]`
// and `[OutOfMemory]` events (spec memory-timeline.md §2). They are stored
// beside the complete events, not among them, so EventIds and everything
// indexed by them are unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IR_MEMORYEVENT_H
#define TL_IR_MEMORYEVENT_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace tl {

/// One allocator call, in file order. Fields absent from the event's args
/// are nullopt; pid/tid are the CPU thread that called the allocator.
struct MemoryEvent {
  uint64_t Uid = 0;
  double Ts = 0;
  TrackPart Pid, Tid;
  bool OutOfMemory = false; // `[OutOfMemory]`: a failed allocation
  std::optional<int64_t> Bytes, TotalAllocated, TotalReserved, Addr, DeviceId,
      DeviceType;
};

/// T's allocator events, in file order.
llvm::ArrayRef<MemoryEvent> memoryEvents(const Trace &T);

} // namespace tl

#endif // TL_IR_MEMORYEVENT_H
