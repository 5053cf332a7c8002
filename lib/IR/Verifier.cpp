//===- Verifier.cpp - IR invariants ---------------------------------------===//
//
// Checks: finite ts, dur >= 0; every link target exists; parent/child
// symmetry; host children lie inside their parent on the same track (for
// events placed by the bleed rule, spec 2.4b, only ts order is guaranteed);
// GPU children hang under runtime events; a pseudo op's one child keeps
// the pseudo op's parent; fwd/bwd symmetry; cpu roots are
// cpu_ops without a cpu_op ancestor; subtree GPU ranges are in bounds.
//
//===----------------------------------------------------------------------===//
#include "tl/IR/Verifier.h"
#include "tl/IR/Trace.h"
#include "tl/IR/TraceStorage.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace tl;

llvm::Error tl::verifyTrace(const Trace &T) {
  std::string Msg;
  llvm::raw_string_ostream OS(Msg);
  unsigned Errors = 0;
  auto Fail = [&](EventId E, const llvm::Twine &What) {
    if (++Errors <= 10)
      OS << (Errors > 1 ? "; " : "") << "event %"
         << (E < T.size() ? T.uid(E) : 0) << ": " << What;
  };
  const Trace::Storage &S = T.storage();
  size_t N = T.size();
  // Symmetry is checked by counting: every listed child/bwd entry points back,
  // no child is listed twice, and the totals match the parent/fwd links.
  uint64_t WithParent = 0, ChildEntries = 0, FwdLinks = 0, BwdEntries = 0;
  std::vector<uint8_t> SeenChild(N, 0);
  for (EventId E = 0; E < N; ++E) {
    if (E && S.Uid[E] <= S.Uid[E - 1])
      Fail(E, "uids not increasing");
    if (!std::isfinite(T.ts(E)))
      Fail(E, "ts is not finite");
    if (!(T.dur(E) >= 0) || !std::isfinite(T.dur(E)))
      Fail(E, "dur is negative or not finite");
    if (T.track(E) >= T.numTracks())
      Fail(E, "track out of range");
    EventId P = T.parent(E);
    if (P != NoEvent) {
      if (P >= N) {
        Fail(E, "parent out of range");
        continue;
      }
      ++WithParent;
      if (isGpuKind(T.kind(E))) {
        if (!isRuntimeKind(T.kind(P)))
          Fail(E, "GPU event launched by a non-runtime event");
      } else {
        if (!isHostTreeKind(T.kind(E)) || !isHostTreeKind(T.kind(P)))
          Fail(E, "non-host event in the host tree");
        if (T.track(E) != T.track(P))
          Fail(E, "host child on another track than its parent");
        // The bleed rule (spec 2.4b) hangs an event under its grandparent
        // without re-checking it; only its start order is guaranteed.
        if (!(T.ts(E) >= T.ts(P)))
          Fail(E, "child starts before its parent");
        else if (!T.isBleedPlaced(E) &&
                 !(T.ts(E) < T.end(P) && T.end(E) <= T.end(P)))
          Fail(E, "child not inside its parent");
      }
    }
    // A pseudo op's child keeps the pseudo op's parent (§B.2 P1).
    EventId Owner = T.isPseudoOp(E) ? P : E;
    for (EventId C : T.children(E)) {
      ++ChildEntries;
      if (C >= N || T.parent(C) != Owner)
        Fail(E, "child whose parent is another event");
      else if (SeenChild[C]++)
        Fail(C, "listed twice as a child");
    }
    if (T.isDroppedFromTree(E) &&
        (P != NoEvent || llvm::any_of(T.children(E), [&](EventId C) {
           return !isGpuKind(T.kind(C));
         })))
      Fail(E, "dropped event has host links");
    EventId F = T.fwdEvent(E);
    if (F != NoEvent) {
      ++FwdLinks;
      if (F >= N)
        Fail(E, "fwd link out of range");
    }
    for (EventId B : T.bwdEvents(E)) {
      ++BwdEntries;
      if (B >= N || T.fwdEvent(B) != E)
        Fail(E, "bwd link without matching fwd link");
    }
    if (E < S.GpuBegin.size() &&
        (S.GpuBegin[E] > S.GpuEnd[E] || S.GpuEnd[E] > S.GpuOrder.size()))
      Fail(E, "subtree GPU range out of bounds");
    for (EventId G : T.subtreeGpuEvents(E))
      if (G >= N || !isGpuKind(T.kind(G)))
        Fail(E, "non-GPU event in subtree GPU events");
  }
  if (WithParent != ChildEntries)
    Fail(0, "parent links and children lists disagree");
  if (FwdLinks != BwdEntries)
    Fail(0, "fwd links and bwd lists disagree");
  for (EventId R : T.cpuRoots()) {
    if (R >= N || T.kind(R) != EventKind::CpuOp) {
      Fail(R, "cpu root is not a cpu_op");
      continue;
    }
    for (EventId P = T.parent(R); P != NoEvent; P = T.parent(P))
      if (T.kind(P) == EventKind::CpuOp) {
        Fail(R, "cpu root has a cpu_op ancestor");
        break;
      }
  }
  uint64_t Linked = 0;
  for (EventId G : T.gpuEvents())
    Linked += T.isLinked(G);
  if (Linked != T.stats().LinkedGpuEvents)
    Fail(0, "linked GPU count disagrees with stats");
  if (!Errors)
    return llvm::Error::success();
  if (Errors > 10)
    OS << "; ... " << (Errors - 10) << " more";
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}
