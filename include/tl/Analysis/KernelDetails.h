//===- KernelDetails.h - kernel_details lists and their summary -*- C++ -*-===//
//
// Ops carry `kernel_details` = [{name, dur, stream}] of the kernels they
// launched; tables summarize a group's lists position by position with
// numpy statistics (spec tracelens-perf-report.md §6.5).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_KERNELDETAILS_H
#define TL_ANALYSIS_KERNELDETAILS_H

#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace tl {

/// One kernel of an op's kernel_details list.
struct KernelDetail {
  EventId Kernel = NoEvent;
  llvm::StringRef Name;
  double Dur = 0;
  int64_t Stream = -1; // -1: no `stream` arg (printed None)
};

/// kernel_details of a list of GPU events, in the given order.
std::vector<KernelDetail> kernelDetailsOf(const Trace &T,
                                          llvm::ArrayRef<EventId> Kernels);

/// §6.5 summary of one group: the template is the first non-empty list,
/// lists of another length are skipped; per position numpy sum/mean/median/
/// population std/min/max; sorted by (total, name) ascending.
std::vector<KernelStat>
summarizeKernelDetails(llvm::ArrayRef<const std::vector<KernelDetail> *> Lists);

/// summarizeKernelDetails with the lists given by their durations alone:
/// Template is the first non-empty list; Durs holds, list after list in
/// group order, the durations of every list of the template's length (the
/// template's own included). Groups of millions of ops need no per-op list.
std::vector<KernelStat>
summarizeKernelDurations(llvm::ArrayRef<KernelDetail> Template,
                         llvm::ArrayRef<double> Durs);

/// Entries a kernel-details text lists; a longer summary (an op owning the
/// kernels of a subtree nested thousands deep) ends with the element
/// '... N more kernels' instead. The shared traces list at most 12.
inline constexpr size_t KernelListCap = 256;

/// Python text of the summary list as the reference prints it
/// ("[{'name': ..., 'stream': 7, 'count': 48, 'total_duration_us':
/// np.float64(39.75), ...}]"), at most KernelListCap entries. NumpyRepr =
/// numpy >= 2 scalar repr (the plain perf-report references); false prints
/// plain floats as numpy 1.24 did for the agent references
/// ("'total_duration_us': 39.75").
std::string formatKernelDetailsSummary(llvm::ArrayRef<KernelStat> S,
                                       bool NumpyRepr = true);
/// trunc_kernel_details text (name cut at 64 chars + "...", mean rounded to
/// 2 decimals half-to-even); "" (None) for an empty list.
std::string formatTruncKernelDetails(llvm::ArrayRef<KernelStat> S,
                                     bool NumpyRepr = true);

} // namespace tl

#endif // TL_ANALYSIS_KERNELDETAILS_H
