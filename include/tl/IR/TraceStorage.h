//===- TraceStorage.h - Columnar storage behind tl::Trace -------*- C++ -*-===//
//
// Struct-of-arrays storage of a Trace. Only the importer (which fills it) and
// the verifier/printer read it directly; everything else uses Trace's API.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IR_TRACESTORAGE_H
#define TL_IR_TRACESTORAGE_H

#include "tl/IR/ArgStore.h"
#include "tl/IR/MemoryEvent.h"
#include "tl/IR/Trace.h"
#include "tl/IR/TraceWindow.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace tl {

inline constexpr unsigned NumEventKinds = unsigned(EventKind::Other) + 1;

struct Trace::Storage {
  StringPool Strings;
  ArgStore Args{&Strings};

  // One entry per stored event (EventId indexes all columns).
  std::vector<EventKind> Kind;
  std::vector<uint32_t> Uid;
  std::vector<StrId> Name, Cat;
  std::vector<double> Ts, Dur;
  std::vector<TrackId> TrackOf;
  std::vector<uint32_t> ArgsNode; // 0 = no args

  // Structure.
  std::vector<EventId> Parent;
  std::vector<uint32_t> ChildBegin; // CSR, size() + 1 entries
  std::vector<EventId> Children;
  std::vector<EventId> CpuRoots;
  /// Host events dropped from the tree by the bleed rule, ascending.
  std::vector<EventId> Dropped;
  /// Host events hung under the grandparent by the bleed rule, ascending.
  std::vector<EventId> BleedPlaced;
  /// Pseudo ops injected over one kernel's launch call (inference §B.2
  /// P1), ascending: listed as their parent's child, with the launch call
  /// as their one child, while the launch call keeps that parent.
  std::vector<EventId> PseudoOps;
  /// GPU events ordered by the preorder index of their launcher (linked
  /// ones), then unlinked ones in file order. A subtree's GPU events are the
  /// contiguous range [GpuBegin[E], GpuEnd[E]).
  std::vector<EventId> GpuOrder;
  std::vector<uint32_t> GpuBegin, GpuEnd;
  std::vector<EventId> Fwd;
  std::vector<uint32_t> BwdBegin; // CSR, size() + 1 entries
  std::vector<EventId> Bwd;
  std::array<std::vector<EventId>, NumEventKinds> ByKind;
  std::vector<EventId> Gpu;

  std::vector<MemoryEvent> Memory;

  std::vector<Track> Tracks;
  uint32_t TopLevel = 0;
  ImportStats Stats;
  StrId LinkKey = 0;
  std::string Path;
  std::optional<TraceWindow> Window;

  // Interned keys used by the typed accessors (0 when absent from the trace).
  StrId KeyCorrelation = 0, KeyExternalId = 0, KeyStream = 0, KeyDevice = 0,
        KeySequence = 0, KeyBytes = 0, KeyKind = 0;

  size_t size() const { return Kind.size(); }
  /// Intern the accessor keys (call after import).
  void internKeys();
  /// args[Key] of event E; nullopt when Key is 0 or the event lacks it.
  std::optional<ArgValue> arg(EventId E, StrId Key) const;
  /// Integer value of args[Key] of event E, if present.
  std::optional<int64_t> intArg(EventId E, StrId Key) const {
    auto V = arg(E, Key);
    return V ? V->asInt() : std::nullopt;
  }
};

} // namespace tl

#endif // TL_IR_TRACESTORAGE_H
