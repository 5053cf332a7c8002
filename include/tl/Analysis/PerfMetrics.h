//===- PerfMetrics.h - Perf models applied to trace events -----*- C++ -*-===//
//
// The glue between the event IR and the pure perf models (spec perf-report
// §5.1, §2.9): the OpDesc of a cpu_op from its args, the kernel set of an op
// (its subtree kernels, or the subtree kernels of its linked backward
// events), and the §5.1 metric columns for that kernel set.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_PERFMETRICS_H
#define TL_ANALYSIS_PERFMETRICS_H

#include "tl/Analysis/PerfModel.h"
#include "tl/IR/Trace.h"
#include "tl/Support/PyValue.h"

#include <vector>

namespace tl {

struct ArchSpec;

/// A JSON arg as the Python object json.load gives (lists), or with every
/// list turned into a tuple (the unified table's "lists to tuples").
PyValue argToPy(ArgValue V, bool ListsAsTuples = false);

/// The op description of E from args "Input Dims", "Input type", "Input
/// Strides", "Concrete Inputs" and "Output type". KernelNames is left empty.
OpDesc opDescOf(const Trace &T, EventId E);

/// True when Name has a model for this op (exact name, or the triton matcher
/// with its modelable check, spec §6.7 step 2). Extension ops of the
/// category registry without a ported formula (§5.11) count as modelled.
bool eventHasPerfModel(const Trace &T, EventId E);

/// §2.9: GPU events reached through children in order, every category.
std::vector<EventId> subtreeKernels(const Trace &T, EventId E);
/// §2.7: bwd_events of E and all its descendants, sorted by UID.
std::vector<EventId> subtreeBwdEvents(const Trace &T, EventId E);
/// Union busy time of the GPU events (µs), 0 when empty.
double kernelBusyTime(const Trace &T, llvm::ArrayRef<EventId> Kernels);

/// What §5.1 yields for one event.
struct OpPerf {
  PerfModelResult Model;
  PerfMetrics Metrics;
  double KernelTimeUs = 0;
  /// The kernel set, stable-sorted by ts (the event's new kernel_details).
  std::vector<EventId> Kernels;
};

/// Copy the §5.1 columns of P into a table row (perf sheets and the unified
/// table keep their own row types with these field names).
template <typename Row> void copyPerfColumns(Row &R, const OpPerf &P) {
  const PerfMetrics &M = P.Metrics;
  R.Gflops = M.GFLOPS;
  R.DataMB = M.DataMovedMB;
  R.FpB = M.FlopsPerByte;
  R.TBs = M.TBs;
  R.TFs = M.TFLOPSs;
  R.Spec = M.ComputeSpec;
  if (M.HasRoofline) {
    R.RoofT = M.RooflineTimeUs;
    R.RoofB = M.RooflineBound;
    R.PctRoof = M.PctRoofline;
  }
  R.KernelTime = P.KernelTimeUs;
}

/// §5.1 metrics(E, Bwd). Errors: the model cannot be built (no model,
/// parameter extraction failed) or NotImplementedError (no backward).
/// The kernel set is still returned through KernelsOut when non-null.
llvm::Expected<OpPerf> computeOpPerf(const Trace &T, EventId E, bool Bwd,
                                     const ArchSpec *Arch,
                                     std::vector<EventId> *KernelsOut = nullptr);

/// Backward category of a model class (SDPA_fwd -> SDPA_bwd, CONV_fwd ->
/// CONV_bwd, NORM_fwd -> NORM_bwd); empty when the class has none.
std::string bwdCategoryOf(llvm::StringRef ClassCategory);

/// Kernels of Ks stable-sorted by ts.
void sortByTs(const Trace &T, std::vector<EventId> &Ks);

} // namespace tl

#endif // TL_ANALYSIS_PERFMETRICS_H
