//===- ClockAlign.h - Clock alignment across the nodes of a job -*- C++ -*-===//
//
// Spec multi-rank.md §3.3: Kineto times are each process's host clock;
// ranks of one node share it, other nodes differ by the NTP/PTP error,
// which biases arrival skew. When every trace has baseTimeNanoseconds and
// they differ, each rank's collectives move to the smallest base first.
// Then per node k the offset against node 0 is the median, over complete
// implicit-sync collectives with members on both nodes, of (median end on
// node k - median end on node 0): such a collective ends at nearly one
// instant on all members. --align=collective subtracts it before the
// skews are measured (the collectives are matched again); an offset above
// 10 % of the median transfer time is warned about (MR-CLOCK).
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_CLOCKALIGN_H
#define TL_DRIVER_CLOCKALIGN_H

#include "tl/Driver/CollectiveMatch.h"
#include "tl/Driver/Stragglers.h"

#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tl {

struct ClockAlignment {
  std::optional<int64_t> GpusPerNode;
  /// The traces' baseTimeNanoseconds differ: rank -> µs added to its times.
  std::map<int64_t, double> BaseShiftUs;
  /// Node -> estimated offset against node 0 (µs); node 0 is 0. Nodes
  /// without a collective shared with node 0 have none.
  std::map<int64_t, double> NodeOffsetUs;
  /// Median transfer time of the complete implicit-sync collectives.
  double MedianTransferUs = 0;
  /// --align=collective: the offsets were subtracted.
  bool Applied = false;
  /// Nodes whose |offset| exceeds 10 % of MedianTransferUs.
  std::vector<int64_t> LargeNodes;

  /// The offset of Rank's node (empty: nodes unknown or no estimate).
  std::optional<double> rankOffset(int64_t Rank) const;
  /// What was added to Rank's collective times: its base shift, minus its
  /// node's offset when Applied.
  double rankShiftUs(int64_t Rank) const;
  /// One message per large offset ("clock offset of node 1: ...").
  std::vector<std::string> warnings() const;
};

/// Match Ranks' collectives on aligned clocks. BaseNs: each entry's
/// baseTimeNanoseconds (same order as Ranks). Align: --align=collective.
std::vector<MatchedCollective>
matchOnAlignedClocks(std::vector<RankCollectives> Ranks,
                     llvm::ArrayRef<std::optional<int64_t>> BaseNs,
                     std::optional<int64_t> GpusPerNode, bool Align,
                     ClockAlignment &Out);

/// MR-CLOCK (info) when some node's offset is large.
std::optional<JobFinding> clockFinding(const ClockAlignment &A);

} // namespace tl

#endif // TL_DRIVER_CLOCKALIGN_H
