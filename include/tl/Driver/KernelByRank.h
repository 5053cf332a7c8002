//===- KernelByRank.h - GPU kernels compared across ranks ------*- C++ -*-===//
//
// Spec multi-rank.md §6 and §7.1, kernel_by_rank.csv: for the 20 kernel
// names with the most GPU time over all ranks, one row per (name, rank)
// with the rank's count, total, mean, min and max, and per name the
// spread of the per-rank totals, (max - min) / mean in % (a GEMM whose
// total differs by 20 % between ranks explains a compute straggler). Each
// rank's per-name statistics are taken while its IR is alive and kept in
// its RankSummary.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_KERNELBYRANK_H
#define TL_DRIVER_KERNELBYRANK_H

#include "tl/Report/CsvTable.h"
#include "tl/Support/SharedName.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace tl {

class GpuTimeline;
class Trace;
struct RankSummary;

/// kernel_by_rank.csv's kernel_type: the comm regex, else a memcpy (the
/// gpu_timeline's memcpy bucket), a gpu_memset event, else compute.
enum class KernelByRankType : uint8_t { Comm, Memcpy, Memset, Compute };
llvm::StringRef kernelByRankTypeName(KernelByRankType T);

/// One GPU event name of a rank (µs).
struct RankKernelStats {
  SharedName Name;
  KernelByRankType Type = KernelByRankType::Compute;
  uint64_t Count = 0;
  double TotalUs = 0, MinUs = 0, MaxUs = 0;
};

/// Per name over TL's events (those of gpu_timeline.csv), by name.
std::vector<RankKernelStats> summarizeRankKernels(const Trace &T,
                                                  const GpuTimeline &TL);

/// Names kernel_by_rank.csv keeps.
constexpr size_t KernelByRankNames = 20;

/// kernel_by_rank.csv: the KernelByRankNames names with the largest total
/// over the ranks (ties: by name), a row per rank with GPU events in rank
/// order (count 0 and empty mean/min/max where the name did not run);
/// rank_spread_pct = 100 (max - min) / mean of those ranks' totals.
CsvTable kernelByRankTable(llvm::ArrayRef<RankSummary> Ranks);

} // namespace tl

#endif // TL_DRIVER_KERNELBYRANK_H
