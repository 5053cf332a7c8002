//===- ImportState.h - From the SAX pass to buildStructure ------*- C++ -*-===//
//
// The SAX pass (KinetoHandler) fills it; buildStructure() consumes it. Its
// methods live in ImportState.cpp so that neither of those two files
// depends on the other.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_IMPORT_IMPORTSTATE_H
#define TL_LIB_IMPORT_IMPORTSTATE_H

#include "tl/IR/TraceStorage.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace tl {

/// One `ac2g` flow endpoint (ph s or f), kept until linking. The (pid, tid)
/// of the endpoint is an index into ImportState::FlowTracks (few distinct
/// pairs), so a record is 16 bytes.
struct FlowRecord {
  int64_t Id;
  uint32_t Where;
  bool IsStart;
};
static_assert(sizeof(FlowRecord) == 16, "FlowRecord must stay 16 bytes");

/// One metadata (ph M) record, applied to tracks after parsing.
struct MetaRecord {
  TrackPart Pid, Tid;
  enum KeyKind : uint8_t { ProcessName, ProcessLabels, ThreadName } Key;
  StrId Value;
};

/// What the SAX pass hands to the structure builder.
struct ImportState {
  std::vector<FlowRecord> Flows;
  /// Distinct (pid, tid) pairs of flow endpoints.
  std::vector<std::pair<TrackPart, TrackPart>> FlowTracks;
  llvm::DenseMap<std::tuple<int64_t, int64_t, unsigned>, uint32_t>
      FlowTrackIndex;
  /// Index of (Pid, Tid) in FlowTracks, adding it when new.
  uint32_t flowTrack(const TrackPart &Pid, const TrackPart &Tid);
  std::vector<MetaRecord> Meta;
  /// (pid, tid, string flags) -> track.
  llvm::DenseMap<std::tuple<int64_t, int64_t, unsigned>, TrackId> TrackIndex;
  /// Record a warning (the first 50 texts are kept, all are counted).
  void warn(Trace::Storage &S, std::string Msg);
  /// Find or add the track (Pid, Tid).
  TrackId getOrAddTrack(Trace::Storage &S, const TrackPart &Pid,
                        const TrackPart &Tid);
  /// The track (Pid, Tid) if it exists, else ~0u.
  TrackId findTrack(const TrackPart &Pid, const TrackPart &Tid) const;
  uint64_t WarningCount = 0;
};

} // namespace tl

#endif // TL_LIB_IMPORT_IMPORTSTATE_H
