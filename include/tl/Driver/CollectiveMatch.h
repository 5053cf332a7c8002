//===- CollectiveMatch.h - Collectives matched across ranks ----*- C++ -*-===//
//
// Spec multi-rank.md §4.2 and §5.1, §5.4: the collective instances of every
// rank's summary (tl/Analysis/CollectiveInstances.h) matched into job-wide
// instances, by Comms Id when every member records it, else by (process
// group, Seq) when every member records Seq, else by the order within the
// group with the time-consistency check and its ±4 shift; a send and its
// recv pair up per (group, sender, receiver) by the same keys; then per instance the arrival skew, the waits, the last rank
// and the nccl-tests bandwidths. Works on summaries only: no rank's IR is
// alive when this runs.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_COLLECTIVEMATCH_H
#define TL_DRIVER_COLLECTIVEMATCH_H

#include "tl/Analysis/CollectiveInstances.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// One rank's collectives, as the job keeps them.
struct RankCollectives {
  int64_t Rank = 0;
  std::vector<CollectiveInstance> Instances; // start order
  /// distributedInfo.pg_config: pg_name -> global ranks.
  std::map<std::string, std::vector<int64_t>> PgConfig;
  /// Process Group Ranks of each group as the collectives record it (the
  /// first complete list), kept once per group rather than per instance:
  /// a 1,024-rank world list is 8 KB.
  std::map<std::string, std::vector<int64_t>> PgRanks;
};

enum class MatchKey { CommsId, Seq, Order, OrderShifted };
enum class MatchStatus { Ok, Incomplete, Mismatch, Unaligned };
llvm::StringRef matchKeyName(MatchKey K);     // "comms_id", "seq", ...
llvm::StringRef matchStatusName(MatchStatus S); // "ok", "incomplete", ...

/// One per rank and matched collective: numbers only (what
/// collectives_long.csv prints), no name.
struct MatchedMember {
  int64_t Rank = 0;
  double Start = 0, End = 0;
  int64_t Stream = -1;
  unsigned NumKernels = 0;
  double Wait = 0; // max start - Start
  /// The instance's position in its rank's RankCollectives::Instances.
  size_t Index = 0;
  /// all_to_allv only: the member's In msg nelems and In split size.
  std::optional<int64_t> InNelems;
  std::vector<int64_t> InSplit;
  double dur() const { return End - Start; }
};

/// A job-wide collective instance (collectives.csv, one row).
struct MatchedCollective {
  std::string Pg, PgDesc;
  MatchKey Key = MatchKey::Seq;
  /// Seq, or the index within the group for the order keys.
  int64_t Seq = 0;
  MatchStatus Status = MatchStatus::Ok;
  std::string CollName, CollType, Dtype;
  std::optional<int64_t> InNelems, OutNelems, GroupSize;
  /// The group's members (expected), ascending.
  std::vector<int64_t> Members;
  /// The ranks that have it, ascending.
  std::vector<MatchedMember> Present;
  std::optional<int64_t> Step;
  /// A send/recv pair (§4.2 rule 2): the sending and the receiving rank.
  std::optional<int64_t> Src, Dst;
  /// all_to_allv only: the group's ranks in group-rank order (the index of
  /// In split size).
  std::vector<int64_t> GroupRanks;
  double FirstStart = 0, ArrivalSkew = 0, EndSkew = 0, Transfer = 0,
         MeanWait = 0, Blame = 0;
  int64_t FirstRank = 0, LastRank = 0;
  /// §5.4 S in bytes; bandwidths in GB/s (1e9); empty when unknown.
  std::optional<double> Bytes, AlgBw, BusBw;
  /// True for the eight implicit-sync types of §5.1 and send/recv pairs
  /// (and ok): the instances straggler statistics use.
  bool countsForStragglers() const;
};

/// Every rank's instances matched and measured, in first-start order
/// (ties: group, then Seq). Ranks in any order.
std::vector<MatchedCollective>
matchCollectives(llvm::ArrayRef<RankCollectives> Ranks);

/// The elements a member sends: Σ In split size, else In msg nelems
/// (all_to_allv; §5.4).
std::optional<int64_t> sentElements(const MatchedMember &M);

/// §5.4 bus factor F(type, n), nullopt when the type has none.
std::optional<double> busFactor(llvm::StringRef CollType, int64_t N);

} // namespace tl

#endif // TL_DRIVER_COLLECTIVEMATCH_H
