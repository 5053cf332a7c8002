//===- CollectiveInstances.h - One rank's collective operations -*- C++ -*-===//
//
// Spec multi-rank.md §4.1: a collective instance is one logical operation
// on one rank, one record_param_comms call (or one comm kernel without
// one) and the comm kernels it launched, with the c10d metadata PyTorch
// records on it (§3.1). This is what a job keeps of a rank's collectives
// once the rank's IR is freed; the cross-rank matching reads only these.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_COLLECTIVEINSTANCES_H
#define TL_ANALYSIS_COLLECTIVEINSTANCES_H

#include "tl/Analysis/StepSelection.h"
#include "tl/IR/Trace.h"
#include "tl/Support/OptionalInt.h"
#include "tl/Support/SharedName.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// A job keeps one per rank and operation until the cross-rank matching
/// (tens of thousands per rank on collective-dense traces), so it is
/// fixed-size and small: its names are SharedNames (8 bytes, one copy of
/// each text per process), its optional numbers OptionalInts (8 bytes).
struct CollectiveInstance {
  /// Process Group Name ("" when the trace records none).
  SharedName Pg, PgDesc;
  /// Seq: the group's sequence number of the operation (newer PyTorch).
  OptionalInt Seq;
  /// Collective name as recorded ("" when absent), and its §5.4 type
  /// (collectiveType()).
  SharedName CollName, CollType;
  SharedName Dtype;
  OptionalInt InNelems, OutNelems, GroupSize;
  /// Global ranks of the group from Process Group Ranks; Truncated when
  /// the list was shortened with "...". A job keeps the list once per
  /// group (RankCollectives::PgRanks), not here.
  std::vector<int64_t> PgRanks;
  int64_t Stream = -1;
  /// First kernel start, last kernel end (µs).
  double Start = 0, End = 0;
  unsigned NumKernels = 0;
  bool PgRanksTruncated = false;
  SharedName Kernel; // the first kernel's name
  /// ProfilerStep#N whose CPU range holds the launch (§2.4), if any.
  OptionalInt Step;
  /// Comms Id: c10d's hash of the operation, the same on every member; a
  /// uint64 (it may exceed INT64_MAX).
  std::optional<uint64_t> CommsId;
  /// Rank: the caller's rank inside the group; for send/recv the peer's
  /// group rank (older traces).
  OptionalInt GroupRank;
  /// The peer's global rank of a send (Dst Rank) or recv (Src Rank).
  OptionalInt PeerRank;
  /// In/Out split size: elements per peer in group-rank order (all_to_allv;
  /// empty for "[]" or a truncated list).
  std::vector<int64_t> InSplit, OutSplit;
  /// A send or recv: a point-to-point pair, matched by its peer (§4.2).
  bool isP2P() const { return CollName == "send" || CollName == "recv"; }
  double dur() const { return End - Start; }
};

/// The comm kernels of T grouped into instances, in start order; Steps
/// (computeStepWindows) give each its step. Kernels, when given, gets each
/// instance's kernels (same order as the result).
std::vector<CollectiveInstance>
collectCollectiveInstances(const Trace &T, llvm::ArrayRef<StepWindow> Steps,
                           std::vector<std::vector<EventId>> *Kernels =
                               nullptr);

/// §5.4/§3.2 rule 6: "allreduce", "allgather", "reducescatter", "alltoall",
/// "alltoallv", "broadcast", "reduce", "sendrecv", "barrier", "gather",
/// "scatter" or "unknown", from the Collective name, else the kernel name.
std::string collectiveType(llvm::StringRef CollName, llvm::StringRef Kernel);

/// Bytes per element of a c10 dtype name (spec §5.4), 0 if unknown.
unsigned collectiveDtypeBytes(llvm::StringRef Dtype);

/// "[0, 1, 2]" or "[0, 1, ..., 9]": the ranks in order; Truncated is set
/// when the text holds "...".
std::vector<int64_t> parseRankList(llvm::StringRef Text, bool &Truncated);

/// Comms Id as a uint64: a non-negative integer, or its digits as a
/// string (how the importer keeps an integer above INT64_MAX).
std::optional<uint64_t> parseCommsId(ArgValue V);

} // namespace tl

#endif // TL_ANALYSIS_COLLECTIVEINSTANCES_H
