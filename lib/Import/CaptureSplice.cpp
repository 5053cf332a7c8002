//===- CaptureSplice.cpp - Copy capture subtrees under graph launches -----===//
//
// Copies take the graph launch's ts and dur, as in the reference (§C.7.3),
// and its track (the reference keeps the capture's pid/tid, which the graph
// trace's metadata does not name anyway): the IR's host tree keeps children
// on their parent's track and inside it. The replayed kernels keep their
// own ts, dur, stream and args.
//
//===----------------------------------------------------------------------===//
#include "CaptureSplice.h"
#include "BuildStructure.h"

#include "tl/IR/TraceStorage.h"

#include "llvm/ADT/DenseMap.h"

using namespace llvm;
using namespace tl;

uint64_t tl::spliceCaptures(Trace &T, ArrayRef<SplicePlan> Plans) {
  Trace::Storage &S = T.storage();
  const size_t N0 = S.size();
  uint32_t NextUid = N0 ? S.Uid.back() + 1 : 0;
  StrId RootName = S.Strings.intern("CaptureRoot");
  StrId RuntimeCat = S.Strings.intern("cuda_runtime");

  // Copies, plan by plan, in subtree order.
  std::vector<EventId> First(Plans.size());
  DenseMap<EventId, size_t> PlanOfLaunch;
  for (size_t P = 0; P < Plans.size(); ++P) {
    const SplicePlan &Pl = Plans[P];
    const Trace &C = *Pl.Capture;
    const CaptureRootInfo &R = *Pl.Root;
    EventId L = Pl.GraphLaunch;
    double Ts = S.Ts[L], Dur = S.Dur[L];
    TrackId Track = S.TrackOf[L];
    First[P] = EventId(S.size());
    PlanOfLaunch[L] = P;
    for (uint32_t I = 0; I < R.Subtree.size(); ++I) {
      EventId X = R.Subtree[I];
      S.Kind.push_back(I ? C.kind(X) : EventKind::Runtime);
      S.Uid.push_back(NextUid++);
      S.Name.push_back(I ? S.Strings.intern(C.name(X)) : RootName);
      S.Cat.push_back(I ? S.Strings.intern(C.cat(X)) : RuntimeCat);
      S.Ts.push_back(Ts);
      S.Dur.push_back(Dur);
      S.TrackOf.push_back(Track);
      S.ArgsNode.push_back(I ? copyArgValue(C.args(X), S.Args) : 0);
      S.Parent.push_back(I ? First[P] + R.ParentIdx[I] : L);
      S.ByKind[unsigned(S.Kind.back())].push_back(EventId(S.size() - 1));
    }
  }
  const size_t N = S.size();

  // Replayed kernels hang under their capture launch copies.
  DenseMap<EventId, EventId> KernelOf; // launch copy -> replayed GPU event
  for (size_t P = 0; P < Plans.size(); ++P)
    for (auto [G, Idx] : Plans[P].Pairs) {
      S.Parent[G] = First[P] + Idx;
      KernelOf[First[P] + Idx] = G;
    }

  // Children: a merged graph launch has its CaptureRoot copy only.
  std::vector<uint32_t> Begin;
  std::vector<EventId> Children;
  Begin.reserve(N + 1);
  Children.reserve(S.Children.size() + (N - N0));
  for (EventId E = 0; E < N0; ++E) {
    Begin.push_back(uint32_t(Children.size()));
    auto It = PlanOfLaunch.find(E);
    if (It != PlanOfLaunch.end()) {
      Children.push_back(First[It->second]);
      continue;
    }
    for (uint32_t K = S.ChildBegin[E]; K < S.ChildBegin[E + 1]; ++K)
      if (S.Parent[S.Children[K]] == E)
        Children.push_back(S.Children[K]);
  }
  for (size_t P = 0; P < Plans.size(); ++P) {
    const CaptureRootInfo &R = *Plans[P].Root;
    for (uint32_t I = 0; I < R.Subtree.size(); ++I) {
      Begin.push_back(uint32_t(Children.size()));
      EventId Copy = First[P] + I;
      auto It = KernelOf.find(Copy);
      if (It != KernelOf.end()) {
        Children.push_back(It->second); // replaces the capture's children
        continue;
      }
      for (uint32_t K = R.ChildBegin[I]; K < R.ChildBegin[I + 1]; ++K)
        Children.push_back(First[P] + R.Children[K]);
    }
  }
  Begin.push_back(uint32_t(Children.size()));
  S.ChildBegin = std::move(Begin);
  S.Children = std::move(Children);

  // The capture's cpu roots stay roots unless the graph launch has a
  // cpu_op above it.
  for (size_t P = 0; P < Plans.size(); ++P) {
    bool UnderOp = false;
    for (EventId A = S.Parent[Plans[P].GraphLaunch]; A != NoEvent && !UnderOp;
         A = S.Parent[A])
      UnderOp = S.Kind[A] == EventKind::CpuOp;
    if (!UnderOp)
      for (uint32_t I : Plans[P].Root->CpuRoots)
        S.CpuRoots.push_back(First[P] + I);
  }

  // Copies have no fwd/bwd links (inference has no backward).
  S.Fwd.resize(N, NoEvent);
  S.BwdBegin.resize(N + 1, S.BwdBegin.empty() ? 0 : S.BwdBegin.back());
  buildGpuRanges(S);
  return N - N0;
}
