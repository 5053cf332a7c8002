//===- CompatTables.h - The job's TraceLens-compatible tables --*- C++ -*-===//
//
// Spec multi-rank.md §7.1 "TraceLens-compatible copies": out/multirank/
// compat/ holds what TraceLens's NCCL analyser writes for the same traces,
// with its rules rather than tl's (Appendix B 8-11): every comm call of a
// rank is "<pg>_<index in the group on that rank>", and calls of one id on
// different ranks are one collective, however far apart in time; ranks
// are tl's (distributedInfo, else file position); GPUs per node is the
// length of the first file's deviceProperties; sizes in MiB, bandwidths
// in GiB/s; the implicit-sync tables keep all-reduce, all-gather,
// reduce-scatter and all-to-all; pandas' column dtypes, groupby order and
// sorts. tl's own tables (CollectiveMatch.h) validate the matching; these
// do not, on purpose. docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_COMPATTABLES_H
#define TL_DRIVER_COMPATTABLES_H

#include "tl/Report/CsvTable.h"
#include "tl/Support/OptionalInt.h"
#include "tl/Support/SharedName.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tl {

struct RankSummary;

/// One row of nccl_long.csv: one collective instance of a rank (a
/// record_param_comms and its kernels) with a process group and a name.
struct CompatCall {
  int64_t Rank = 0;
  /// Position among the rank's calls of the same group.
  int64_t IndexInGroup = 0;
  SharedName Pg, CollName, Dtype;
  /// Process Group Ranks as TraceLens prints it ("[0, 1]"; "" unknown).
  SharedName PgRanks;
  OptionalInt InNelems, OutNelems, GroupSize;
  /// In/Out split size ("[]" unless all_to_allv recorded them).
  std::vector<int64_t> InSplit, OutSplit;
  int64_t Stream = -1;
  double Ts = 0, Dur = 0;
};

/// What the compat tables need, kept from the summaries before the
/// matching consumes their collectives.
struct TraceLensCompat {
  /// Rank order, then each rank's start order.
  std::vector<CompatCall> Calls;
  std::optional<int64_t> GpusPerNode;
  /// Every ts / dur is integral: pandas reads them as int64 columns.
  bool IntTs = true, IntDur = true;
};

/// Ranks: the job's summaries in rank order, collectives still in them.
TraceLensCompat collectTraceLensCompat(llvm::ArrayRef<RankSummary> Ranks);

/// nccl_long.csv and nccl_implicit_sync.csv into Dir/Name, a row at a time
/// (a row per rank and call; a column per rank).
llvm::Error writeNcclLongCsv(llvm::StringRef Dir, llvm::StringRef Name,
                             const TraceLensCompat &C);
llvm::Error writeNcclImplicitSyncCsv(llvm::StringRef Dir, llvm::StringRef Name,
                                     const TraceLensCompat &C);
CsvTable ncclSummaryImplicitSyncTable(const TraceLensCompat &C);
CsvTable ncclSummaryLongTable(const TraceLensCompat &C);
/// straggler_summary.csv (§5.2, TraceLens's columns).
CsvTable compatStragglerTable(const TraceLensCompat &C);

} // namespace tl

#endif // TL_DRIVER_COMPATTABLES_H
