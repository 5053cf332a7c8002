//===- ImportState.cpp - Tracks and warnings of the import ----------------===//
#include "ImportState.h"

using namespace tl;

void ImportState::warn(Trace::Storage &S, std::string Msg) {
  ++WarningCount;
  if (S.Stats.Warnings.size() < 50)
    S.Stats.Warnings.push_back(std::move(Msg));
}

static std::tuple<int64_t, int64_t, unsigned> trackKey(const TrackPart &P,
                                                       const TrackPart &T) {
  return {P.IsString ? int64_t(P.Str) : P.Int,
          T.IsString ? int64_t(T.Str) : T.Int,
          unsigned(P.IsString) | unsigned(T.IsString) << 1 | 4u};
}

TrackId ImportState::getOrAddTrack(Trace::Storage &S, const TrackPart &Pid,
                                   const TrackPart &Tid) {
  auto [It, Inserted] =
      TrackIndex.try_emplace(trackKey(Pid, Tid), TrackId(S.Tracks.size()));
  if (Inserted) {
    Track T;
    T.Pid = Pid;
    T.Tid = Tid;
    S.Tracks.push_back(T);
  }
  return It->second;
}

uint32_t ImportState::flowTrack(const TrackPart &Pid, const TrackPart &Tid) {
  auto [It, Inserted] =
      FlowTrackIndex.try_emplace(trackKey(Pid, Tid), FlowTracks.size());
  if (Inserted)
    FlowTracks.push_back({Pid, Tid});
  return It->second;
}

TrackId ImportState::findTrack(const TrackPart &Pid,
                               const TrackPart &Tid) const {
  auto It = TrackIndex.find(trackKey(Pid, Tid));
  return It == TrackIndex.end() ? ~0u : It->second;
}
