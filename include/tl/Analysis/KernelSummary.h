//===- KernelSummary.h - kernel_summary table ------------------*- C++ -*-===//
//
// Spec tracelens-perf-report.md §6.8: every `kernel` event (linked or not)
// with its launcher and nearest cpu_op (`execute` not skipped here), grouped
// by (parent op category, parent cpu_op, kernel name, stream). Only the
// groups are kept: a row per kernel would cost ~90 bytes per kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_KERNELSUMMARY_H
#define TL_ANALYSIS_KERNELSUMMARY_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// Nearest cpu_op above a kernel's launcher (`execute` not skipped);
/// NoEvent when the kernel is unlinked or no cpu_op is above the launch.
EventId kernelParentCpuOp(const Trace &T, EventId Kernel);

struct KernelGroupRow {
  std::optional<std::string> Category, ParentCpuOp;
  std::string KernelName;
  std::optional<int64_t> Stream;
  double SumUs = 0, MeanUs = 0, MinUs = 0, MaxUs = 0;
  uint64_t Count = 0;
  double PercentOfKernels = 0, PercentOfTotal = 0;
};

class KernelSummary {
public:
  static constexpr llvm::StringLiteral Name = "kernel-summary";
  KernelSummary(const Trace &T, AnalysisManager &AM);

  /// True when the trace has no cpu_op (no Parent cpu_op column).
  bool gpuOnly() const { return GpuOnly; }
  /// Sorted by the duration sum, descending.
  llvm::ArrayRef<KernelGroupRow> groups() const { return Groups; }

private:
  bool GpuOnly = false;
  std::vector<KernelGroupRow> Groups;
};

} // namespace tl

#endif // TL_ANALYSIS_KERNELSUMMARY_H
