//===- BuildStructure.cpp - Host tree, GPU links, fwd/bwd links -----------===//
//
// Runs once after the SAX pass (spec 1.5, 2.2-2.7). Everything is iterative
// and at most O(n log n).
//
//===----------------------------------------------------------------------===//
#include "BuildStructure.h"
#include "tl/Input/PageBuffer.h"
#include "tl/Support/SortRuns.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <initializer_list>
#include <numeric>
#include <thread>
#include <tuple>

using namespace tl;

namespace {

/// (node, item) pairs: (parent, child) or (forward, backward).
using EdgeList = std::vector<std::pair<EventId, EventId>>;

/// DenseMap<int64_t> reserves two keys; such ids are simply not indexed.
bool indexable(int64_t V) { return V < INT64_MAX - 1; }

void applyMetadata(Trace::Storage &S, ImportState &State) {
  // Later records overwrite earlier ones (spec 1.5).
  llvm::DenseMap<std::tuple<int64_t, int64_t, unsigned>, std::array<StrId, 3>>
      Meta;
  auto Key = [](const TrackPart &P, const TrackPart &T) {
    return std::make_tuple(P.IsString ? int64_t(P.Str) : P.Int,
                           T.IsString ? int64_t(T.Str) : T.Int,
                           unsigned(P.IsString) | unsigned(T.IsString) << 1);
  };
  for (const MetaRecord &R : State.Meta)
    Meta[Key(R.Pid, R.Tid)][R.Key] = R.Value;
  TrackPart Zero;
  for (Track &T : S.Tracks) {
    auto P = Meta.find(Key(T.Pid, Zero));
    if (P != Meta.end()) {
      T.ProcessName = P->second[MetaRecord::ProcessName];
      T.ProcessLabel = P->second[MetaRecord::ProcessLabels];
    }
    auto Th = Meta.find(Key(T.Pid, T.Tid));
    if (Th != Meta.end())
      T.ThreadName = Th->second[MetaRecord::ThreadName];
  }
}

/// Spec 2.2: the first runtime event whose name contains "launch".
void chooseLinkKey(Trace::Storage &S) {
  StrId Corr = S.Strings.intern("correlation");
  StrId Ext = S.Strings.intern("External id");
  S.LinkKey = Ext;
  for (EventId E = 0; E < S.size(); ++E) {
    if (!isRuntimeKind(S.Kind[E]))
      continue;
    if (!S.Strings.get(S.Name[E]).contains_insensitive("launch"))
      continue;
    if (S.arg(E, Corr).has_value())
      S.LinkKey = Corr;
    break;
  }
  S.internKeys();
}

/// The host tree's events in file order, in pages of their own (their
/// pages go back to the system when freed, so the heap and the peak RSS do
/// not depend on which thread ends first); Edges gets room for their
/// parents. Allocated by the calling thread.
PageBuffer hostTreeEvents(Trace::Storage &S,
                          EdgeList &Edges) {
  size_t Count = 0;
  for (EventId E = 0; E < S.size(); ++E)
    Count += isHostTreeKind(S.Kind[E]);
  PageBuffer Cands(std::max<size_t>(Count, 1) * sizeof(EventId));
  for (EventId E = 0; E < S.size(); ++E)
    if (isHostTreeKind(S.Kind[E]))
      Cands.append(reinterpret_cast<const char *>(&E), sizeof(EventId));
  Edges.reserve(Count); // at most one parent each
  return Cands;
}

/// Spec 2.4: per-thread stack by time containment with the bleed rule.
void buildHostTree(Trace::Storage &S, PageBuffer Buf,
                   EdgeList &Edges) {
  llvm::MutableArrayRef<EventId> Cands(reinterpret_cast<EventId *>(Buf.data()),
                                       Buf.size() / sizeof(EventId));
  // By ts, ties in file order (a stable sort without its buffer).
  auto Before = [&](EventId A, EventId B) {
    return S.Ts[A] < S.Ts[B] || (S.Ts[A] == S.Ts[B] && A < B);
  };
  // Profilers write each thread's host events in time order, so the list
  // is a few ascending runs (owlv2: 5 of 99 k events): they are merged,
  // each merge's buffer capped so that the peak memory does not grow.
  constexpr size_t MaxMergeBuffer = 1 << 16; // ids (256 KiB)
  sortFewRuns(Cands.begin(), Cands.end(), Before, MaxMergeBuffer);
  std::vector<std::vector<EventId>> Stacks(S.Tracks.size());
  std::vector<uint32_t> CpuOnStack(S.Tracks.size(), 0);
  auto End = [&](EventId E) { return S.Ts[E] + S.Dur[E]; };
  for (EventId E : Cands) {
    TrackId T = S.TrackOf[E];
    std::vector<EventId> &St = Stacks[T];
    auto Pop = [&] {
      if (S.Kind[St.back()] == EventKind::CpuOp)
        --CpuOnStack[T];
      St.pop_back();
    };
    while (!St.empty() && S.Ts[E] >= End(St.back()))
      Pop();
    if (!St.empty() && End(E) > End(St.back())) {
      double Overlap = End(St.back()) - S.Ts[E];
      if (Overlap < 1.0 && St.size() >= 2) {
        Pop();
        S.BleedPlaced.push_back(E);
      } else {
        S.Dropped.push_back(E);
        ++S.Stats.BleedDrops;
        continue;
      }
    }
    if (!St.empty()) {
      S.Parent[E] = St.back();
      Edges.push_back({St.back(), E});
    }
    St.push_back(E);
    if (S.Kind[E] == EventKind::CpuOp) {
      if (CpuOnStack[T] == 0)
        S.CpuRoots.push_back(E);
      ++CpuOnStack[T];
    }
  }
  std::sort(S.Dropped.begin(), S.Dropped.end());
  std::sort(S.BleedPlaced.begin(), S.BleedPlaced.end());
}

/// Spec 2.5: runtime -> GPU links via ac2g flows (or, in traces without
/// any flow, via a unique runtime event with the same link value), graph
/// launches to every GPU event with their link value.
void linkGpu(Trace::Storage &S, ImportState &State,
             EdgeList &Edges) {
  StrId Key = S.LinkKey;
  Edges.reserve(S.Gpu.size()); // at most one parent each
  auto Attach = [&](EventId R, EventId G) {
    if (G == R || !isGpuKind(S.Kind[G])) {
      State.warn(S, "event " + std::to_string(S.Uid[R]) +
                        ": launch flow ends at a non-GPU event; ignored");
      return;
    }
    if (S.Parent[G] != NoEvent) {
      State.warn(S, "event " + std::to_string(S.Uid[G]) +
                        ": GPU event reached by two runtime events; kept "
                        "under the first");
      return;
    }
    S.Parent[G] = R;
    Edges.push_back({R, G});
    ++S.Stats.LinkedGpuEvents;
  };
  auto IsGraphLaunch = [&](EventId R) {
    llvm::StringRef N = S.Strings.get(S.Name[R]);
    return N == "cudaGraphLaunch" || N == "hipGraphLaunch";
  };

  // Runtime events with an indexable link value, and that value (read
  // once: both passes below need it).
  std::vector<EventId> Runtime;
  std::vector<int64_t> RuntimeLink;
  uint64_t GraphLaunchesWithoutLink = 0;
  for (EventId E = 0; E < S.size(); ++E) {
    if (!isRuntimeKind(S.Kind[E]))
      continue;
    auto L = S.intArg(E, Key);
    if (L && indexable(*L)) {
      Runtime.push_back(E);
      RuntimeLink.push_back(*L);
    } else if (IsGraphLaunch(E)) {
      ++GraphLaunchesWithoutLink;
    }
  }

  // Duplicate link values among runtime events (counted, both modes).
  llvm::DenseMap<int64_t, EventId> RuntimeByLink;
  llvm::DenseMap<int64_t, std::vector<EventId>> GraphGpu;
  for (size_t I = 0; I < Runtime.size(); ++I) {
    EventId R = Runtime[I];
    const int64_t *L = &RuntimeLink[I];
    auto [It, New] = RuntimeByLink.try_emplace(*L, R);
    if (!New) {
      ++S.Stats.DuplicateCorrelations;
      It->second = NoEvent; // ambiguous
    }
    if (IsGraphLaunch(R))
      GraphGpu.try_emplace(*L);
  }
  if (!GraphGpu.empty())
    for (EventId G : S.Gpu)
      if (auto L = S.intArg(G, Key))
        if (indexable(*L)) {
          auto It = GraphGpu.find(*L);
          if (It != GraphGpu.end())
            It->second.push_back(G);
        }
  if (S.Stats.DuplicateCorrelations)
    State.warn(S, std::to_string(S.Stats.DuplicateCorrelations) +
                      " runtime events repeat another's " +
                      S.Strings.get(Key).str());

  bool HasFlows = !State.Flows.empty();
  if (HasFlows) {
    // Per flow id: a start was seen, the track of its last end (NoTrack:
    // none, or a track without events), and ptl[(that track, id)], the
    // last event there with the id as link value (spec 2.3). Only that
    // pair of ptl is ever asked for, so it is kept here instead of a
    // table of every (track, link) pair. One map: it is the largest
    // structure here.
    constexpr uint32_t NoTrack = 0x7fffffff;
    struct FlowEnds {
      uint32_t End : 31;
      uint32_t Start : 1;
      EventId Target;
    };
    static_assert(sizeof(FlowEnds) == 8, "FlowEnds must stay 8 bytes");
    llvm::DenseMap<int64_t, FlowEnds> Flows;
    Flows.reserve(State.Flows.size() / 2); // a start and an end per id
    std::vector<uint32_t> WhereTrack;
    for (auto &[Pid, Tid] : State.FlowTracks) {
      TrackId T = State.findTrack(Pid, Tid);
      WhereTrack.push_back(T < NoTrack ? T : NoTrack);
    }
    for (const FlowRecord &F : State.Flows) {
      if (!indexable(F.Id))
        continue;
      auto [It, New] = Flows.try_emplace(F.Id, FlowEnds{NoTrack, 0, NoEvent});
      if (F.IsStart)
        It->second.Start = 1;
      else
        It->second.End = WhereTrack[F.Where];
    }
    State.Flows.clear();
    State.Flows.shrink_to_fit();
    // Flow ends resolve only to events of the tracks they name.
    std::vector<uint8_t> EndTrack(S.Tracks.size(), 0);
    for (auto &[Id, F] : Flows)
      if (F.End != NoTrack)
        EndTrack[F.End] = 1;
    for (EventId E = 0; E < S.size(); ++E)
      if (EndTrack[S.TrackOf[E]])
        if (auto L = S.intArg(E, Key))
          if (indexable(*L)) {
            auto It = Flows.find(*L);
            if (It != Flows.end() && It->second.End == S.TrackOf[E])
              It->second.Target = E; // the last one wins
          }
    for (size_t I = 0; I < Runtime.size(); ++I) {
      EventId R = Runtime[I];
      const int64_t *L = &RuntimeLink[I];
      if (IsGraphLaunch(R)) {
        ++S.Stats.GraphLaunches;
        for (EventId G : GraphGpu[*L])
          Attach(R, G);
        continue;
      }
      auto FIt = Flows.find(*L);
      if (FIt == Flows.end() || !FIt->second.Start)
        continue;
      if (FIt->second.Target != NoEvent)
        Attach(R, FIt->second.Target);
    }
  } else {
    // No flows at all: link by a unique runtime event with the same value.
    uint64_t Ambiguous = 0;
    S.Stats.GraphLaunches += GraphLaunchesWithoutLink;
    for (size_t I = 0; I < Runtime.size(); ++I)
      if (IsGraphLaunch(Runtime[I])) {
        ++S.Stats.GraphLaunches;
        for (EventId G : GraphGpu[RuntimeLink[I]])
          Attach(Runtime[I], G);
      }
    for (EventId G : S.Gpu) {
      if (S.Parent[G] != NoEvent)
        continue;
      auto L = S.intArg(G, Key);
      if (!L || !indexable(*L))
        continue;
      auto It = RuntimeByLink.find(*L);
      if (It == RuntimeByLink.end())
        continue;
      if (It->second == NoEvent) {
        ++Ambiguous;
        continue;
      }
      if (!IsGraphLaunch(It->second))
        Attach(It->second, G);
    }
    if (Ambiguous)
      State.warn(
          S, std::to_string(Ambiguous) + " GPU events left unlinked: their " +
                 S.Strings.get(Key).str() + " matches several runtime events");
  }
  S.Stats.UnlinkedGpuEvents = S.Gpu.size() - S.Stats.LinkedGpuEvents;
}

/// CSR of N nodes from (node, item) edge lists, items in list then edge
/// order: Begin gets N + 1 entries.
void buildCsr(size_t N, std::initializer_list<const EdgeList *> Lists,
              std::vector<uint32_t> &Begin, std::vector<EventId> &Items) {
  // No cursor array: counts shifted by two, so that after the prefix sum
  // entry P + 1 is P's first slot and, once filled, P + 1's.
  Begin.assign(N + 2, 0);
  size_t Total = 0;
  for (const EdgeList *Edges : Lists) {
    for (auto &[P, C] : *Edges)
      ++Begin[P + 2];
    Total += Edges->size();
  }
  std::partial_sum(Begin.begin(), Begin.end(), Begin.begin());
  Items.resize(Total);
  for (const EdgeList *Edges : Lists)
    for (auto &[P, C] : *Edges)
      Items[Begin[P + 1]++] = C;
  Begin.pop_back();
}

/// Children CSR in edge order (host children by ts, then GPU children).
void buildChildren(Trace::Storage &S, const EdgeList &Host,
                   const EdgeList &Gpu) {
  buildCsr(S.size(), {&Host, &Gpu}, S.ChildBegin, S.Children);
}

/// Spec 2.7: forward -> backward links by sequence number.
void linkFwdBwd(Trace::Storage &S) {
  size_t N = S.size();
  S.Fwd.assign(N, NoEvent);
  std::vector<std::pair<int64_t, EventId>> Seq;
  if (S.KeySequence)
    for (EventId E = 0; E < N; ++E)
      if (auto Q = S.intArg(E, S.KeySequence))
        Seq.push_back({*Q, E});
  // Group by number; groups keep file order and are visited in first-seen
  // order (the first member of a group is its first-seen event).
  std::stable_sort(Seq.begin(), Seq.end(),
                   [](auto &A, auto &B) { return A.first < B.first; });
  std::vector<std::pair<size_t, size_t>> Groups;
  for (size_t I = 0; I < Seq.size();) {
    size_t J = I;
    while (J < Seq.size() && Seq[J].first == Seq[I].first)
      ++J;
    Groups.push_back({I, J});
    I = J;
  }
  std::sort(Groups.begin(), Groups.end(), [&](auto &A, auto &B) {
    return Seq[A.first].second < Seq[B.first].second;
  });
  EdgeList FB; // (fwd, bwd) in order
  for (auto [Begin, End] : Groups) {
    EventId B = NoEvent;
    for (size_t I = Begin; I < End && B == NoEvent; ++I)
      if (S.Strings.get(S.Name[Seq[I].second])
              .starts_with("autograd::engine::evaluate_function:"))
        B = Seq[I].second;
    if (B == NoEvent)
      continue;
    EventId F = NoEvent;
    for (size_t I = Begin; I < End; ++I) {
      EventId E = Seq[I].second;
      if (S.TrackOf[E] == S.TrackOf[B])
        continue;
      if (F == NoEvent || S.Ts[E] > S.Ts[F])
        F = E;
    }
    if (F == NoEvent)
      continue;
    S.Fwd[B] = F;
    FB.push_back({F, B});
  }
  buildCsr(N, {&FB}, S.BwdBegin, S.Bwd);
}

} // namespace

