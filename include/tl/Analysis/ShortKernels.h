//===- ShortKernels.h - short-kernel histogram and summary -----*- C++ -*-===//
//
// Spec tracelens-perf-report.md §6.9: kernels shorter than the threshold
// (AnalysisOptions::ShortKernelThresholdUs), a numpy histogram of their
// durations and a summary by (parent cpu_op, its args, kernel name).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_SHORTKERNELS_H
#define TL_ANALYSIS_SHORTKERNELS_H

#include "tl/IR/Trace.h"
#include "tl/Support/PyValue.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

struct ShortKernelGroup {
  std::string ParentCpuOp; // unused for GPU-only traces
  PyValue InputDims, InputStrides, ConcreteInputs;
  std::string KernelName;
  double SumUs = 0, MeanUs = 0, PercentOfTotal = 0;
  uint64_t Count = 0;
};

class ShortKernels {
public:
  static constexpr llvm::StringLiteral Name = "short-kernels";
  ShortKernels(const Trace &T, AnalysisManager &AM);

  bool gpuOnly() const { return GpuOnly; }
  /// Number of short kernels (0: the histogram has no rows).
  size_t numShort() const { return NumShort; }
  const Histogram &histogram() const { return Hist; }
  llvm::ArrayRef<ShortKernelGroup> groups() const { return Groups; }

private:
  bool GpuOnly = false;
  size_t NumShort = 0;
  Histogram Hist;
  std::vector<ShortKernelGroup> Groups;
};

} // namespace tl

#endif // TL_ANALYSIS_SHORTKERNELS_H
