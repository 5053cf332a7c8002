//===- PerfReportCsvEmitter.cpp - perf_report_csvs/ tables ---------------===//
//
// Writes the reference's perf-report CSVs that this layer owns into
// <out>/perf_report_csvs/: gpu_timeline, ops_summary_by_category,
// ops_summary, ops_unique_args, kernel_summary, short_kernel_histogram,
// short_kernels_summary and coll_analysis (spec tracelens-perf-report.md
// §3.6, §6.2-§6.5, §6.8-§6.10). File and column names are the reference's.
// GPU-only traces (no cpu_op) get no ops_* tables and no coll_analysis; an
// empty table is not written, except gpu_timeline and the short-kernel
// sheets.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/PerfCsvTables.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CollectiveSummary.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/KernelDetails.h"
#include "tl/Analysis/KernelSummary.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Analysis/Recompute.h"
#include "tl/Analysis/ShortKernels.h"
#include "tl/Report/Emitter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace tl;

CsvTable tl::gpuTimelineTable(const GpuTimeline &TL) {
  CsvTable Tab({"type", "time ms", "percent"});
  auto Add = [&](llvm::StringRef Name, double Us) {
    Tab.addRow({pyText(Name), pyFloat(Us / 1e3), pyFloat(TL.percent(Us))});
  };
  Add("computation_time", TL.computationTime());
  Add("exposed_comm_time", TL.exposedCommTime());
  Add("exposed_memcpy_time", TL.exposedMemcpyTime());
  Add("busy_time", TL.busyTime());
  Add("idle_time", TL.idleTime());
  Add("total_time", TL.totalTime());
  Add("total_comm_time", TL.totalCommTime());
  Add("total_memcpy_time", TL.totalMemcpyTime());
  return Tab;
}

/// The inference layout of ops_summary_by_category (spec
/// tracelens-inference.md §A.4).
static CsvTable inferenceByCategoryTable(const OpTable &Ops) {
  CsvTable Tab({"op category", "parent_module", "Count", "call_stack_first",
                "total_direct_kernel_time_ms", "Percentage (%)",
                "Cumulative Percentage (%)"});
  for (const CategorySummaryRow &R : Ops.byCategory())
    Tab.addRow({pyText(R.Category), pyText(R.ParentModule),
                pyInt(int64_t(R.Count)), pyText(R.CallStackFirst),
                pyFloat(R.DirectMs), pyFloat(R.Percentage),
                pyFloat(R.CumulativePercentage)});
  return Tab;
}

/// The inference layout of ops_summary (§A.3): no subtree ms column, the
/// subtree count (always Count) and the first call stack.
static CsvTable inferenceOpsSummaryTable(const OpTable &Ops) {
  CsvTable Tab({"name", "parent_module", "total_direct_kernel_time_sum",
                "total_subtree_kernel_time_sum",
                "total_subtree_kernel_time_count",
                "total_direct_kernel_time_ms", "Count", "Categories",
                "call_stack_first", "Percentage (%)",
                "Cumulative Percentage (%)"});
  for (const NameSummaryRow &R : Ops.byName()) {
    std::vector<PyValue> Cats;
    for (const std::string &C : R.Categories)
      Cats.push_back(PyValue::str(C));
    Tab.addRow({pyText(R.Name), pyText(R.ParentModule),
                pyFloat(R.DirectSumUs), pyFloat(R.SubtreeSumUs),
                pyInt(int64_t(R.Count)), pyFloat(R.DirectSumUs / 1000),
                pyInt(int64_t(R.Count)), PyValue::list(std::move(Cats)),
                pyText(R.CallStackFirst), pyFloat(R.Percentage),
                pyFloat(R.CumulativePercentage)});
  }
  return Tab;
}

CsvTable tl::opsSummaryByCategoryTable(const OpTable &Ops) {
  if (Ops.inference())
    return inferenceByCategoryTable(Ops);
  CsvTable Tab({"op category", "Count", "total_direct_kernel_time_ms",
                "Percentage (%)", "Cumulative Percentage (%)"});
  std::vector<PyValue> Recompute;
  for (const CategorySummaryRow &R : Ops.byCategory()) {
    Tab.addRow({pyText(R.Category), pyInt(int64_t(R.Count)),
                pyFloat(R.DirectMs), pyFloat(R.Percentage),
                pyFloat(R.CumulativePercentage)});
    Recompute.push_back(PyValue::boolean(R.IsRecompute));
  }
  if (Ops.splitsRecompute())
    Tab.insertColumn(1, "is_recompute", std::move(Recompute));
  return Tab;
}

