//===- CollectiveMatch.cpp - Collectives matched across ranks -------------===//
#include "tl/Driver/CollectiveMatch.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>
#include <set>

using namespace llvm;

namespace tl {

StringRef matchKeyName(MatchKey K) {
  switch (K) {
  case MatchKey::CommsId:
    return "comms_id";
  case MatchKey::Seq:
    return "seq";
  case MatchKey::Order:
    return "order";
  case MatchKey::OrderShifted:
    return "order_shifted";
  }
  return "";
}

StringRef matchStatusName(MatchStatus S) {
  switch (S) {
  case MatchStatus::Ok:
    return "ok";
  case MatchStatus::Incomplete:
    return "incomplete";
  case MatchStatus::Mismatch:
    return "mismatch";
  case MatchStatus::Unaligned:
    return "unaligned";
  }
  return "";
}

bool MatchedCollective::countsForStragglers() const {
  if (Status != MatchStatus::Ok)
    return false;
  static constexpr StringLiteral Sync[] = {
      "allreduce", "allgather", "reducescatter", "alltoall",
      "broadcast", "reduce",    "barrier",       "alltoallv", "sendrecv"};
  return is_contained(Sync, StringRef(CollType));
}

std::optional<double> busFactor(StringRef Type, int64_t N) {
  if (N <= 0)
    return std::nullopt;
  double D = double(N);
  if (Type == "allreduce")
    return 2 * (D - 1) / D;
  if (Type == "allgather" || Type == "reducescatter" || Type == "alltoall")
    return (D - 1) / D;
  if (Type == "broadcast" || Type == "reduce" || Type == "sendrecv")
    return 1.0;
  return std::nullopt;
}

std::optional<int64_t> sentElements(const MatchedMember &M) {
  if (M.InSplit.empty())
    return M.InNelems;
  int64_t N = 0;
  for (int64_t X : M.InSplit)
    N += X;
  return N;
}

/// §5.4 S: the bytes of the full array the collective moves; for
/// all_to_allv the largest member's send buffer (S is per rank there).
static std::optional<double> messageBytes(const MatchedCollective &C) {
  unsigned B = collectiveDtypeBytes(C.Dtype);
  if (!B)
    return std::nullopt;
  if (C.CollType == "alltoallv") {
    std::optional<double> Max;
    for (const MatchedMember &M : C.Present)
      if (std::optional<int64_t> N = sentElements(M))
        Max = std::max(Max.value_or(0), double(*N) * B);
    return Max;
  }
  const std::optional<int64_t> &N =
      C.CollType == "allgather" ? C.OutNelems : C.InNelems;
  if (!N || C.CollType == "alltoallv" || C.CollType == "barrier" ||
      C.CollType == "unknown")
    return std::nullopt;
  return double(*N) * B;
}

namespace {
/// One rank's instances of one group, in start order.
struct GroupLane {
  int64_t Rank;
  std::vector<const CollectiveInstance *> Items;
  int Shift = 0;
};

struct Group {
  std::string Name;
  std::vector<GroupLane> Lanes; // rank order
  /// A send/recv pair's lanes: Src's sends to Dst, Dst's recvs from Src.
  std::optional<int64_t> Src, Dst;
};

/// One instance's members: (rank, its instance), ranks ascending.
using Slot = std::vector<std::pair<int64_t, const CollectiveInstance *>>;
} // namespace

static bool sameSignature(const CollectiveInstance &A,
                          const CollectiveInstance &B) {
  // A send and its recv differ in name only.
  bool Pair = A.isP2P() && B.isP2P();
  if ((!Pair && A.CollName != B.CollName) || A.Dtype != B.Dtype ||
      A.GroupSize != B.GroupSize)
    return false;
  // all_to_allv sizes differ per rank by design.
  return A.CollType == "alltoallv" ||
         (A.InNelems == B.InNelems && A.OutNelems == B.OutNelems);
}

/// An implicit-sync collective cannot end on a rank before the last one
/// started (§4.2, on one clock).
static bool timeConsistent(ArrayRef<const CollectiveInstance *> Items) {
  double MaxStart = -std::numeric_limits<double>::infinity(),
         MinEnd = std::numeric_limits<double>::infinity();
  for (const CollectiveInstance *I : Items) {
    MaxStart = std::max(MaxStart, I->Start);
    MinEnd = std::min(MinEnd, I->End);
  }
  return MaxStart <= MinEnd;
}

/// The members of each group index under the lanes' shifts.
static std::map<int64_t, std::vector<std::pair<int64_t,
                                               const CollectiveInstance *>>>
slots(const Group &G) {
  std::map<int64_t,
           std::vector<std::pair<int64_t, const CollectiveInstance *>>>
      Out;
  for (const GroupLane &L : G.Lanes)
    for (size_t J = 0; J < L.Items.size(); ++J)
      Out[int64_t(J) + L.Shift].push_back({L.Rank, L.Items[J]});
  return Out;
}

/// The members of the group indices of two or more members that pass the
/// time check (a shift that leaves a rank alone matches nothing); and
/// whether some fail it.
static std::pair<unsigned, bool> validSlots(const Group &G) {
  unsigned Valid = 0;
  bool AnyInvalid = false;
  for (auto &[Idx, Ms] : slots(G)) {
    if (Ms.size() < 2)
      continue;
    std::vector<const CollectiveInstance *> Items;
    for (auto &[R, I] : Ms)
      Items.push_back(I);
    if (timeConsistent(Items))
      Valid += unsigned(Items.size());
    else
      AnyInvalid = true;
  }
  return {Valid, AnyInvalid};
}

/// §4.2 rule 4: shift a rank's numbering by ±1..±4 while that matches more
/// members in valid instances (best shift first: the most members,
/// then the smallest |shift|, negative first, the lowest rank). True when
/// every instance is valid in the end.
static bool alignLanes(Group &G) {
  auto [Valid, AnyInvalid] = validSlots(G);
  // Each round fixes one rank; a job has at most as many rounds as ranks.
  for (size_t Round = 0; AnyInvalid && Round < G.Lanes.size(); ++Round) {
    GroupLane *Best = nullptr;
    int BestShift = 0;
    unsigned BestValid = Valid;
    for (GroupLane &L : G.Lanes) {
      int Saved = L.Shift;
      for (int Mag = 1; Mag <= 4; ++Mag)
        for (int Sign : {-1, 1}) {
          L.Shift = Saved + Sign * Mag;
          unsigned V = validSlots(G).first;
          if (V > BestValid) {
            BestValid = V;
            Best = &L;
            BestShift = L.Shift;
          }
        }
      L.Shift = Saved;
    }
    if (!Best)
      break;
    Best->Shift = BestShift;
    std::tie(Valid, AnyInvalid) = validSlots(G);
  }
  return !AnyInvalid;
}

static void measure(MatchedCollective &C) {
  std::vector<MatchedMember> &P = C.Present;
  if (P.empty())
    return;
  double MinStart = P[0].Start, MaxStart = P[0].Start, MinEnd = P[0].End,
         MaxEnd = P[0].End, MinDur = P[0].dur();
  C.FirstRank = C.LastRank = P[0].Rank;
  for (const MatchedMember &M : P) {
    // Present is in rank order: strict comparisons keep the lowest rank.
    if (M.Start > MaxStart) {
      MaxStart = M.Start;
      C.LastRank = M.Rank;
    }
    if (M.Start < MinStart) {
      MinStart = M.Start;
      C.FirstRank = M.Rank;
    }
    MinEnd = std::min(MinEnd, M.End);
    MaxEnd = std::max(MaxEnd, M.End);
    MinDur = std::min(MinDur, M.dur());
  }
  C.FirstStart = MinStart;
  C.ArrivalSkew = MaxStart - MinStart;
  C.EndSkew = MaxEnd - MinEnd;
  C.Transfer = MinDur;
  C.Blame = 0;
  for (MatchedMember &M : P) {
    M.Wait = MaxStart - M.Start;
    C.Blame += M.Wait;
  }
  C.MeanWait = C.Blame / double(P.size());
  C.Bytes = messageBytes(C);
  if (C.Bytes && C.Transfer > 0) {
    // bytes / µs / 1e3 = GB/s (1e9 bytes).
    C.AlgBw = *C.Bytes / C.Transfer / 1e3;
    int64_t N = C.GroupSize.value_or(int64_t(C.Members.size()));
    if (std::optional<double> F = busFactor(C.CollType, N))
      C.BusBw = *C.AlgBw * *F;
  }
}

/// The group an instance belongs to: its process group, else (no rank
/// records one) "all", or per comm stream when a rank has several.
static std::string groupName(const CollectiveInstance &I, bool AnyPg,
                             bool OneStream,
                             const std::map<int64_t, unsigned> &StreamIdx) {
  if (!I.Pg.empty())
    return I.Pg.str();
  if (AnyPg)
    return "Unknown_Group";
  if (OneStream)
    return "all";
  return "stream" + std::to_string(StreamIdx.at(I.Stream));
}

std::vector<MatchedCollective>
matchCollectives(ArrayRef<RankCollectives> Ranks) {
  std::vector<const RankCollectives *> ByRank;
  for (const RankCollectives &R : Ranks)
    ByRank.push_back(&R);
  llvm::sort(ByRank, [](const RankCollectives *A, const RankCollectives *B) {
    return A->Rank < B->Rank;
  });
  bool AnyPg = false, OneStream = true;
  for (const RankCollectives *R : ByRank) {
    std::set<int64_t> Streams;
    for (const CollectiveInstance &I : R->Instances) {
      AnyPg |= !I.Pg.empty();
      Streams.insert(I.Stream);
    }
    OneStream &= Streams.size() <= 1;
  }

  std::map<int64_t, const CollectiveInstance *> BaseOf;
  for (const RankCollectives *R : ByRank)
    BaseOf.try_emplace(R->Rank, R->Instances.data());
  std::map<std::string, Group> Groups;
  // Members in group-rank order: pg_config first (§3.2 rule 5), then the
  // lists on the collectives.
  std::map<std::string, std::vector<int64_t>> Members;
  for (const RankCollectives *R : ByRank)
    for (auto &[Name, Rs] : R->PgConfig)
      Members.try_emplace(Name, Rs);
  // send/recv instances, paired once every group's members are known.
  std::vector<std::tuple<int64_t, std::string, const CollectiveInstance *>>
      P2P;
  for (const RankCollectives *R : ByRank) {
    for (auto &[Name, Rs] : R->PgRanks)
      Members.try_emplace(Name, Rs);
    // Comm streams numbered by their first kernel, per rank.
    std::map<int64_t, unsigned> StreamIdx;
    for (const CollectiveInstance &I : R->Instances)
      StreamIdx.try_emplace(I.Stream, unsigned(StreamIdx.size()));
    for (const CollectiveInstance &I : R->Instances) {
      std::string Name = groupName(I, AnyPg, OneStream, StreamIdx);
      if (!I.PgRanks.empty() && !I.PgRanksTruncated)
        Members.try_emplace(Name, I.PgRanks);
      if (I.isP2P()) {
        P2P.push_back({R->Rank, Name, &I});
        continue;
      }
      // A send/recv kernel without its name has no peer to pair with.
      if (I.CollType == "sendrecv")
        continue;
      Group &G = Groups[Name];
      G.Name = Name;
      if (G.Lanes.empty() || G.Lanes.back().Rank != R->Rank)
        G.Lanes.push_back({R->Rank, {}, 0});
      G.Lanes.back().Items.push_back(&I);
    }
  }

  // §4.2 rule 2: a send on r to q pairs with the recv on q from r. The
  // peer is Dst/Src Rank, else (older traces) the group rank `Rank`
  // through the group's ranks list.
  std::map<std::tuple<std::string, int64_t, int64_t>, Group> Pairs;
  for (auto &[R, Name, I] : P2P) {
    std::optional<int64_t> Peer = I->PeerRank;
    if (!Peer && I->GroupRank)
      if (auto It = Members.find(Name);
          It != Members.end() && *I->GroupRank >= 0 &&
          size_t(*I->GroupRank) < It->second.size())
        Peer = It->second[size_t(*I->GroupRank)];
    if (!Peer || *Peer == R)
      continue;
    bool Send = I->CollName == "send";
    int64_t Src = Send ? R : *Peer, Dst = Send ? *Peer : R;
    Group &G = Pairs[{Name, Src, Dst}];
    G.Name = Name;
    G.Src = Src;
    G.Dst = Dst;
    // P2P is in rank order: the lanes are too.
    if (G.Lanes.empty() || G.Lanes.back().Rank != R)
      G.Lanes.push_back({R, {}, 0});
    G.Lanes.back().Items.push_back(I);
  }

  std::vector<MatchedCollective> Out;
  auto MatchGroup = [&](Group &G) {
    const std::vector<int64_t> *Ordered = nullptr;
    if (auto It = Members.find(G.Name); It != Members.end())
      Ordered = &It->second;
    std::vector<int64_t> Mem;
    if (G.Src)
      Mem = {*G.Src, *G.Dst};
    else if (Ordered)
      Mem = *Ordered;
    else
      for (const GroupLane &L : G.Lanes)
        Mem.push_back(L.Rank);
    llvm::sort(Mem);
    Mem.erase(std::unique(Mem.begin(), Mem.end()), Mem.end());

    auto Every = [&](auto Has) {
      return all_of(G.Lanes, [&](const GroupLane &L) {
        return all_of(L.Items, Has);
      });
    };
    bool AllIds = Every([](const CollectiveInstance *I) {
      return I->CommsId.has_value();
    });
    bool AllSeq = Every([](const CollectiveInstance *I) {
      return I->Seq.has_value();
    });
    // (Seq or index, members), in the order they are numbered.
    std::vector<std::pair<int64_t, Slot>> Slots;
    MatchKey Key = MatchKey::Seq;
    bool Aligned = true;
    auto Add = [](Slot &Ms, int64_t Rank, const CollectiveInstance *I) {
      // A key repeated on one rank: the first one counts.
      if (Ms.empty() || Ms.back().first != Rank)
        Ms.push_back({Rank, I});
    };
    if (AllIds) {
      // §4.2 rule 1; numbered by Seq when every member has it, else in
      // first-start order.
      Key = MatchKey::CommsId;
      std::map<uint64_t, Slot> ById;
      for (const GroupLane &L : G.Lanes)
        for (const CollectiveInstance *I : L.Items)
          Add(ById[*I->CommsId], L.Rank, I);
      std::vector<Slot> ByStart;
      for (auto &[Id, Ms] : ById)
        ByStart.push_back(std::move(Ms));
      auto FirstStart = [](const Slot &Ms) {
        double S = std::numeric_limits<double>::infinity();
        for (auto &[R, I] : Ms)
          S = std::min(S, I->Start);
        return S;
      };
      llvm::stable_sort(ByStart, [&](const Slot &A, const Slot &B) {
        return FirstStart(A) < FirstStart(B);
      });
      int64_t Idx = 0;
      for (Slot &Ms : ByStart) {
        int64_t N = AllSeq ? *Ms.front().second->Seq : Idx;
        ++Idx;
        Slots.push_back({N, std::move(Ms)});
      }
    } else if (AllSeq) {
      std::map<int64_t, Slot> BySeq;
      for (const GroupLane &L : G.Lanes)
        for (const CollectiveInstance *I : L.Items)
          Add(BySeq[*I->Seq], L.Rank, I);
      for (auto &[N, Ms] : BySeq)
        Slots.push_back({N, std::move(Ms)});
    } else {
      Aligned = alignLanes(G);
      bool Shifted = any_of(G.Lanes, [](const GroupLane &L) {
        return L.Shift != 0;
      });
      Key = Shifted ? MatchKey::OrderShifted : MatchKey::Order;
      // Renumber from 0 (a negative shift can start below it).
      int64_t Idx = 0;
      for (auto &[S, Ms] : slots(G))
        Slots.push_back({Idx++, std::move(Ms)});
    }
    for (auto &[N, Ms] : Slots) {
      MatchedCollective C;
      const CollectiveInstance &F = *Ms.front().second;
      C.Pg = G.Name;
      C.PgDesc = F.PgDesc.str();
      C.Key = Key;
      C.Seq = N;
      C.CollName = F.CollName.str();
      C.CollType = F.CollType.str();
      C.Dtype = F.Dtype.str();
      C.InNelems = F.InNelems;
      C.OutNelems = F.OutNelems;
      C.GroupSize = F.GroupSize;
      C.Members = Mem;
      C.Step = F.Step;
      C.Src = G.Src;
      C.Dst = G.Dst;
      bool AllToAllv = F.CollType == "alltoallv";
      if (AllToAllv && Ordered)
        C.GroupRanks = *Ordered;
      bool Same = true;
      std::vector<int64_t> Have;
      for (auto &[R, I] : Ms) {
        MatchedMember M;
        M.Rank = R;
        M.Start = I->Start;
        M.End = I->End;
        M.Stream = I->Stream;
        M.NumKernels = I->NumKernels;
        M.Index = size_t(I - BaseOf[R]);
        if (AllToAllv) {
          M.InNelems = I->InNelems;
          M.InSplit = I->InSplit;
        }
        C.Present.push_back(std::move(M));
        Have.push_back(R);
        Same &= sameSignature(F, *I);
      }
      if (G.Src && Ms.size() == 2)
        C.CollName = "send/recv";
      if (!Aligned)
        C.Status = MatchStatus::Unaligned;
      else if (!Same)
        C.Status = MatchStatus::Mismatch;
      else if (Have != Mem)
        C.Status = MatchStatus::Incomplete;
      measure(C);
      Out.push_back(std::move(C));
    }
  };
  for (auto &[Name, G] : Groups)
    MatchGroup(G);
  for (auto &[Key, G] : Pairs)
    MatchGroup(G);
  llvm::stable_sort(Out, [](const MatchedCollective &A,
                            const MatchedCollective &B) {
    if (A.FirstStart != B.FirstStart)
      return A.FirstStart < B.FirstStart;
    if (A.Pg != B.Pg)
      return A.Pg < B.Pg;
    return A.Seq < B.Seq;
  });
  return Out;
}

} // namespace tl
