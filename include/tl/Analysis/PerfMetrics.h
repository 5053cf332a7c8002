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


#include <memory>

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

class AnalysisManager;

/// Per-subtree kernel facts without copying the subtree's kernel list. The
/// kernel set of a forward op is its subtree's GPU events
/// (Trace::subtreeGpuEvents, a contiguous range); a chain of ops nested
/// 10 000 deep makes every op own up to 10 000 kernels, so a per-op copy,
/// sort or busy-time sweep is quadratic (issue 10). Ranges of at most
/// DirectLimit kernels are answered by a direct scan, exactly as
/// kernelBusyTime/sortByTs compute them; the facts of the larger ranges of
/// cpu_ops (modelled ops, launchers: OpTable asks too) are precomputed
/// bottom-up over the nested ranges with small-to-large merging of disjoint
/// interval sets (O(n log^2 n)). Other events' large ranges are scanned.
class SubtreeKernelIndex {
public:
  static constexpr llvm::StringLiteral Name = "subtree-kernels";
  /// Ranges up to this size are scanned directly.
  static constexpr size_t DirectLimit = 64;

  SubtreeKernelIndex(const Trace &T, AnalysisManager &AM);
  explicit SubtreeKernelIndex(const Trace &T);

  /// Number of GPU events in E's subtree.
  size_t count(EventId E) const { return T.subtreeGpuEvents(E).size(); }
  /// kernelBusyTime of E's subtree kernels. Above DirectLimit the union
  /// length is summed with a compensated (double-double) running total,
  /// which may differ from the left-to-right sum in the last bit.
  double busyTime(EventId E) const;
  /// First kernel of the subtree in stable ts order (NoEvent when none).
  EventId firstByTs(EventId E) const;
  /// First kernel in stable ts order whose name parseGemmTranspose accepts
  /// (the one kernel name the GEMM model reads), NoEvent when none.
  EventId firstGemmNamed(EventId E) const;
  /// The subtree's kernels stable-sorted by ts (a copy: callers ask only
  /// for the lists they print).
  std::vector<EventId> sortedByTs(EventId E) const;

private:
  struct Facts {
    double Busy = 0;
    EventId First = NoEvent, FirstGemm = NoEvent;
  };
  const Facts *large(EventId E) const;
  void build();

  const Trace &T;
  /// Facts of every large range of a modelled op, keyed by range begin and
  /// end (nested ops with the same kernels share one entry).
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, Facts>> Large;
};

/// What §5.1 yields for one event.
struct OpPerf {
  /// Shared by every event with the same signature (OpPerfCache).
  std::shared_ptr<const PerfModelResult> Model;
  PerfMetrics Metrics;
  double KernelTimeUs = 0;
  /// Size of the kernel set and its first kernel by ts.
  size_t NumKernels = 0;
  EventId FirstKernel = NoEvent;
  /// The backward kernel set, stable-sorted by ts (forward sets are not
  /// copied: SubtreeKernelIndex::sortedByTs makes them on demand).
  std::vector<EventId> Kernels;
};

/// Copy the numeric §5.1 columns of P into a table row (the roofline ones
/// only when there is a roofline: rows default them to NaN).
template <typename Row> void copyPerfNumbers(Row &R, const OpPerf &P) {
  const PerfMetrics &M = P.Metrics;
  R.Gflops = M.GFLOPS;
  R.DataMB = M.DataMovedMB;
  R.FpB = M.FlopsPerByte;
  R.TBs = M.TBs;
  R.TFs = M.TFLOPSs;
  if (M.HasRoofline) {
    R.RoofT = M.RooflineTimeUs;
    R.PctRoof = M.PctRoofline;
  }
  R.KernelTime = P.KernelTimeUs;
}

/// Copy the §5.1 columns of P, numbers and texts, into a table row (perf
/// sheets keep their own row type with these field names).
template <typename Row> void copyPerfColumns(Row &R, const OpPerf &P) {
  copyPerfNumbers(R, P);
  R.Spec = P.Metrics.ComputeSpec;
  if (P.Metrics.HasRoofline)
    R.RoofB = P.Metrics.RooflineBound;
}

/// §5.1 metrics(E, Bwd) with the op model built once per signature: the
/// model reads only the op's name, its "Input Dims", "Input type", "Input
/// Strides", "Concrete Inputs" and "Output type" args and (GEMM transpose)
/// the first kernel name by ts that parseGemmTranspose accepts, so events
/// whose args are the same stored values share one model; only the kernel
/// time and the metrics derived from it are per event. Millions of events
/// have a few thousand signatures. Not thread-safe: one per analysis.
class OpPerfCache {
public:
  OpPerfCache(const Trace &T, const SubtreeKernelIndex &Idx);
  ~OpPerfCache();

  /// Errors: the model cannot be built (no model, parameter extraction
  /// failed) or NotImplementedError (no backward). The first kernel by ts
  /// is still returned through FirstKernelOut when non-null.
  llvm::Expected<OpPerf> get(EventId E, bool Bwd, const ArchSpec *Arch,
                             EventId *FirstKernelOut = nullptr);

private:
  struct Entry;
  struct Key;
  struct KeyHash;
  Entry &model(EventId E, EventId GemmKernel);

  const Trace &T;
  const SubtreeKernelIndex &Idx;
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// OpPerfCache::get without a cache (tests, one-off callers).
llvm::Expected<OpPerf> computeOpPerf(const Trace &T, EventId E, bool Bwd,
                                     const ArchSpec *Arch,
                                     const SubtreeKernelIndex &Idx,
                                     EventId *FirstKernelOut = nullptr);

/// Backward category of a model class (SDPA_fwd -> SDPA_bwd, CONV_fwd ->
/// CONV_bwd, NORM_fwd -> NORM_bwd); empty when the class has none.
std::string bwdCategoryOf(llvm::StringRef ClassCategory);

/// Kernels of Ks stable-sorted by ts.
void sortByTs(const Trace &T, std::vector<EventId> &Ks);

} // namespace tl

#endif // TL_ANALYSIS_PERFMETRICS_H
