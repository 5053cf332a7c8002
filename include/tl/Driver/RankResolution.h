//===- RankResolution.h - Which rank each trace of a job is ----*- C++ -*-===//
//
// A job's trace gets its rank from its `distributedInfo.rank`, else from its
// position in the job (with a warning naming the file). Two traces with one
// rank are an error naming both: one report would replace the other. Ranks
// missing from 0..N-1 (N: the largest of the world size, the largest rank
// + 1 and the number of traces) are a warning, the job is partial. See
// docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_RANKRESOLUTION_H
#define TL_DRIVER_RANKRESOLUTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class Trace;

/// What a trace says about its place in the job.
struct DistributedIds {
  /// `distributedInfo.rank` / `.world_size` (nullopt when absent, not an
  /// integer, or negative; a world size must be at least 1).
  std::optional<int64_t> Rank;
  std::optional<int64_t> WorldSize;
};
DistributedIds distributedIds(const Trace &T);

enum class RankSource { DistributedInfo, Position };
/// "distributedInfo.rank" / "position".
llvm::StringRef rankSourceName(RankSource S);

struct RankClaim {
  std::string Path;
  /// In job order, 0-based.
  size_t Position = 0;
  int64_t Rank = 0;
  RankSource Source = RankSource::DistributedInfo;
};

class RankResolver {
public:
  /// NumTraces: the size of the job (for the expected rank count).
  explicit RankResolver(size_t NumTraces) : NumTraces(NumTraces) {}

  /// The rank of the trace at Position (0-based, job order). A rank-less
  /// trace adds a warning; a rank another trace has is an error.
  llvm::Expected<RankClaim> claim(llvm::StringRef Path, size_t Position,
                                  const DistributedIds &Ids);

  /// The ranks the job should have: 0..expectedRanks()-1.
  int64_t expectedRanks() const;
  /// Ranks of 0..expectedRanks()-1 that no trace claimed.
  std::vector<int64_t> missingRanks() const;
  /// One line each, in this order: the rank-less traces (job order),
  /// differing world sizes, the missing ranks (meaningful once every trace
  /// claimed). Show turns a trace path into the text to print (the path as
  /// given on stderr, relative to the report in analysis.md).
  std::vector<std::string>
  warnings(llvm::function_ref<std::string(llvm::StringRef)> Show) const;

private:
  size_t NumTraces;
  std::map<int64_t, RankClaim> ByRank;
  /// World sizes seen, with the first trace saying each.
  std::map<int64_t, std::string> WorldSizes;
};

/// "2, 4-7" for the sorted ranks {2, 4, 5, 6, 7}.
std::string rankRanges(llvm::ArrayRef<int64_t> Sorted);

} // namespace tl

#endif // TL_DRIVER_RANKRESOLUTION_H
