//===- KernelSummary.h - kernel_summary table ------------------*- C++ -*-===//
//
// Spec tracelens-perf-report.md §6.8: every `kernel` event (linked or not)
// with its launcher and nearest cpu_op (`execute` not skipped here), grouped
// by (parent op category, parent cpu_op, kernel name, stream).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_KERNELSUMMARY_H
#define TL_ANALYSIS_KERNELSUMMARY_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// One kernel with its launch context (file order).
struct KernelRow {
  EventId Kernel = NoEvent;
  EventId Launcher = NoEvent;    // runtime call (NoEvent: unlinked)
  EventId ParentCpuOp = NoEvent; // nearest cpu_op above the launcher
  /// Parent op category, "graph"/"runtime" without a cpu_op; nullopt when
  /// the kernel has no launcher. Views: one row per kernel must stay small
  /// (the text lives in the summary's pool or the trace).
  std::optional<llvm::StringRef> Category;
  /// Parent cpu_op name (the launcher's name without a cpu_op).
  std::optional<llvm::StringRef> ParentName;
  std::optional<int64_t> Stream;
  double DurUs = 0;
};

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
  llvm::ArrayRef<KernelRow> kernels() const { return Rows; }
  /// Sorted by the duration sum, descending.
  llvm::ArrayRef<KernelGroupRow> groups() const { return Groups; }

private:
  bool GpuOnly = false;
  llvm::StringSet<> Categories; // texts of KernelRow::Category
  std::vector<KernelRow> Rows;
  std::vector<KernelGroupRow> Groups;
};

} // namespace tl

#endif // TL_ANALYSIS_KERNELSUMMARY_H
