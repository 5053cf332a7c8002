//===- CollectiveBandwidth.h - MR-COLL-BW: collectives below the link -*- C++ -*-===//
//
// Spec multi-rank.md §5.4's optional finding: with user-provided link peaks
// (the arch file's intra_node_busbw_gbps / inter_node_busbw_gbps; no shipped
// arch file has them), a collective family whose median bus bandwidth is
// below half the peak of the link it crosses and whose transfers take at
// least 5 % of the job's step time. Messages under 1 MiB are latency-bound
// and never flagged; families whose node span is unknown are skipped.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_COLLECTIVEBANDWIDTH_H
#define TL_DRIVER_COLLECTIVEBANDWIDTH_H

#include "tl/Driver/CollectiveTables.h"
#include "tl/Driver/Stragglers.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace tl {

/// Achievable busbw in GB/s (10^9 B/s) per link kind; 0 = not given.
struct LinkPeaks {
  double IntraNodeBusbwGBps = 0, InterNodeBusbwGBps = 0;
  bool any() const { return IntraNodeBusbwGBps > 0 || InterNodeBusbwGBps > 0; }
};

/// MR-COLL-BW findings, in the families' order (transfer total descending).
/// SumTJobUs: Σ T_job over the analysed steps (StragglerAnalysis::SumTJob).
std::vector<JobFinding>
bandwidthFindings(llvm::ArrayRef<CollectiveFamily> Families,
                  const LinkPeaks &Peaks, double SumTJobUs);

} // namespace tl

#endif // TL_DRIVER_COLLECTIVEBANDWIDTH_H
