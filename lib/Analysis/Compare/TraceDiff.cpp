//===- TraceDiff.cpp - Ops matched across a trace and a reference ---------===//
#include "tl/Analysis/Compare/TraceDiff.h"

#include "tl/Analysis/AnalysisManager.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tl {

std::string TraceDiff::normalizeName(StringRef Name) {
  auto StripSuffix = [](StringRef S, char Sep) -> StringRef {
    size_t P = S.rfind(Sep);
    if (P == StringRef::npos || P + 1 == S.size())
      return S;
    StringRef Tail = S.substr(P + 1);
    if (!all_of(Tail, [](char C) { return C >= '0' && C <= '9'; }))
      return S;
    return S.substr(0, P);
  };
  if (Name.starts_with("nn.Module: "))
    return StripSuffix(Name, '_').str();
  if (Name.starts_with("ProfilerStep#"))
    return "ProfilerStep";
  return Name.str();
}

std::vector<std::pair<uint32_t, uint32_t>>
alignByName(ArrayRef<std::string> A, ArrayRef<std::string> B) {
  std::vector<std::pair<uint32_t, uint32_t>> Out;
  size_t N = A.size(), M = B.size();
  // Common prefix and suffix match directly; only the middle needs a table.
  size_t Pre = 0;
  while (Pre < N && Pre < M && A[Pre] == B[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < N - Pre && Suf < M - Pre && A[N - 1 - Suf] == B[M - 1 - Suf])
    ++Suf;
  for (size_t I = 0; I < Pre; ++I)
    Out.push_back({uint32_t(I), uint32_t(I)});
  size_t N2 = N - Pre - Suf, M2 = M - Pre - Suf;
  ArrayRef<std::string> MA = A.slice(Pre, N2), MB = B.slice(Pre, M2);
  // The quadratic table is bounded (20M cells, 80 MB); beyond it, a greedy
  // in-order match (each A name takes the next equal B name).
  constexpr size_t MaxCells = 20u * 1000u * 1000u;
  if (N2 && M2 && (N2 + 1) * (M2 + 1) <= MaxCells) {
    // L[i][j] = LCS of MA[i..] and MB[j..].
    std::vector<uint32_t> L((N2 + 1) * (M2 + 1), 0);
    auto At = [&](size_t I, size_t J) -> uint32_t & {
      return L[I * (M2 + 1) + J];
    };
    for (size_t I = N2; I-- > 0;)
      for (size_t J = M2; J-- > 0;)
        At(I, J) = MA[I] == MB[J] ? At(I + 1, J + 1) + 1
                                  : std::max(At(I + 1, J), At(I, J + 1));
    size_t I = 0, J = 0;
    while (I < N2 && J < M2) {
      if (MA[I] == MB[J] && At(I, J) == At(I + 1, J + 1) + 1) {
        Out.push_back({uint32_t(Pre + I), uint32_t(Pre + J)});
        ++I, ++J;
      } else if (At(I + 1, J) >= At(I, J + 1)) {
        ++I;
      } else {
        ++J;
      }
    }
  } else if (N2 && M2) {
    size_t J = 0;
    for (size_t I = 0; I < N2 && J < M2; ++I) {
      size_t K = J;
      while (K < M2 && MB[K] != MA[I])
        ++K;
      if (K < M2) {
        Out.push_back({uint32_t(Pre + I), uint32_t(Pre + K)});
        J = K + 1;
      }
    }
  }
  for (size_t S = Suf; S > 0; --S)
    Out.push_back({uint32_t(N - S), uint32_t(M - S)});
  return Out;
}

namespace {

/// Nodes that take part in matching: cpu ops. Python frames are
/// transparent: their file paths, line numbers and object addresses differ
/// between environments, and TraceLens's diff_stats groups match only with
/// cpu ops as tree nodes (docs/Comparative.md).
bool isMatchable(const Trace &T, EventId E) {
  return T.kind(E) == EventKind::CpuOp && !T.isDroppedFromTree(E);
}

/// Nearest cpu ops below E (through python frames), in ts order.
std::vector<EventId> hostChildren(const Trace &T, EventId E) {
  std::vector<EventId> Out;
  std::vector<EventId> Stack(T.children(E).rbegin(), T.children(E).rend());
  while (!Stack.empty()) {
    EventId C = Stack.back();
    Stack.pop_back();
    if (isMatchable(T, C))
      Out.push_back(C);
    else if (T.kind(C) == EventKind::PythonFunction &&
             !T.isDroppedFromTree(C))
      Stack.insert(Stack.end(), T.children(C).rbegin(), T.children(C).rend());
  }
  return Out;
}

/// Top-level cpu ops (no cpu op above them) in ts order (ties: file order).
std::vector<EventId> hostRoots(const Trace &T) {
  std::vector<EventId> Out;
  for (EventId E : T.cpuRoots())
    if (isMatchable(T, E))
      Out.push_back(E);
  std::stable_sort(Out.begin(), Out.end(), [&](EventId A, EventId B) {
    return T.ts(A) < T.ts(B);
  });
  return Out;
}

/// deviceProperties[].name of the first device that has one.
std::string deviceName(const Trace &T) {
  ArgValue Props = T.topLevel().get("deviceProperties");
  for (size_t I = 0, E = Props.isArray() ? Props.size() : 0; I < E; ++I) {
    ArgValue Name = Props[I].get("name");
    if (Name.isString() && !Name.getString().empty())
      return Name.getString().str();
  }
  return "";
}

std::string frameworkOf(const Trace &T) {
  for (EventId E : T.eventsOfKind(EventKind::CpuOp))
    if (T.name(E).starts_with("aten::"))
      return "pytorch";
  for (EventId E : T.eventsOfKind(EventKind::CpuOp))
    if (T.name(E).contains("jit_") || T.name(E).contains("Xla"))
      return "jax/xla";
  return "unknown";
}

/// GPU events with a launcher, and the host node their launch hangs under.
struct GpuLaunch {
  EventId Gpu;
  EventId Host; // nearest matchable ancestor of the runtime call
};

std::vector<GpuLaunch> gpuLaunches(const Trace &T) {
  std::vector<GpuLaunch> Out;
  for (EventId G : T.gpuEvents()) {
    EventId R = T.parent(G);
    if (R == NoEvent)
      continue; // unlinked: no host side to match
    EventId H = T.parent(R);
    while (H != NoEvent && !isMatchable(T, H))
      H = T.parent(H);
    Out.push_back({G, H});
  }
  return Out;
}

/// One position of a merged level: a matched pair, or a one-sided op.
/// Hollow: a one-sided op whose child ops were aligned in its place.
struct Aligned {
  EventId A = NoEvent, B = NoEvent;
  bool Hollow = false;
};

/// How many levels of unaligned ops may hand their children up.
constexpr unsigned MaxPromoteDepth = 4;

/// Align two sibling lists. Where both sides leave ops unaligned between
/// two aligned pairs, those ops' children are aligned instead (their
/// parents stay one-sided): TraceLens matches `aten::add_` under
/// `aten::_convolution` (H100) with the one under `aten::miopen_convolution`
/// (MI300X) this way. Recursion is bounded by MaxPromoteDepth.
std::vector<Aligned> alignLevel(const Trace &T, const Trace &R,
                                ArrayRef<EventId> CA, ArrayRef<EventId> CB,
                                unsigned Depth) {
  std::vector<std::string> NA, NB;
  for (EventId E : CA)
    NA.push_back(TraceDiff::normalizeName(T.name(E)));
  for (EventId E : CB)
    NB.push_back(TraceDiff::normalizeName(R.name(E)));
  std::vector<Aligned> Out;
  size_t I = 0, J = 0;
  auto Gap = [&](size_t PI, size_t PJ) {
    ArrayRef<EventId> GA = CA.slice(I, PI - I), GB = CB.slice(J, PJ - J);
    if (!GA.empty() && !GB.empty() && Depth < MaxPromoteDepth) {
      // Each unmatched event is replaced by its host children (a leaf stays).
      bool Changed = false;
      auto Promote = [&](const Trace &Tr, ArrayRef<EventId> G) {
        std::vector<EventId> X;
        for (EventId E : G) {
          std::vector<EventId> K = hostChildren(Tr, E);
          Changed |= !K.empty();
          if (K.empty())
            X.push_back(E);
          else
            X.insert(X.end(), K.begin(), K.end());
        }
        return X;
      };
      std::vector<EventId> XA = Promote(T, GA), XB = Promote(R, GB);
      if (Changed) {
        std::vector<Aligned> Sub = alignLevel(T, R, XA, XB, Depth + 1);
        if (any_of(Sub, [](const Aligned &X) {
              return X.A != NoEvent && X.B != NoEvent;
            })) {
          for (EventId E : GA)
            if (!hostChildren(T, E).empty())
              Out.push_back({E, NoEvent, true});
          for (EventId E : GB)
            if (!hostChildren(R, E).empty())
              Out.push_back({NoEvent, E, true});
          Out.insert(Out.end(), Sub.begin(), Sub.end());
          return;
        }
      }
    }
    for (EventId E : GA)
      Out.push_back({E, NoEvent, false});
    for (EventId E : GB)
      Out.push_back({NoEvent, E, false});
  };
  for (auto [PI, PJ] : alignByName(NA, NB)) {
    Gap(PI, PJ);
    Out.push_back({CA[PI], CB[PJ], false});
    I = PI + 1, J = PJ + 1;
  }
  Gap(CA.size(), CB.size());
  return Out;
}

} // namespace

TraceDiff::TraceDiff(const Trace &T, AnalysisManager &AM) {
  Ref = AM.options().Reference;
  if (!Ref)
    return;
  const Trace &R = *Ref;
  Device1 = deviceName(T);
  Device2 = deviceName(R);
  std::string F1 = frameworkOf(T), F2 = frameworkOf(R);
  if (F1 != F2)
    FrameworkWarning = "the traces come from different frameworks (" + F1 +
                       " vs " + F2 + "); ops will hardly match";

  // Merge the trees with an explicit stack. A work item is a matched pair
  // (both set) or a one-sided node; ids are assigned in pre-order.
  struct Item {
    EventId A, B;       // A in T, B in R (one may be NoEvent)
    uint32_t UnderLca;  // nearest matched ancestor's id (0 = none)
    bool TopOneSided;   // first node of a one-sided subtree
    bool Hollow;        // one-sided, its children were aligned elsewhere
  };
  DenseMap<EventId, uint32_t> MatchedId1, MatchedId2; // matched node -> id
  DenseMap<uint32_t, std::pair<EventId, EventId>> NodesOfId;
  struct Top {
    uint32_t Lca;
    bool InRef;
    EventId E;
    bool Hollow;
  };
  std::vector<Top> OneSidedTops;
  uint32_t NextId = 0;

  auto PushAligned = [&](std::vector<Item> &Stack,
                         const std::vector<EventId> &CA,
                         const std::vector<EventId> &CB, uint32_t Lca) {
    std::vector<Aligned> Seq = alignLevel(T, R, CA, CB, 0);
    for (auto It = Seq.rbegin(); It != Seq.rend(); ++It)
      Stack.push_back({It->A, It->B, Lca, true, It->Hollow});
  };

  std::vector<Item> Stack;
  PushAligned(Stack, hostRoots(T), hostRoots(R), 0);
  while (!Stack.empty()) {
    Item W = Stack.back();
    Stack.pop_back();
    if (W.A != NoEvent && W.B != NoEvent) {
      // Only matched nodes are numbered (one-sided nodes can be no LCA).
      uint32_t Id = ++NextId;
      MatchedId1[W.A] = Id;
      MatchedId2[W.B] = Id;
      NodesOfId[Id] = {W.A, W.B};
      PushAligned(Stack, hostChildren(T, W.A), hostChildren(R, W.B), Id);
      continue;
    }
    bool InRef = W.B != NoEvent;
    EventId E = InRef ? W.B : W.A;
    if (W.TopOneSided)
      OneSidedTops.push_back({W.UnderLca, InRef, E, W.Hollow});
    if (W.Hollow)
      continue;
    std::vector<EventId> Kids = hostChildren(InRef ? R : T, E);
    for (auto It = Kids.rbegin(); It != Kids.rend(); ++It)
      Stack.push_back(InRef ? Item{NoEvent, *It, W.UnderLca, false, false}
                            : Item{*It, NoEvent, W.UnderLca, false, false});
  }

  // LCA of each GPU event: nearest matched node at or above its host node.
  std::map<uint32_t, LcaGroup> ById;
  auto Assign = [&](const Trace &Tr, bool InRef,
                    DenseMap<EventId, uint32_t> &Matched,
                    DenseMap<EventId, uint32_t> &GroupOf,
                    std::vector<EventId> &Unmatched, double &Total,
                    size_t &NumK) {
    for (const GpuLaunch &L : gpuLaunches(Tr)) {
      Total += Tr.dur(L.Gpu);
      ++NumK;
      EventId H = L.Host;
      uint32_t Id = 0;
      while (H != NoEvent) {
        auto It = Matched.find(H);
        if (It != Matched.end()) {
          Id = It->second;
          break;
        }
        H = Tr.parent(H);
      }
      if (!Id) {
        Unmatched.push_back(L.Gpu);
        continue;
      }
      LcaGroup &G = ById[Id];
      G.Id = Id;
      (InRef ? G.Kernels2 : G.Kernels1).push_back(L.Gpu);
      (InRef ? G.Time2Us : G.Time1Us) += Tr.dur(L.Gpu);
      GroupOf[L.Gpu] = Id;
    }
  };
  Assign(T, false, MatchedId1, GroupOf1, Unmatched1, Total1, NumK1);
  Assign(R, true, MatchedId2, GroupOf2, Unmatched2, Total2, NumK2);
  for (auto &[Id, G] : ById) {
    auto [A, B] = NodesOfId.lookup(Id);
    G.Node1 = A;
    G.Node2 = B;
    G.Name = T.name(A).str();
    Groups.push_back(std::move(G));
  }
  // Map group id -> index for groupOf().
  for (auto &KV : GroupOf1)
    KV.second = uint32_t(std::lower_bound(Groups.begin(), Groups.end(),
                                          KV.second,
                                          [](const LcaGroup &G, uint32_t I) {
                                            return G.Id < I;
                                          }) -
                         Groups.begin());
  for (auto &KV : GroupOf2)
    KV.second = uint32_t(std::lower_bound(Groups.begin(), Groups.end(),
                                          KV.second,
                                          [](const LcaGroup &G, uint32_t I) {
                                            return G.Id < I;
                                          }) -
                         Groups.begin());

  // One-sided ops that launch GPU work.
  for (const Top &Tp : OneSidedTops) {
    bool InRef = Tp.InRef;
    EventId E = Tp.E;
    const Trace &Tr = InRef ? R : T;
    // A hollow op counts only what it launches itself.
    std::vector<EventId> Gpu;
    for (EventId G : Tr.subtreeGpuEvents(E)) {
      EventId H = Tr.parent(G) == NoEvent ? NoEvent : Tr.parent(Tr.parent(G));
      while (H != NoEvent && !isMatchable(Tr, H))
        H = Tr.parent(H);
      if (!Tp.Hollow || H == E)
        Gpu.push_back(G);
    }
    if (Gpu.empty())
      continue;
    OneSidedOp O;
    O.InReference = InRef;
    O.Op = E;
    O.Name = Tr.name(E).str();
    O.LcaId = Tp.Lca;
    O.NumKernels = Gpu.size();
    for (EventId G : Gpu)
      O.KernelTimeUs += Tr.dur(G);
    OneSided.push_back(std::move(O));
  }

  // Per kernel name.
  std::map<std::string, KernelNameDiff> Names;
  for (bool InRef : {false, true}) {
    const Trace &Tr = InRef ? R : T;
    for (const GpuLaunch &L : gpuLaunches(Tr)) {
      KernelNameDiff &D = Names[Tr.name(L.Gpu).str()];
      D.Name = Tr.name(L.Gpu).str();
      (InRef ? D.Count2 : D.Count1) += 1;
      (InRef ? D.Time2Us : D.Time1Us) += Tr.dur(L.Gpu);
    }
  }
  for (auto &KV : Names)
    ByName.push_back(std::move(KV.second));
}

const LcaGroup *TraceDiff::groupOf(EventId Gpu, bool FromReference) const {
  const auto &M = FromReference ? GroupOf2 : GroupOf1;
  auto It = M.find(Gpu);
  return It == M.end() ? nullptr : &Groups[It->second];
}

} // namespace tl
