//===- CollectiveTables.h - The job's cross-rank collective tables -*- C++ -*-===//
//
// out/multirank/collectives.csv (one row per matched instance),
// collectives_long.csv (instance x member) and the "Collectives across
// ranks" section of the job's analysis.md (spec multi-rank.md §7.1, §7.2).
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_COLLECTIVETABLES_H
#define TL_DRIVER_COLLECTIVETABLES_H

#include "tl/Driver/CollectiveMatch.h"
#include "tl/Report/CsvTable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

/// "<pg>_<seq>" (the order keys use the index within the group); a
/// send/recv pair "<pg>_p2p<seq>_<src>-<dst>".
std::string instanceId(const MatchedCollective &C);

/// node_id = rank / GpusPerNode; "intra_node", "inter_node", or "unknown"
/// without GpusPerNode.
std::string nodeSpan(const MatchedCollective &C,
                     std::optional<int64_t> GpusPerNode);

CsvTable collectivesTable(llvm::ArrayRef<MatchedCollective> Cs,
                          std::optional<int64_t> GpusPerNode);
CsvTable collectivesLongTable(llvm::ArrayRef<MatchedCollective> Cs);
/// The two tables written into Dir/collectives.csv and
/// Dir/collectives_long.csv a row at a time: held whole, the long one
/// (a row per rank and collective) was most of a large job's peak.
llvm::Error writeCollectivesCsv(llvm::StringRef Dir,
                                llvm::ArrayRef<MatchedCollective> Cs,
                                std::optional<int64_t> GpusPerNode);
llvm::Error writeCollectivesLongCsv(llvm::StringRef Dir,
                                    llvm::ArrayRef<MatchedCollective> Cs);

/// A collective family: the ok instances of one (coll_type, coll_name,
/// dtype, bytes, pg), collective_summary.csv's row.
struct CollectiveFamily {
  std::string CollType, CollName, Dtype, Pg;
  std::optional<int64_t> Bytes;
  std::string NodeSpan; // the first instance's
  /// Per instance (bandwidths only where known).
  std::vector<double> Transfer, Skew, EndSkew, AlgBw, BusBw;
  double Blame = 0;
  double transferTotalUs() const;
};
/// The families of Cs, transfer_total descending, then key.
std::vector<CollectiveFamily>
collectiveFamilies(llvm::ArrayRef<MatchedCollective> Cs,
                   std::optional<int64_t> GpusPerNode);

/// collective_summary.csv (§7.1): the ok instances per (coll_type,
/// coll_name, dtype, bytes, pg), transfer_total_ms descending, then key
/// (CollectiveSummary.cpp).
CsvTable collectiveSummaryTable(llvm::ArrayRef<MatchedCollective> Cs,
                                std::optional<int64_t> GpusPerNode);

/// The analysis.md section (empty when the job has no collectives).
std::string collectivesMarkdown(llvm::ArrayRef<MatchedCollective> Cs);

} // namespace tl

#endif // TL_DRIVER_COLLECTIVETABLES_H
