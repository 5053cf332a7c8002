//===- MemoryTimeline.cpp - Allocator curves, peak and owners ------------===//
//
// Spec memory-timeline.md §3. Events are grouped by device key and stably
// sorted by ts; each is attributed to the cpu_ops on its (pid, tid) whose
// half-open interval [start, end) contains its ts. The owner look-up is a
// binary search over the thread's cpu_op / user_annotation events by start
// followed by a walk up their nesting (parent = innermost container), so a
// trace with m allocator events and n host events costs O((n + m) log n).
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/MemoryTimeline.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/ProfilerSteps.h"
#include "tl/IR/MemoryEvent.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace tl;

std::string tl::memDeviceName(int64_t Type, int64_t Id) {
  if (Type == 0)
    return "cpu";
  std::string I = std::to_string(Id);
  if (Type == 1)
    return "cuda:" + I;
  if (Type == 6)
    return "hip:" + I;
  return "type" + std::to_string(Type) + ":" + I;
}

std::optional<double> MemDevice::peakAllocatedPct() const {
  if (!DeviceMemory || *DeviceMemory <= 0)
    return std::nullopt;
  return double(PeakAllocated) / double(*DeviceMemory) * 100;
}
std::optional<double> MemDevice::peakReservedPct() const {
  if (!DeviceMemory || *DeviceMemory <= 0 || !PeakReserved)
    return std::nullopt;
  return double(*PeakReserved) / double(*DeviceMemory) * 100;
}

namespace {

bool isAllocHelper(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases("aten::empty", "aten::empty_strided", "aten::empty_like",
             "aten::new_empty", "aten::new_empty_strided", true)
      .Cases("aten::zeros", "aten::ones", "aten::full", "aten::resize_", true)
      .Default(false);
}

/// cpu_op / user_annotation nesting per thread, for "what contains ts".
class OwnerIndex {
public:
  explicit OwnerIndex(const Trace &T)
      : Parent(T.size(), NoEvent), Ts(T.size()), Ends(T.size()) {
    for (EventKind K : {EventKind::CpuOp, EventKind::UserAnnotation})
      for (EventId E : T.eventsOfKind(K)) {
        ByTrack[T.track(E)].push_back(E);
        Ts[E] = T.ts(E); // the accessors are out-of-line calls
        Ends[E] = T.end(E);
      }
    for (auto &[Tr, V] : ByTrack) {
      std::sort(V.begin(), V.end(), [&](EventId A, EventId B) {
        return std::make_tuple(Ts[A], Ts[A] - Ends[A], A) <
               std::make_tuple(Ts[B], Ts[B] - Ends[B], B);
      });
      std::vector<EventId> Stack;
      for (EventId E : V) {
        while (!Stack.empty() && Ends[Stack.back()] <= Ts[E])
          Stack.pop_back();
        if (!Stack.empty())
          Parent[E] = Stack.back();
        Stack.push_back(E);
      }
    }
  }

  /// Innermost cpu_op / annotation of track Tr with start <= Ts < end.
  EventId innermost(TrackId Tr, double At) const {
    auto It = ByTrack.find(Tr);
    if (It == ByTrack.end())
      return NoEvent;
    const std::vector<EventId> &V = It->second;
    auto P = std::upper_bound(V.begin(), V.end(), At, [&](double X, EventId E) {
      return X < Ts[E];
    });
    if (P == V.begin())
      return NoEvent;
    EventId C = *std::prev(P);
    while (C != NoEvent && !(Ends[C] > At))
      C = Parent[C];
    return C;
  }
  EventId parent(EventId E) const { return Parent[E]; }

private:
  std::vector<EventId> Parent;
  std::vector<double> Ts, Ends;
  std::map<TrackId, std::vector<EventId>> ByTrack;
};

} // namespace