CsvTable tl::opsSummaryTable(const OpTable &Ops) {
  if (Ops.inference())
    return inferenceOpsSummaryTable(Ops);
  CsvTable Tab({"name", "total_direct_kernel_time_sum",
                "total_subtree_kernel_time_sum", "total_direct_kernel_time_ms",
                "total_subtree_kernel_time_ms", "Count", "Categories",
                "Percentage (%)", "Cumulative Percentage (%)"});
  std::vector<PyValue> Recompute;
  for (const NameSummaryRow &R : Ops.byName()) {
    Recompute.push_back(PyValue::boolean(R.IsRecompute));
    std::vector<PyValue> Cats;
    for (const std::string &C : R.Categories)
      Cats.push_back(PyValue::str(C));
    Tab.addRow({pyText(R.Name), pyFloat(R.DirectSumUs), pyFloat(R.SubtreeSumUs),
                pyFloat(R.DirectSumUs / 1000), pyFloat(R.SubtreeSumUs / 1000),
                pyInt(int64_t(R.Count)), PyValue::list(std::move(Cats)),
                pyFloat(R.Percentage), pyFloat(R.CumulativePercentage)});
  }
  if (Ops.splitsRecompute())
    Tab.insertColumn(1, "is_recompute", std::move(Recompute));
  return Tab;
}

CsvTable tl::opsUniqueArgsTable(const OpTable &Ops) {
  CsvTable Tab(
      {"name", "op category", "process_name", "process_label", "thread_name",
       "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
       "operation_count", "total_direct_kernel_time_mean",
       "total_subtree_kernel_time_mean", "total_direct_kernel_time_median",
       "total_subtree_kernel_time_median", "total_direct_kernel_time_std",
       "total_subtree_kernel_time_std", "total_direct_kernel_time_min",
       "total_subtree_kernel_time_min", "total_direct_kernel_time_max",
       "total_subtree_kernel_time_max", "total_direct_kernel_time_sum",
       "total_subtree_kernel_time_sum", "ex_UID", "kernel_details_summary",
       "trunc_kernel_details", "Percentage (%)", "Cumulative Percentage (%)"});
  std::vector<PyValue> Recompute;
  for (const UniqueArgsRow &R : Ops.uniqueArgs()) {
    Recompute.push_back(PyValue::boolean(R.IsRecompute));
    std::string Trunc = formatTruncKernelDetails(R.KernelSummary);
    Tab.addRow({pyText(R.Name), pyText(R.Category), pyText(R.ProcessName),
                pyText(R.ProcessLabel), pyText(R.ThreadName), R.InputDims,
                R.InputType, R.InputStrides, R.ConcreteInputs,
                pyInt(int64_t(R.OperationCount)), pyFloat(R.Direct.Mean),
                pyFloat(R.Subtree.Mean), pyFloat(R.Direct.Median),
                pyFloat(R.Subtree.Median), pyFloat(R.Direct.Std),
                pyFloat(R.Subtree.Std), pyFloat(R.Direct.Min),
                pyFloat(R.Subtree.Min), pyFloat(R.Direct.Max),
                pyFloat(R.Subtree.Max), pyFloat(R.Direct.Sum),
                pyFloat(R.Subtree.Sum), pyInt(int64_t(R.ExUid)),
                pyText(formatKernelDetailsSummary(R.KernelSummary)),
                Trunc.empty() ? PyValue::none() : pyText(Trunc),
                pyFloat(R.Percentage), pyFloat(R.CumulativePercentage)});
  }
  if (Ops.splitsRecompute())
    Tab.insertColumn(9, "is_recompute", std::move(Recompute));
  if (Ops.groupsByNumKernels()) {
    std::vector<PyValue> N;
    for (const UniqueArgsRow &R : Ops.uniqueArgs())
      N.push_back(pyInt(int64_t(R.NumKernels)));
    Tab.insertColumn(9, "num_kernels", std::move(N));
  }
  if (Ops.inference()) {
    // parent_module after op category, call_stack after ex_UID (§A.5).
    std::vector<PyValue> Module, Stack;
    for (const UniqueArgsRow &R : Ops.uniqueArgs()) {
      Module.push_back(pyText(R.ParentModule));
      Stack.push_back(pyText(R.CallStack));
    }
    const std::vector<std::string> &Cols = Tab.columns();
    size_t Ex = std::find(Cols.begin(), Cols.end(), "ex_UID") - Cols.begin();
    Tab.insertColumn(Ex + 1, "call_stack", std::move(Stack));
    Tab.insertColumn(2, "parent_module", std::move(Module));
  }
  return Tab;
}

