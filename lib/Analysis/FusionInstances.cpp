//===- FusionInstances.cpp - The instances a fusion candidate really has --===//
#include "tl/Analysis/FusionInstances.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace tl;

namespace {

/// A module instance's kernels in launch order (the order the candidate's
/// first instance was listed in: launching runtime event's uid, then tree
/// position).
std::vector<EventId> moduleKernels(const Trace &T, EventId Root) {
  std::vector<std::pair<uint64_t, EventId>> Keyed;
  for (EventId G : T.subtreeGpuEvents(Root)) {
    if (T.kind(G) != EventKind::Kernel)
      continue;
    EventId R = T.parent(G);
    Keyed.emplace_back(R == NoEvent ? T.uid(G) : T.uid(R), G);
  }
  std::stable_sort(Keyed.begin(), Keyed.end(),
                   [](auto &A, auto &B) { return A.first < B.first; });
  std::vector<EventId> Out;
  Out.reserve(Keyed.size());
  for (auto &[U, G] : Keyed)
    Out.push_back(G);
  return Out;
}

} // namespace

std::vector<FusionInstance>
tl::measureFusionInstances(const Trace &T, const FusionCandidate &C,
                           llvm::DenseSet<EventId> &Claimed) {
  std::vector<FusionInstance> Out;
  const size_t N = C.Kernels.size();
  if (N == 0)
    return Out;
  for (size_t I = 0; I < C.Instances.size(); ++I) {
    EventId Root = C.Instances[I];
    std::vector<EventId> Ks = C.Sibling && I < C.SiblingKernels.size()
                                  ? C.SiblingKernels[I]
                                  : moduleKernels(T, Root);
    // First unclaimed contiguous occurrence of the name sequence.
    for (size_t S = 0; S + N <= Ks.size(); ++S) {
      bool Match = true;
      for (size_t J = 0; J < N && Match; ++J)
        Match = T.nameId(Ks[S + J]) == C.Kernels[J].NameId &&
                !Claimed.contains(Ks[S + J]);
      if (!Match)
        continue;
      FusionInstance FI;
      FI.Root = Root;
      for (size_t J = 0; J < N; ++J) {
        Claimed.insert(Ks[S + J]);
        FI.DurUs.push_back(T.dur(Ks[S + J]));
        FI.Kernels.push_back(Ks[S + J]);
      }
      ArgValue Dims = T.args(Root).get("Input Dims");
      FI.Shape = Dims.isNull() ? std::nullopt : fusionFirstShape(Dims);
      Out.push_back(std::move(FI));
      break;
    }
  }
  return Out;
}
