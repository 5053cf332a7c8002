//===- TraceRestrict.cpp - Keep a subset of a trace's events --------------===//
#include "tl/Import/TraceRestrict.h"
#include "BuildStructure.h"

#include "tl/IR/TraceStorage.h"

#include <algorithm>
#include <cassert>

using namespace tl;

namespace {

/// Keep the entries of an id list whose event stays, renumbered.
void remapList(std::vector<EventId> &L, const std::vector<EventId> &NewId) {
  size_t Out = 0;
  for (EventId E : L)
    if (NewId[E] != NoEvent)
      L[Out++] = NewId[E];
  L.resize(Out);
  L.shrink_to_fit();
}

/// Compact a per-event column in place to the kept events.
template <typename V>
void compactColumn(V &Col, const std::vector<EventId> &Kept) {
  for (size_t I = 0; I < Kept.size(); ++I)
    Col[I] = Col[Kept[I]];
  Col.resize(Kept.size());
  Col.shrink_to_fit();
}

/// A CSR (Begin, Items) over the old ids, restricted to kept nodes and
/// items, in the old order.
void remapCsr(std::vector<uint32_t> &Begin, std::vector<EventId> &Items,
              const std::vector<EventId> &Kept,
              const std::vector<EventId> &NewId) {
  std::vector<uint32_t> NB(Kept.size() + 1, 0);
  std::vector<EventId> NI;
  for (size_t I = 0; I < Kept.size(); ++I) {
    EventId Old = Kept[I];
    for (uint32_t J = Begin[Old]; J < Begin[Old + 1]; ++J)
      if (NewId[Items[J]] != NoEvent)
        NI.push_back(NewId[Items[J]]);
    NB[I + 1] = uint32_t(NI.size());
  }
  Begin = std::move(NB);
  Items = std::move(NI);
}

} // namespace

void tl::restrictTrace(Trace &T, llvm::ArrayRef<uint8_t> Keep, TraceWindow W) {
  Trace::Storage &S = T.storage();
  size_t N = S.size();
  assert(Keep.size() == N && "one Keep entry per event");
  W.RecordedEvents = W.RecordedEvents ? W.RecordedEvents : N;
  std::vector<EventId> NewId(N, NoEvent), Kept;
  for (EventId E = 0; E < N; ++E)
    if (Keep[E]) {
      NewId[E] = EventId(Kept.size());
      Kept.push_back(E);
    }
  std::vector<EventId> OldParent = S.Parent;

  // Structure first (it reads the old ids), then the columns.
  remapCsr(S.ChildBegin, S.Children, Kept, NewId);
  remapCsr(S.BwdBegin, S.Bwd, Kept, NewId);
  S.Parent.assign(Kept.size(), NoEvent);
  S.Fwd.resize(N, NoEvent);
  std::vector<EventId> Fwd(Kept.size(), NoEvent);
  for (size_t I = 0; I < Kept.size(); ++I) {
    EventId Old = Kept[I];
    if (OldParent[Old] != NoEvent)
      S.Parent[I] = NewId[OldParent[Old]];
    if (S.Fwd[Old] != NoEvent)
      Fwd[I] = NewId[S.Fwd[Old]];
  }
  S.Fwd = std::move(Fwd);
  // A bwd list entry needs its fwd link back (and the converse).
  for (size_t I = 0; I < Kept.size(); ++I)
    for (uint32_t J = S.BwdBegin[I]; J < S.BwdBegin[I + 1]; ++J)
      assert(S.Fwd[S.Bwd[J]] == EventId(I) && "fwd/bwd links disagree");

  // cpu roots: cpu_ops without a cpu_op ancestor in the kept tree, in the
  // tree build's processing order (ts, then file order).
  auto IsRootOp = [&](EventId Old) {
    if (S.Kind[Old] != EventKind::CpuOp)
      return false;
    for (EventId P = OldParent[Old]; P != NoEvent && NewId[P] != NoEvent;
         P = OldParent[P])
      if (S.Kind[P] == EventKind::CpuOp)
        return false;
    return true;
  };
  std::vector<EventId> Roots;
  for (EventId Old : Kept)
    if (IsRootOp(Old) && !std::binary_search(S.Dropped.begin(),
                                             S.Dropped.end(), Old))
      Roots.push_back(Old);
  std::stable_sort(Roots.begin(), Roots.end(), [&](EventId A, EventId B) {
    return S.Ts[A] < S.Ts[B];
  });
  for (EventId &R : Roots)
    R = NewId[R];
  S.CpuRoots = std::move(Roots);

  remapList(S.Dropped, NewId);
  remapList(S.BleedPlaced, NewId);
  for (std::vector<EventId> &L : S.ByKind)
    remapList(L, NewId);
  remapList(S.Gpu, NewId);

  compactColumn(S.Kind, Kept);
  compactColumn(S.Uid, Kept);
  compactColumn(S.Name, Kept);
  compactColumn(S.Cat, Kept);
  compactColumn(S.Ts, Kept);
  compactColumn(S.Dur, Kept);
  compactColumn(S.TrackOf, Kept);
  compactColumn(S.ArgsNode, Kept);

  S.Memory.erase(std::remove_if(S.Memory.begin(), S.Memory.end(),
                                [&](const MemoryEvent &M) {
                                  return !(W.HostStart <= M.Ts &&
                                           M.Ts < W.HostEnd);
                                }),
                 S.Memory.end());

  uint64_t Linked = 0;
  for (EventId G : S.Gpu)
    Linked += S.Parent[G] != NoEvent;
  S.Stats.LinkedGpuEvents = Linked;
  S.Stats.UnlinkedGpuEvents = S.Gpu.size() - Linked;
  buildGpuRanges(S);
  S.Window = std::move(W);
}
