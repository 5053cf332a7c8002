//===- MemoryTimeline.h - Allocator curves, peak and owners ----*- C++ -*-===//
//
// Spec memory-timeline.md §3: per device (Device Type, Device Id) the
// allocated and reserved bytes after each `[memory]` event (stable ts
// order), the baseline allocated before the trace, the peak with the ops
// and steps whose allocations are live at it, reserved-minus-allocated at
// the peak, allocation/free pairing by address and reserve growth events.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_MEMORYTIMELINE_H
#define TL_ANALYSIS_MEMORYTIMELINE_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// Who an allocator event belongs to (§3.5).
struct MemOwnerInfo {
  EventId Op = NoEvent;    // innermost cpu_op containing ts (half-open)
  EventId TopOp = NoEvent; // outermost cpu_op
  int64_t Step = -1;       // ProfilerStep#N containing ts, -1 none
  std::string Display;     // "aten::mm (aten::empty)", "aten::mm", "(no op)"
  /// Innermost `nn.Module: X` python frame (empty without one).
  std::string Module;
};

/// One point of a device's curves: the values after the event.
struct MemPoint {
  double Ts = 0;
  uint64_t Uid = 0;
  int64_t Bytes = 0;
  int64_t Allocated = 0;
  std::optional<int64_t> Reserved;
  bool OutOfMemory = false;
  MemOwnerInfo Owner;
};

/// An allocation paired with its free by address (§3.4).
struct MemAllocation {
  int64_t Addr = 0;
  int64_t Bytes = 0;
  double AllocTs = 0;
  std::optional<double> FreeTs; // nullopt: after the trace
  bool ReleaseUnknown = false;  // the address was reallocated without a free
  size_t AllocPoint = 0;        // index into MemDevice::Points
  /// The free's point, or for ReleaseUnknown the reallocation's.
  std::optional<size_t> FreePoint;
};

/// Live bytes at the peak per owner (§3.6).
struct MemLiveOwner {
  llvm::StringRef Kind; // "top_op", "op", "step"
  std::string Owner;
  int64_t Bytes = 0;
};

struct MemStepStats {
  int64_t Step = -1;
  double Start = 0, End = 0;
  int64_t AllocAtStart = 0, AllocAtEnd = 0, PeakInStep = 0;
  std::optional<int64_t> ReservedAtStart, ReservedAtEnd;
  uint64_t Allocs = 0, Frees = 0, ReserveGrowthEvents = 0;
  int64_t AllocBytes = 0, FreeBytes = 0;
  int64_t growth() const { return AllocAtEnd - AllocAtStart; }
};

struct MemDevice {
  std::string Name; // "cuda:0", "hip:0", "cpu", "type<N>:<id>"
  int64_t Type = 0, Id = -1;
  bool isGpu() const { return Type != 0; }
  std::vector<MemPoint> Points; // stable ts order
  /// Total Allocated missing on every event: the curve is Σ Bytes from 0.
  bool Relative = false;
  std::optional<int64_t> Baseline;
  int64_t PeakAllocated = 0;
  size_t PeakIndex = 0;
  std::optional<int64_t> PeakReserved;
  double PeakReservedTs = 0;
  int64_t FinalAllocated = 0;
  /// Reserved minus allocated at the allocated peak.
  std::optional<int64_t> CachedAtPeak;
  /// deviceProperties[id].totalGlobalMem (GPU devices).
  std::optional<int64_t> DeviceMemory;
  uint64_t ReserveGrowthEvents = 0, UnmatchedFrees = 0, OpenAtEnd = 0,
           ConsistencyViolations = 0, OomEvents = 0, ReleaseUnknown = 0;
  /// Σ |Bytes| of unmatched frees up to and including the peak event.
  int64_t UnmatchedBeforePeak = 0;
  bool FileOrderWasTsOrder = true;
  std::vector<MemAllocation> Allocations;
  /// By top op, then by op, then by step; each group by bytes descending.
  std::vector<MemLiveOwner> LiveAtPeak;
  std::vector<MemStepStats> Steps;

  const MemPoint &peak() const { return Points[PeakIndex]; }
  std::optional<double> peakAllocatedPct() const;
  std::optional<double> peakReservedPct() const;
};

class MemoryTimeline {
public:
  static constexpr llvm::StringLiteral Name = "memory-timeline";
  MemoryTimeline(const Trace &T, AnalysisManager &AM);

  /// GPU devices first (by type, id), then the CPU.
  llvm::ArrayRef<MemDevice> devices() const { return Devices; }
  /// Events skipped for lacking Device Type or Bytes.
  uint64_t skipped() const { return Skipped; }
  bool empty() const { return Devices.empty(); }

private:
  std::vector<MemDevice> Devices;
  uint64_t Skipped = 0;
};

/// The device's display name from its c10::DeviceType number and index.
std::string memDeviceName(int64_t Type, int64_t Id);

} // namespace tl

#endif // TL_ANALYSIS_MEMORYTIMELINE_H
