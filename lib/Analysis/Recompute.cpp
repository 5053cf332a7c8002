//===- Recompute.cpp - Events re-run by activation checkpointing ---------===//
#include "tl/Analysis/Recompute.h"

using namespace tl;

static bool isRecomputeFrame(const Trace &T, EventId E) {
  if (T.kind(E) != EventKind::PythonFunction)
    return false;
  llvm::StringRef N = T.name(E);
  return N.contains("torch/utils/checkpoint.py") && N.contains("recompute_fn");
}

RecomputeMarks::RecomputeMarks(const Trace &T, AnalysisManager &) {
  // Memoized walk up the parent chain: every event is resolved once.
  size_t N = T.size();
  Marks.assign(N, false);
  std::vector<uint8_t> Done(N, 0);
  std::vector<EventId> Path;
  for (EventId E = 0; E < N; ++E) {
    if (Done[E])
      continue;
    Path.clear();
    EventId P = E;
    bool Mark = false;
    while (P != NoEvent && !Done[P]) {
      Path.push_back(P);
      P = T.parent(P);
    }
    if (P != NoEvent)
      Mark = Marks[P] || isRecomputeFrame(T, P);
    // Resolve from the top of the path down: an event is a recompute when
    // its parent is one or is the checkpoint frame itself.
    for (size_t I = Path.size(); I-- > 0;) {
      EventId X = Path[I];
      Marks[X] = Mark;
      Done[X] = 1;
      Any |= Mark;
      Mark = Mark || isRecomputeFrame(T, X);
    }
  }
}
