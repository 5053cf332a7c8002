//===- CaptureRoots.cpp - The host subtrees of capture windows ------------===//
#include "CaptureRoots.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <numeric>

using namespace llvm;
using namespace tl;

namespace {

bool isLaunchCall(const Trace &C, EventId E) {
  if (!isRuntimeKind(C.kind(E)))
    return false;
  std::string Lower = C.name(E).lower();
  StringRef L(Lower);
  return L.contains("launch") || L.contains("memcpy") || L.contains("memset");
}

CaptureRootInfo buildRoot(const Trace &C, double Start, double End) {
  CaptureRootInfo R;
  R.Ts = Start;
  R.Dur = End - Start;
  size_t N = C.size();
  auto InWindow = [&](EventId E) {
    return C.ts(E) >= Start && C.ts(E) + C.dur(E) <= End;
  };
  // Tops: window events whose parent lies outside the window (the
  // reference leaves out parentless ones, §E.8), in file order.
  std::vector<EventId> Order{NoEvent};
  std::vector<uint32_t> Parent{0};
  DenseMap<EventId, uint32_t> Index;
  for (EventId E = 0; E < N; ++E) {
    EventKind K = C.kind(E);
    if (K != EventKind::CpuOp && K != EventKind::PythonFunction)
      continue;
    EventId P = C.parent(E);
    if (P == NoEvent || !InWindow(E) || InWindow(P))
      continue;
    Index[E] = uint32_t(Order.size());
    Order.push_back(E);
    Parent.push_back(0);
  }
  // Breadth-first below the tops (a FIFO over Order itself); only host
  // events are copied (a capture runs no GPU work).
  for (size_t Q = 1; Q < Order.size(); ++Q)
    for (EventId Ch : C.children(Order[Q])) {
      if (!isHostTreeKind(C.kind(Ch)) || Index.count(Ch))
        continue;
      Index[Ch] = uint32_t(Order.size());
      Order.push_back(Ch);
      Parent.push_back(uint32_t(Q));
    }
  // Stable by ts; the CaptureRoot (window start) stays first.
  std::vector<uint32_t> Perm(Order.size());
  std::iota(Perm.begin(), Perm.end(), 0);
  std::stable_sort(Perm.begin() + 1, Perm.end(), [&](uint32_t A, uint32_t B) {
    return C.ts(Order[A]) < C.ts(Order[B]);
  });
  std::vector<uint32_t> NewIdx(Order.size());
  for (uint32_t I = 0; I < Perm.size(); ++I)
    NewIdx[Perm[I]] = I;
  R.Subtree.resize(Order.size());
  R.ParentIdx.assign(Order.size(), 0);
  for (uint32_t I = 0; I < Perm.size(); ++I) {
    R.Subtree[I] = Order[Perm[I]];
    R.ParentIdx[I] = I ? NewIdx[Parent[Perm[I]]] : 0;
  }
  // Children CSR in subtree (ts) order.
  R.ChildBegin.assign(R.Subtree.size() + 1, 0);
  for (uint32_t I = 1; I < R.Subtree.size(); ++I)
    ++R.ChildBegin[R.ParentIdx[I] + 1];
  std::partial_sum(R.ChildBegin.begin(), R.ChildBegin.end(),
                   R.ChildBegin.begin());
  R.Children.resize(R.Subtree.size() ? R.Subtree.size() - 1 : 0);
  std::vector<uint32_t> Fill(R.ChildBegin.begin(), R.ChildBegin.end() - 1);
  for (uint32_t I = 1; I < R.Subtree.size(); ++I)
    R.Children[Fill[R.ParentIdx[I]]++] = I;
  for (uint32_t I = 1; I < R.Subtree.size(); ++I)
    if (isLaunchCall(C, R.Subtree[I]))
      R.Launches.push_back(I);
  for (EventId E : C.cpuRoots()) {
    auto It = Index.find(E);
    if (It != Index.end())
      R.CpuRoots.push_back(NewIdx[It->second]);
  }
  return R;
}

} // namespace

std::vector<CaptureRootInfo> tl::findCaptureRoots(const Trace &C) {
  std::vector<EventId> Begins, Ends;
  for (EventId E : C.eventsOfKind(EventKind::Runtime)) {
    StringRef N = C.name(E);
    if (N.contains("StreamBeginCapture"))
      Begins.push_back(E);
    else if (N.contains("StreamEndCapture"))
      Ends.push_back(E);
  }
  std::vector<CaptureRootInfo> Roots;
  for (size_t K = 0; K < std::min(Begins.size(), Ends.size()); ++K)
    Roots.push_back(buildRoot(C, C.ts(Begins[K]) + C.dur(Begins[K]),
                              C.ts(Ends[K])));
  return Roots;
}
