//===- EventLowering.h - A parsed event into the IR -------------*- C++ -*-===//
//
// What each phase becomes: complete events (ph X) are appended to the
// columns, ac2g flow endpoints and metadata are kept in the ImportState for
// buildStructure(), the rest is counted. Warnings name the event's uid.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_IMPORT_EVENTLOWERING_H
#define TL_LIB_IMPORT_EVENTLOWERING_H

#include "EventFields.h"
#include "ImportState.h"
#include "InternCache.h"

#include "tl/IR/EventKind.h"
#include "tl/Import/Importer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

class EventLowering {
public:
  EventLowering(Trace::Storage &S, ImportState &State,
                const ImportOptions &Opts, InternCache &Intern)
      : S(S), State(State), Opts(Opts), Intern(Intern) {}

  /// Lower the event Ev just ended. False when the trace is over a limit;
  /// Err then says which.
  bool endEvent(EventFields &Ev, std::string &Err);

private:
  /// "event <uid>: " for the event being finished (already counted).
  std::string where() const;
  void dropArgs(const EventFields &Ev) { S.Args.truncate(Ev.ArgMark); }
  bool addComplete(EventFields &Ev, uint64_t Uid, std::string &Err);
  /// False (with a warning) when the event's ts or dur is beyond
  /// MaxTimeUs: such an event is ignored.
  bool timesInRange(const EventFields &Ev);
  void addMetadata(const EventFields &Ev);
  void addMemory(const EventFields &Ev, uint64_t Uid);
  /// The kind of an event of category Cat (id Id): a trace has few
  /// categories, and they repeat on every event.
  EventKind kindOfCat(StrId Id, llvm::StringRef Cat);

  Trace::Storage &S;
  ImportState &State;
  const ImportOptions &Opts;
  InternCache &Intern;
  /// The last event's track: consecutive events mostly share one.
  TrackPart LastPid, LastTid;
  TrackId LastTrack = ~0u;
  /// Event kind by category string id (NoKind: not seen yet).
  static constexpr uint8_t NoKind = 0xff;
  std::vector<uint8_t> KindByCat;
};

} // namespace tl

#endif // TL_LIB_IMPORT_EVENTLOWERING_H
