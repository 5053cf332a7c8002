//===- Trace.h - The typed, columnar event IR --------------------*- C++
//-*-===//
//
// A trace lowered from a PyTorch profiler (Kineto) Chrome-trace JSON. Events
// live in columns indexed by EventId; strings are interned; args are kept in a
// compact arena as a small JSON-like tree (ArgValue). Structure (host call
// tree, runtime->GPU links, fwd->bwd links) is built once at import and then
// read-only: passes and analyses only ever read a Trace.
//
// Semantics follow ../shared/spec/tracelens-perf-report.md sections 1-2.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IR_TRACE_H
#define TL_IR_TRACE_H

#include "tl/IR/ArgValue.h"
#include "tl/IR/EventKind.h"
#include "tl/IR/StringPool.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// Index of an event in the Trace's columns (not the UID).
using EventId = uint32_t;
inline constexpr EventId NoEvent = ~0u;

/// Index of a (pid, tid) track.
using TrackId = uint32_t;

/// A pid or tid: an integer or a string ("Spans"); int 0 and "0" differ.
struct TrackPart {
  bool IsString = false;
  int64_t Int = 0;
  StrId Str = 0;
  bool operator==(const TrackPart &O) const {
    return IsString == O.IsString && Int == O.Int && Str == O.Str;
  }
};

/// One (pid, tid) pair. For GPU events pid is the device, tid the stream.
struct Track {
  TrackPart Pid, Tid;
  StrId ProcessName = 0; // metadata process_name (tid key 0), 0 = unknown
  StrId ProcessLabel = 0;
  StrId ThreadName = 0;
};

/// Counts gathered at import; the quality gate and --print-ir=summary use them.
struct ImportStats {
  uint64_t TotalEntries = 0;   // length of traceEvents (UIDs run 0..N-1)
  uint64_t CompleteEvents = 0; // ph == "X"
  uint64_t FlowEvents = 0;
  uint64_t MetadataEvents = 0;
  uint64_t InstantEvents = 0;
  uint64_t OtherPhases = 0;
  uint64_t LinkedGpuEvents = 0;
  uint64_t UnlinkedGpuEvents = 0;
  uint64_t BleedDrops = 0; // host events dropped by the bleed rule
  uint64_t DuplicateCorrelations = 0;
  uint64_t GraphLaunches = 0;
  uint64_t InputBytes = 0; // uncompressed JSON bytes
  std::vector<std::string> Warnings;
};

class Trace {
public:
  Trace();
  ~Trace();
  Trace(Trace &&) noexcept;
  Trace &operator=(Trace &&) noexcept;
  Trace(const Trace &) = delete;
  Trace &operator=(const Trace &) = delete;

  //===--- Events -------------------------------------------------------===//
  /// Number of stored events (complete `X` events; flows and metadata are
  /// consumed at import, instants and other phases are only counted).
  size_t size() const;
  EventKind kind(EventId E) const;
  /// Position in `traceEvents` counting every entry (the reference's UID).
  uint64_t uid(EventId E) const;
  /// The event with this UID, or NoEvent.
  EventId byUid(uint64_t Uid) const;
  llvm::StringRef name(EventId E) const;
  StrId nameId(EventId E) const;
  llvm::StringRef cat(EventId E) const;
  double ts(EventId E) const;
  double dur(EventId E) const;
  /// ts + dur computed in double, exactly as the reference does.
  double end(EventId E) const;
  TrackId track(EventId E) const;

  //===--- Args -----------------------------------------------------------===//
  /// The event's `args` object (Null when it had none).
  ArgValue args(EventId E) const;
  std::optional<int64_t> correlation(EventId E) const;
  std::optional<int64_t> externalId(EventId E) const;
  std::optional<int64_t> stream(EventId E) const;
  std::optional<int64_t> device(EventId E) const;
  std::optional<int64_t> sequenceNumber(EventId E) const;
  /// `args.bytes` of memcpy/memset events.
  std::optional<int64_t> bytes(EventId E) const;
  /// Direction of a memcpy (from its name or `kind` arg).
  MemcpyKind memcpyKind(EventId E) const;

  //===--- Tracks and metadata -------------------------------------------===//
  size_t numTracks() const;
  const Track &trackInfo(TrackId T) const;
  /// Text of a pid/tid part ("0", "Spans").
  std::string trackPartText(const TrackPart &P) const;
  /// Every top-level key other than traceEvents (deviceProperties,
  /// distributedInfo, schemaVersion, ...), as an object.
  ArgValue topLevel() const;
  const ImportStats &stats() const;
  /// "correlation" or "External id" (spec 2.2).
  llvm::StringRef linkKey() const;
  /// The file the trace came from.
  llvm::StringRef sourcePath() const;

  //===--- Structure (built once at import)
  //---------------------------------===//
  /// Host parent (for host events) or launching runtime event (for GPU
  /// events); NoEvent when none.
  EventId parent(EventId E) const;
  /// Host children in ts order, then GPU children (for runtime events).
  llvm::ArrayRef<EventId> children(EventId E) const;
  /// cpu_ops with no cpu_op ancestor on their thread, in the order met.
  llvm::ArrayRef<EventId> cpuRoots() const;
  /// True when a runtime event launched this GPU event.
  bool isLinked(EventId E) const;
  /// True for a host event the bleed rule (spec 2.4b) kept out of the tree.
  bool isDroppedFromTree(EventId E) const;
  /// True for a host event the bleed rule hung under its grandparent after
  /// popping the sibling it overran (such an event need not lie inside its
  /// parent, because the reference does not re-check the new parent).
  bool isBleedPlaced(EventId E) const;
  /// True for a pseudo op injected over a launch call (inference §B.2 P1):
  /// a child of the launch call's parent whose one child is the launch
  /// call, which keeps its parent, so walks up from the kernel do not meet
  /// it. It has no duration of its own (dur 0 in the IR).
  bool isPseudoOp(EventId E) const;
  /// Every GPU event in E's subtree (the reference's `gpu_events`). For a
  /// runtime event, the GPU events it launched.
  llvm::ArrayRef<EventId> subtreeGpuEvents(EventId E) const;
  /// Every GPU event in the order subtreeGpuEvents ranges index: linked ones
  /// by launcher preorder, then unlinked ones. subtreeGpuEvents(E).data() -
  /// gpuTreeOrder().data() is the range's offset (per-subtree range queries).
  llvm::ArrayRef<EventId> gpuTreeOrder() const;
  /// Forward op of a backward autograd node (NoEvent when none).
  EventId fwdEvent(EventId E) const;
  llvm::ArrayRef<EventId> bwdEvents(EventId E) const;
  /// Events of one kind, in file order.
  llvm::ArrayRef<EventId> eventsOfKind(EventKind K) const;
  /// All GPU events (kernel, memcpy, memset) in file order.
  llvm::ArrayRef<EventId> gpuEvents() const;
  /// Nearest `nn.Module: X` python frames above E, outermost first, with the
  /// trailing `_<digits>` removed (empty without python frames).
  std::vector<llvm::StringRef> moduleStack(EventId E) const;

  const StringPool &strings() const;

  /// Implementation storage; only the importer and the verifier touch it.
  struct Storage;
  Storage &storage();
  const Storage &storage() const;

private:
  std::unique_ptr<Storage> S;
};

} // namespace tl

#endif // TL_IR_TRACE_H