CsvTable tl::kernelSummaryTable(const KernelSummary &KS) {
  std::vector<std::string> Cols = {"Parent op category"};
  if (!KS.gpuOnly())
    Cols.push_back("Parent cpu_op");
  for (const char *C :
       {"Kernel name", "Kernel stream", "Kernel duration (µs)_sum",
        "Kernel duration (µs)_count", "Kernel duration (µs)_mean",
        "Kernel duration (µs)_min", "Kernel duration (µs)_max",
        "Percent of kernels time (%)", "Percent of total time (%)"})
    Cols.push_back(C);
  CsvTable Tab(std::move(Cols));
  for (const KernelGroupRow &G : KS.groups()) {
    std::vector<PyValue> Row = {pyOptStr(G.Category)};
    if (!KS.gpuOnly())
      Row.push_back(pyOptStr(G.ParentCpuOp));
    for (PyValue V :
         {pyText(G.KernelName), pyOptInt(G.Stream), pyFloat(G.SumUs),
          pyInt(int64_t(G.Count)), pyFloat(G.MeanUs), pyFloat(G.MinUs),
          pyFloat(G.MaxUs), pyFloat(G.PercentOfKernels),
          pyFloat(G.PercentOfTotal)})
      Row.push_back(std::move(V));
    Tab.addRow(std::move(Row));
  }
  return Tab;
}

CsvTable tl::shortKernelHistogramTable(const ShortKernels &SK) {
  CsvTable Tab({"bin_start", "bin_end", "count"});
  if (!SK.numShort())
    return Tab;
  const Histogram &H = SK.histogram();
  for (size_t I = 0; I < H.Counts.size(); ++I)
    Tab.addRow({pyFloat(H.Edges[I]), pyFloat(H.Edges[I + 1]),
                pyInt(H.Counts[I])});
  return Tab;
}

CsvTable tl::shortKernelsSummaryTable(const ShortKernels &SK) {
  // With no short kernels pandas writes a frame without columns: "\n".
  if (SK.groups().empty())
    return CsvTable();
  std::vector<std::string> Cols;
  if (!SK.gpuOnly())
    Cols = {"Parent cpu_op", "Input dims", "Input strides", "Concrete Inputs"};
  for (const char *C :
       {"Kernel name", "Short Kernel duration (µs) sum", "Short Kernel count",
        "Short Kernel duration (µs) mean",
        "Short Kernel duration (µs) percent of total time"})
    Cols.push_back(C);
  CsvTable Tab(std::move(Cols));
  for (const ShortKernelGroup &G : SK.groups()) {
    std::vector<PyValue> Row;
    if (!SK.gpuOnly())
      Row = {pyText(G.ParentCpuOp), G.InputDims, G.InputStrides,
             G.ConcreteInputs};
    for (PyValue V : {pyText(G.KernelName), pyFloat(G.SumUs),
                      pyInt(int64_t(G.Count)), pyFloat(G.MeanUs),
                      pyFloat(G.PercentOfTotal)})
      Row.push_back(std::move(V));
    Tab.addRow(std::move(Row));
  }
  return Tab;
}

CsvTable tl::collAnalysisTable(const CollectiveSummary &CS) {
  std::vector<std::string> Cols;
  for (const char *K : CollectiveSummary::keyNames())
    Cols.push_back(K);
  for (const char *C : {"In msg size (MB)_first", "Out msg size (MB)_first",
                        "dur_sum", "dur_mean", "dur_std", "dur_min", "dur_max",
                        "operation_count"})
    Cols.push_back(C);
  CsvTable Tab(std::move(Cols));
  for (const CollectiveGroupRow &G : CS.groups()) {
    std::vector<PyValue> Row(G.Keys.begin(), G.Keys.end());
    for (PyValue V : {pyOptFloat(G.InMsgMB), pyOptFloat(G.OutMsgMB),
                      pyFloat(G.DurSum), pyFloat(G.DurMean), pyFloat(G.DurStd),
                      pyFloat(G.DurMin), pyFloat(G.DurMax),
                      pyInt(int64_t(G.Count))})
      Row.push_back(std::move(V));
    Tab.addRow(std::move(Row));
  }
  return Tab;
}

