//===- OpTable.h - Kernel launchers and the ops_* tables -------*- C++ -*-===//
//
// Spec tracelens-perf-report.md §2.8 and §6.2-§6.4: every non-communication
// linked GPU event is attributed to its launcher (the nearest cpu_op above
// its runtime call, `execute` and python frames transparent; the runtime
// call itself when there is none). Per launcher: direct and subtree kernel
// time (interval unions), kernel_details and op category. The summaries
// group launchers by category, by name and by argument signature.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_OPTABLE_H
#define TL_ANALYSIS_OPTABLE_H

#include "tl/Analysis/KernelDetails.h"
#include "tl/IR/Trace.h"
#include "tl/Support/PyValue.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// One launcher. Rows are small (one per launching op of a trace of
/// millions of events): the kernels live in one array shared by all rows,
/// kernel_details lists are made on demand.
struct LauncherRow {
  EventId Launcher = NoEvent;
  /// Attributed kernels: OpTable::kernelsOf(row), file order.
  uint32_t KernelBegin = 0, NumKernels = 0;
  /// First kernel of kernel_details (the kernels stable-sorted by ts).
  EventId FirstKernel = NoEvent;
  double DirectTimeUs = 0;  // union of the attributed kernels
  double SubtreeTimeUs = 0; // union of the launcher's subtree GPU events
  /// Index of the op category (OpTable::categoryName).
  uint32_t CategoryIdx = 0;
  bool IsRecompute = false; // only set with DetectRecompute
  /// Inference mode: indices of the parent_module and call_stack texts
  /// (OpTable::parentModule / callStack); 0 otherwise.
  uint32_t ModuleIdx = 0, StackIdx = 0;
};

struct CategorySummaryRow {
  std::string Category;
  /// Inference mode only (a group key, and the first launcher's stack).
  std::string ParentModule, CallStackFirst;
  bool IsRecompute = false;
  uint64_t Count = 0;
  double DirectMs = 0, Percentage = 0, CumulativePercentage = 0;
};

struct NameSummaryRow {
  std::string Name;
  std::string ParentModule, CallStackFirst; // inference mode only
  bool IsRecompute = false;
  double DirectSumUs = 0, SubtreeSumUs = 0;
  uint64_t Count = 0;
  std::vector<std::string> Categories; // sorted, distinct
  double Percentage = 0, CumulativePercentage = 0;
};

/// pandas aggregate set of one column of ops_unique_args.
struct AggStats {
  double Mean = 0, Median = 0, Std = 0, Min = 0, Max = 0, Sum = 0;
};

struct UniqueArgsRow {
  std::string Name, Category, ProcessName, ProcessLabel, ThreadName;
  std::string ParentModule, CallStack; // inference mode only
  /// Input Dims / Input type / Input Strides / Concrete Inputs as Python
  /// values (lists become tuples; None when missing).
  PyValue InputDims, InputType, InputStrides, ConcreteInputs;
  bool IsRecompute = false;
  /// Kernels per op (a group key only with GroupByNumKernels).
  uint64_t NumKernels = 0;
  uint64_t OperationCount = 0;
  AggStats Direct, Subtree;
  uint64_t ExUid = 0;
  std::vector<KernelStat> KernelSummary;
  double Percentage = 0, CumulativePercentage = 0;
};

class OpTable {
public:
  static constexpr llvm::StringLiteral Name = "op-table";
  OpTable(const Trace &T, AnalysisManager &AM);

  /// Launchers ordered by ts (stable; ties by first kernel met).
  llvm::ArrayRef<LauncherRow> launchers() const { return Rows; }
  /// The launcher row of an event, or nullptr when it launched nothing.
  const LauncherRow *launcherRow(EventId E) const;
  /// The row's attributed kernels in file order.
  llvm::ArrayRef<EventId> kernelsOf(const LauncherRow &R) const {
    return llvm::ArrayRef<EventId>(Kernels).slice(R.KernelBegin, R.NumKernels);
  }
  /// The row's kernel_details: its kernels stable-sorted by ts.
  std::vector<KernelDetail> detailsOf(const LauncherRow &R) const;
  /// Op category of a row.
  llvm::StringRef categoryName(const LauncherRow &R) const {
    return Categories[R.CategoryIdx];
  }
  /// Name of the first kernel of E's kernel_details ("" when E launched
  /// nothing).
  llvm::StringRef firstKernelName(EventId E) const;
  /// Launcher of a GPU event (NoEvent: communication or unlinked).
  EventId launcherOf(EventId Kernel) const;
  /// The reference's categorize(E): registry, prefixes, then the first
  /// kernel of E's kernel_details (set only on launchers).
  std::string categoryOf(EventId E) const;

  llvm::ArrayRef<CategorySummaryRow> byCategory() const { return ByCategory; }
  llvm::ArrayRef<NameSummaryRow> byName() const { return ByName; }
  llvm::ArrayRef<UniqueArgsRow> uniqueArgs() const { return UniqueArgs; }
  /// True when the summaries are split by is_recompute (an extra key).
  bool splitsRecompute() const { return SplitRecompute; }
  /// True when ops_unique_args is also keyed by num_kernels.
  bool groupsByNumKernels() const { return ByNumKernels; }
  /// True in inference mode: the summaries are keyed by parent module too
  /// and carry call stacks (spec tracelens-inference.md §A.2-§A.5).
  bool inference() const { return Inference; }
  /// parent_module / call_stack of a row (inference mode).
  llvm::StringRef parentModule(const LauncherRow &R) const {
    return Modules[R.ModuleIdx];
  }
  llvm::StringRef callStack(const LauncherRow &R) const {
    return Stacks[R.StackIdx];
  }

private:
  const Trace &T;
  bool SplitRecompute = false;
  bool ByNumKernels = false;
  bool Inference = false;
  std::vector<LauncherRow> Rows;
  /// Distinct parent_module and call_stack texts (inference mode).
  std::vector<std::string> Modules, Stacks;
  /// Kernels of all rows, row after row.
  std::vector<EventId> Kernels;
  /// (launcher, row) sorted by launcher, for launcherRow().
  std::vector<std::pair<EventId, uint32_t>> RowOf;
  std::vector<std::string> Categories;
  std::vector<CategorySummaryRow> ByCategory;
  std::vector<NameSummaryRow> ByName;
  std::vector<UniqueArgsRow> UniqueArgs;
};

/// An event's args value as the reference's row holds it: JSON lists become
/// tuples recursively, a missing key None.
PyValue argAsTuple(const Trace &T, EventId E, llvm::StringRef Key);
/// argAsTuple of an arg value already looked up (Null: None).
PyValue argValueAsTuple(ArgValue V);

/// Small ids for grouping keys: equal texts get equal ids. Argument reprs
/// are made once per stored value (shape lists are interned, so millions
/// of ops share a few thousand), not once per op.
class ReprIds {
public:
  /// Id of a text.
  uint32_t text(llvm::StringRef S);
  /// Id of pyRepr(argAsTuple(T, E, Key)), where V = T.args(E).get(Key) is
  /// not null.
  uint32_t arg(const Trace &T, EventId E, llvm::StringRef Key, ArgValue V);

private:
  llvm::StringMap<uint32_t> Texts;
  llvm::DenseMap<uint64_t, uint32_t> ByIdentity; // ArgValue::identity()
};
/// Process name / label / thread name of an event's track ("Unknown").
std::string processNameOf(const Trace &T, EventId E);
std::string processLabelOf(const Trace &T, EventId E);
std::string threadNameOf(const Trace &T, EventId E);

} // namespace tl

#endif // TL_ANALYSIS_OPTABLE_H