/// Preorder numbering of the forest; a subtree is [Pre, SubEnd). Linked GPU
/// events sorted by their own preorder make every subtree's GPU events one
/// contiguous range; unlinked GPU events follow in file order.
void tl::buildGpuRanges(Trace::Storage &S) {
  size_t N = S.size();
  std::vector<uint32_t> Pre(N, 0), SubEnd(N, 0);
  uint32_t Counter = 0;
  std::vector<std::pair<EventId, uint32_t>> Stack;
  for (EventId Root = 0; Root < N; ++Root) {
    if (S.Parent[Root] != NoEvent)
      continue;
    Pre[Root] = Counter++;
    Stack.push_back({Root, S.ChildBegin[Root]});
    while (!Stack.empty()) {
      auto &[E, Next] = Stack.back();
      if (Next == S.ChildBegin[E + 1]) {
        SubEnd[E] = Counter;
        Stack.pop_back();
        continue;
      }
      EventId C = S.Children[Next++];
      Pre[C] = Counter++;
      Stack.push_back({C, S.ChildBegin[C]});
    }
  }
  // Before[P] = linked GPU events whose preorder index is below P: a
  // linked GPU event's rank in preorder is Before[Pre], and a subtree's
  // range is [Before[Pre], Before[SubEnd]). Linear, with sequential scans
  // instead of a binary search per event (cache misses at 10 M events).
  std::vector<uint32_t> Before(N + 1, 0);
  for (EventId G : S.Gpu)
    if (S.Parent[G] != NoEvent)
      Before[Pre[G] + 1] = 1;
  std::partial_sum(Before.begin(), Before.end(), Before.begin());
  S.GpuOrder.reserve(S.Gpu.size());
  S.GpuOrder.assign(Before[N], NoEvent);
  for (EventId G : S.Gpu)
    if (S.Parent[G] != NoEvent)
      S.GpuOrder[Before[Pre[G]]] = G;
  // Pre and SubEnd become GpuBegin and GpuEnd in place.
  for (uint32_t &P : Pre)
    P = Before[P];
  for (uint32_t &E : SubEnd)
    E = Before[E];
  S.GpuBegin = std::move(Pre);
  S.GpuEnd = std::move(SubEnd);
  for (EventId G : S.Gpu)
    if (S.Parent[G] == NoEvent) {
      S.GpuBegin[G] = uint32_t(S.GpuOrder.size());
      S.GpuOrder.push_back(G);
      S.GpuEnd[G] = uint32_t(S.GpuOrder.size());
    }
}

void tl::buildStructure(Trace::Storage &S, ImportState &State,
                        bool TwoThreads) {
  applyMetadata(S, State);
  chooseLinkKey(S);
  S.Parent.assign(S.size(), NoEvent);
  // The host tree and the GPU links write the parents of disjoint kinds,
  // their own stats and edge lists (only linkGpu warns), and read the
  // columns and args, which no longer change: with two threads they run
  // side by side (host edges then GPU edges make the same children order).
  EdgeList HostEdges, GpuEdges;
  PageBuffer HostEvents = hostTreeEvents(S, HostEdges);
  if (TwoThreads) {
    std::thread Host(
        [&] { buildHostTree(S, std::move(HostEvents), HostEdges); });
    linkGpu(S, State, GpuEdges);
    Host.join();
  } else {
    buildHostTree(S, std::move(HostEvents), HostEdges);
    linkGpu(S, State, GpuEdges);
  }
  buildChildren(S, HostEdges, GpuEdges);
  HostEdges = {};
  GpuEdges = {};
  buildGpuRanges(S);
  linkFwdBwd(S);
  if (S.Stats.BleedDrops)
    State.warn(S, std::to_string(S.Stats.BleedDrops) +
                      " host events dropped from the call tree by the bleed "
                      "rule");
}