std::vector<std::pair<std::string, CsvTable>>
tl::perfReportTables(const Trace &T, AnalysisManager &AM) {
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  std::vector<std::pair<std::string, CsvTable>> Out;
  // The reference stops with "No GPU events found in the trace".
  if (!TL.hasGpuEvents())
    return Out;
  bool GpuOnly = T.eventsOfKind(EventKind::CpuOp).empty();
  if (AM.options().DetectRecompute) {
    // Separate timelines over the non-recompute and recompute GPU events;
    // False rows first (an empty half is left out).
    const RecomputeMarks &RM = AM.get<RecomputeMarks>();
    std::vector<EventId> Halves[2];
    for (EventId E : TL.events())
      Halves[RM.isRecompute(E)].push_back(E);
    CsvTable Tab;
    for (bool R : {false, true}) {
      if (Halves[R].empty())
        continue;
      CsvTable Half = gpuTimelineTable(GpuTimeline(T, std::move(Halves[R])));
      Half.insertColumn(3, "is_recompute",
                        std::vector<PyValue>(Half.numRows(),
                                             PyValue::boolean(R)));
      if (Tab.columns().empty())
        Tab = std::move(Half);
      else
        Tab.append(Half);
    }
    Out.emplace_back("gpu_timeline", std::move(Tab));
  } else {
    Out.emplace_back("gpu_timeline", gpuTimelineTable(TL));
  }
  if (!GpuOnly) {
    const OpTable &Ops = AM.get<OpTable>();
    Out.emplace_back("ops_summary_by_category", opsSummaryByCategoryTable(Ops));
    Out.emplace_back("ops_summary", opsSummaryTable(Ops));
    Out.emplace_back("ops_unique_args", opsUniqueArgsTable(Ops));
  }
  // The inference generator writes no kernel-summary, short-kernel or
  // collective sheets (its regression call leaves them off, §A.0).
  if (!AM.options().Inference) {
    Out.emplace_back("kernel_summary",
                     kernelSummaryTable(AM.get<KernelSummary>()));
    const ShortKernels &SK = AM.get<ShortKernels>();
    Out.emplace_back("short_kernel_histogram", shortKernelHistogramTable(SK));
    Out.emplace_back("short_kernels_summary", shortKernelsSummaryTable(SK));
    if (!GpuOnly)
      Out.emplace_back("coll_analysis",
                       collAnalysisTable(AM.get<CollectiveSummary>()));
  }
  llvm::erase_if(Out, [](const std::pair<std::string, CsvTable> &NT) {
    bool Always =
        NT.first == "gpu_timeline" ||
                  llvm::StringRef(NT.first).starts_with("short_kernel");
    return NT.second.empty() && !Always;
  });
  return Out;
}

llvm::Error tl::writePerfCsvTables(const Trace &T, AnalysisManager &AM,
                                   llvm::StringRef Dir) {
  llvm::Error Err = llvm::Error::success();
  for (auto &[Name, Tab] : perfReportTables(T, AM))
    Err = llvm::joinErrors(std::move(Err),
                           writeCsvTable(Dir, Name + ".csv", Tab));
  return Err;
}

namespace {
class PerfReportCsvEmitter : public Emitter {
public:
  llvm::StringRef name() const override { return "perf-report-csv"; }
  bool needsPassResults() const override { return false; }
  llvm::Error emit(const ReportContext &Ctx) override {
    llvm::SmallString<256> Dir(Ctx.OutputDir);
    llvm::sys::path::append(Dir, PerfCsvDirName);
    return writePerfCsvTables(Ctx.T, Ctx.AM, Dir);
  }
};
} // namespace

std::unique_ptr<Emitter> tl::createPerfReportCsvEmitter() {
  return std::make_unique<PerfReportCsvEmitter>();
}