MemoryTimeline::MemoryTimeline(const Trace &T, AnalysisManager &AM) {
  (void)AM;
  llvm::ArrayRef<MemoryEvent> Evs = memoryEvents(T);
  if (Evs.empty())
    return;
  OwnerIndex Owners(T);
  std::vector<ProfilerStep> Steps = collectProfilerSteps(T);

  // (pid, tid) -> track, memoised (few distinct threads).
  std::vector<std::pair<std::pair<TrackPart, TrackPart>, TrackId>> TrackMemo;
  auto TrackOf = [&](const MemoryEvent &M) -> TrackId {
    for (auto &[K, V] : TrackMemo)
      if (K.first == M.Pid && K.second == M.Tid)
        return V;
    TrackId Found = ~0u;
    for (TrackId I = 0; I < T.numTracks(); ++I)
      if (T.trackInfo(I).Pid == M.Pid && T.trackInfo(I).Tid == M.Tid) {
        Found = I;
        break;
      }
    TrackMemo.push_back({{M.Pid, M.Tid}, Found});
    return Found;
  };
  auto StepAt = [&](double Ts) -> int64_t {
    auto It = std::upper_bound(
        Steps.begin(), Steps.end(), Ts,
        [](double V, const ProfilerStep &S) { return V < S.Start; });
    // Steps may overlap (nested annotations); take the latest-starting one
    // that contains Ts.
    while (It != Steps.begin()) {
      --It;
      if (Ts < It->End)
        return It->Number;
    }
    return -1;
  };
  llvm::DenseMap<EventId, std::string> ModuleOf;
  auto OwnerAt = [&](const MemoryEvent &M) {
    MemOwnerInfo O;
    O.Step = StepAt(M.Ts);
    TrackId Tr = TrackOf(M);
    if (Tr == ~0u) {
      O.Display = "(no op)";
      return O;
    }
    EventId ParentOp = NoEvent;
    for (EventId C = Owners.innermost(Tr, M.Ts); C != NoEvent;
         C = Owners.parent(C)) {
      if (T.kind(C) != EventKind::CpuOp)
        continue;
      if (O.Op == NoEvent)
        O.Op = C;
      else if (ParentOp == NoEvent)
        ParentOp = C;
      O.TopOp = C;
    }
    if (O.Op == NoEvent)
      O.Display = "(no op)";
    else if (ParentOp != NoEvent && isAllocHelper(T.name(O.Op)))
      O.Display = (T.name(ParentOp) + " (" + T.name(O.Op) + ")").str();
    else
      O.Display = T.name(O.Op).str();
    if (O.Op != NoEvent) {
      // Many events share an op (an op allocates several tensors).
      auto [It, New] = ModuleOf.try_emplace(O.Op);
      if (New) {
        std::vector<llvm::StringRef> Mods = T.moduleStack(O.Op);
        if (!Mods.empty())
          It->second = Mods.back().str();
      }
      O.Module = It->second;
    }
    return O;
  };

  // Group by device key, keeping file order inside each group.
  std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> Groups;
  for (size_t I = 0; I < Evs.size(); ++I) {
    const MemoryEvent &M = Evs[I];
    if (!M.DeviceType || !M.Bytes) {
      ++Skipped;
      continue;
    }
    Groups[{*M.DeviceType, M.DeviceId.value_or(-1)}].push_back(I);
  }

  // deviceProperties[].totalGlobalMem by id.
  llvm::DenseMap<int64_t, int64_t> DevMem;
  ArgValue Props = T.topLevel().get("deviceProperties");
  for (size_t I = 0; I < Props.size(); ++I) {
    auto Id = Props[I].get("id").asInt();
    auto Mem = Props[I].get("totalGlobalMem").asInt();
    if (Id && Mem)
      DevMem[*Id] = *Mem;
  }

  for (auto &[Key, Idx] : Groups) {
    MemDevice D;
    D.Type = Key.first;
    D.Id = Key.second;
    D.Name = memDeviceName(D.Type, D.Id);
    for (size_t J = 1; J < Idx.size(); ++J)
      if (Evs[Idx[J]].Ts < Evs[Idx[J - 1]].Ts)
        D.FileOrderWasTsOrder = false;
    std::stable_sort(Idx.begin(), Idx.end(), [&](size_t A, size_t B) {
      return Evs[A].Ts < Evs[B].Ts;
    });
    bool AnyTotal = false;
    for (size_t I : Idx)
      AnyTotal |= Evs[I].TotalAllocated.has_value();
    D.Relative = !AnyTotal;

    int64_t Prev = 0;
    std::optional<int64_t> PrevRes;
    std::map<int64_t, size_t> Open; // Addr -> allocation index
    std::vector<size_t> UnmatchedAt; // points of unmatched frees
    for (size_t K = 0; K < Idx.size(); ++K) {
      const MemoryEvent &M = Evs[Idx[K]];
      MemPoint P;
      P.Ts = M.Ts;
      P.Uid = M.Uid;
      P.Bytes = *M.Bytes;
      P.OutOfMemory = M.OutOfMemory;
      // A failed allocation changes nothing; its Bytes is the request.
      int64_t Delta = M.OutOfMemory ? 0 : P.Bytes;
      if (M.TotalAllocated) {
        P.Allocated = *M.TotalAllocated;
        if (K == 0)
          D.Baseline = P.Allocated - Delta;
        else if (P.Allocated - Prev != Delta)
          ++D.ConsistencyViolations;
      } else {
        // Missing here (or everywhere: the relative curve from 0).
        P.Allocated = Prev + Delta;
      }
      P.Reserved = M.TotalReserved;
      if (K > 0 && P.Reserved && PrevRes && *P.Reserved > *PrevRes)
        ++D.ReserveGrowthEvents;
      if (P.Reserved)
        PrevRes = P.Reserved;
      P.Owner = OwnerAt(M);
      if (M.OutOfMemory)
        ++D.OomEvents;
      if (K == 0 || P.Allocated > D.PeakAllocated) {
        D.PeakAllocated = P.Allocated;
        D.PeakIndex = K;
      }
      if (P.Reserved && (!D.PeakReserved || *P.Reserved > *D.PeakReserved)) {
        D.PeakReserved = P.Reserved;
        D.PeakReservedTs = P.Ts;
      }
      // Pairing by address (§3.4); [OutOfMemory] allocates nothing.
      if (M.Addr && !M.OutOfMemory) {
        if (P.Bytes > 0) {
          auto [It, New] = Open.try_emplace(*M.Addr, D.Allocations.size());
          if (!New) {
            MemAllocation &Old = D.Allocations[It->second];
            // Released at an unknown time before this reallocation.
            Old.ReleaseUnknown = true;
            Old.FreePoint = K;
            ++D.ReleaseUnknown;
            It->second = D.Allocations.size();
          }
          MemAllocation A;
          A.Addr = *M.Addr;
          A.Bytes = P.Bytes;
          A.AllocTs = P.Ts;
          A.AllocPoint = K;
          D.Allocations.push_back(A);
        } else if (P.Bytes < 0) {
          auto It = Open.find(*M.Addr);
          if (It != Open.end()) {
            MemAllocation &A = D.Allocations[It->second];
            A.FreeTs = P.Ts;
            A.FreePoint = K;
            Open.erase(It);
          } else {
            ++D.UnmatchedFrees;
            UnmatchedAt.push_back(K);
          }
        }
      }
      Prev = P.Allocated;
      D.Points.push_back(std::move(P));
    }
    D.OpenAtEnd = Open.size();
    D.FinalAllocated = Prev;
    if (D.Relative)
      D.Baseline.reset();
    const MemPoint &Pk = D.Points[D.PeakIndex];
    // The CPU allocator reports no reserve (0).
    if (Pk.Reserved && D.isGpu())
      D.CachedAtPeak = *Pk.Reserved - Pk.Allocated;
    if (D.isGpu()) {
      auto It = DevMem.find(D.Id);
      if (It != DevMem.end())
        D.DeviceMemory = It->second;
    }

    // Live at the peak: allocations made at or before it, not freed (or
    // reallocated) by then, plus what remains of the pre-trace memory.
    std::map<std::string, int64_t> ByTop, ByOp, ByStep, ByModule;
    bool AnyModule = false;
    for (const MemAllocation &A : D.Allocations) {
      if (A.AllocPoint > D.PeakIndex)
        continue;
      if (A.FreePoint && *A.FreePoint <= D.PeakIndex)
        continue;
      const MemOwnerInfo &O = D.Points[A.AllocPoint].Owner;
      ByTop[O.TopOp == NoEvent ? "(no op)" : T.name(O.TopOp).str()] += A.Bytes;
      ByOp[O.Display] += A.Bytes;
      ByStep[O.Step < 0 ? "(no step)" : std::to_string(O.Step)] += A.Bytes;
      ByModule[O.Module.empty() ? "(no module)" : O.Module] += A.Bytes;
      AnyModule |= !O.Module.empty();
    }
    for (size_t K : UnmatchedAt)
      if (K <= D.PeakIndex)
        D.UnmatchedBeforePeak += -D.Points[K].Bytes;
    if (D.Baseline) {
      int64_t Before = *D.Baseline - D.UnmatchedBeforePeak;
      const char *Label = "(allocated before trace)";
      ByTop[Label] += Before;
      ByOp[Label] += Before;
      ByStep[Label] += Before;
      if (AnyModule)
        ByModule[Label] += Before;
    }
    auto Add = [&](llvm::StringRef Kind, std::map<std::string, int64_t> &M) {
      size_t First = D.LiveAtPeak.size();
      for (auto &[Name, Bytes] : M)
        if (Bytes != 0)
          D.LiveAtPeak.push_back({Kind, Name, Bytes});
      std::stable_sort(D.LiveAtPeak.begin() + First, D.LiveAtPeak.end(),
                       [](const MemLiveOwner &A, const MemLiveOwner &B) {
                         return A.Bytes > B.Bytes;
                       });
    };
    Add("top_op", ByTop);
    Add("op", ByOp);
    Add("step", ByStep);
    if (AnyModule)
      Add("module", ByModule);

    // Per step (§3.3).
    for (const ProfilerStep &S : Steps) {
      MemStepStats St;
      St.Step = S.Number;
      St.Start = S.Start;
      St.End = S.End;
      int64_t AtStart = D.Baseline.value_or(0);
      std::optional<int64_t> ResStart = D.Points.front().Reserved;
      auto Lo = std::lower_bound(
          D.Points.begin(), D.Points.end(), S.Start,
          [](const MemPoint &P, double V) { return P.Ts < V; });
      if (Lo != D.Points.begin()) {
        AtStart = std::prev(Lo)->Allocated;
        ResStart = std::prev(Lo)->Reserved;
      }
      St.AllocAtStart = St.AllocAtEnd = St.PeakInStep = AtStart;
      St.ReservedAtStart = St.ReservedAtEnd = ResStart;
      std::optional<int64_t> PrevR = ResStart;
      for (auto It = Lo; It != D.Points.end() && It->Ts < S.End; ++It) {
        St.AllocAtEnd = It->Allocated;
        St.PeakInStep = std::max(St.PeakInStep, It->Allocated);
        if (It->Reserved) {
          if (PrevR && *It->Reserved > *PrevR && It != D.Points.begin())
            ++St.ReserveGrowthEvents;
          PrevR = It->Reserved;
          St.ReservedAtEnd = It->Reserved;
        }
        if (It->Bytes > 0) {
          ++St.Allocs;
          St.AllocBytes += It->Bytes;
        } else if (It->Bytes < 0) {
          ++St.Frees;
          St.FreeBytes += -It->Bytes;
        }
      }
      if (Lo == D.Points.end() || Lo->Ts >= S.End)
        St.PeakInStep = AtStart;
      D.Steps.push_back(St);
    }
    Devices.push_back(std::move(D));
  }
  // GPU devices first, then the CPU.
  std::stable_sort(Devices.begin(), Devices.end(),
                   [](const MemDevice &A, const MemDevice &B) {
                     return A.isGpu() > B.isGpu();
                   });
}
