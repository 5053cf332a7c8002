//===- DiffStatsEmitter.cpp - perf_report_csvs/diff_stats.csv -------------===//
//
// TraceLens's TraceDiff table: per LCA (merged-tree pre-order), trace 1's GPU
// events then trace 2's, each in file order. cpu_op_* / Input * describe the
// launching cpu op (OpTable's launcher), busy_time the GPU busy time of the
// kernels that op launches, nn_module_* its module stack.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/OpTable.h"
#include "tl/IR/Trace.h"
#include "tl/Report/CompareEmitters.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;

namespace tl {

namespace {

/// GPU busy time of the kernels an op launches itself (its launcher row),
/// as an interval union. (Falconsai: miopen_convolution's busy_time leaves out
/// the bias add_ nested below it.)
double busyTime(const Trace &Tr, ArrayRef<EventId> Kernels) {
  // Disjoint kernels add their durations (exact, as TraceLens reports:
  // MI300X timestamps near 2.2e12 us lose digits in end - start); only
  // overlapping runs are measured from their span.
  std::vector<EventId> Ks(Kernels.begin(), Kernels.end());
  std::stable_sort(Ks.begin(), Ks.end(), [&](EventId A, EventId B) {
    return Tr.ts(A) < Tr.ts(B);
  });
  double Sum = 0;
  size_t I = 0;
  while (I < Ks.size()) {
    double S = Tr.ts(Ks[I]), E = Tr.end(Ks[I]);
    size_t J = I + 1;
    while (J < Ks.size() && Tr.ts(Ks[J]) <= E)
      E = std::max(E, Tr.end(Ks[J++]));
    Sum += J == I + 1 ? Tr.dur(Ks[I]) : E - S;
    I = J;
  }
  return Sum;
}

void addRows(CsvTable &Tab, const Trace &Tr, AnalysisManager *AM,
             ArrayRef<EventId> Gpu, bool InRef, const LcaGroup *G) {
  for (EventId K : Gpu) {
    EventId Op = AM ? AM->get<OpTable>().launcherOf(K) : NoEvent;
    if (Op == NoEvent && Tr.parent(K) != NoEvent)
      Op = Tr.parent(Tr.parent(K)); // communication: the runtime's parent
    std::vector<PyValue> Row;
    Row.push_back(pyText(Tr.name(K)));
    if (Op != NoEvent) {
      Row.push_back(pyText(Tr.name(Op)));
      Row.push_back(pyInt(int64_t(Tr.uid(Op))));
    } else {
      Row.push_back(PyValue());
      Row.push_back(PyValue());
    }
    Row.push_back(pyText(InRef ? "trace2" : "trace1"));
    for (StringRef Key :
         {"Input Dims", "Input Strides", "Input type", "Concrete Inputs"})
      Row.push_back(Op != NoEvent ? argAsTuple(Tr, Op, Key) : PyValue());
    Row.push_back(pyFloat(Tr.dur(K)));
    const OpTable *Ops = AM && Op != NoEvent ? &AM->get<OpTable>() : nullptr;
    const LauncherRow *LR = Ops ? Ops->launcherRow(Op) : nullptr;
    Row.push_back(pyFloat(LR ? busyTime(Tr, Ops->kernelsOf(*LR)) : Tr.dur(K)));
    if (G) {
      Row.push_back(pyText(G->Name));
      Row.push_back(pyInt(G->Id));
    } else {
      Row.push_back(PyValue());
      Row.push_back(PyValue());
    }
    Row.push_back(pyInt(int64_t(Tr.uid(K))));
    std::string Stack;
    StringRef Parent;
    if (Op != NoEvent)
      for (StringRef M : Tr.moduleStack(Op)) {
        if (!Stack.empty())
          Stack += ";";
        Stack += M.str();
        Parent = M;
      }
    Row.push_back(Stack.empty() ? PyValue() : pyText(Stack));
    Row.push_back(Parent.empty() ? PyValue() : pyText(Parent));
    Tab.addRow(std::move(Row));
  }
}

class DiffStatsEmitter : public Emitter {
public:
  StringRef name() const override { return "diff-stats"; }
  Error emit(const ReportContext &Ctx) override {
    const TraceDiff &D = Ctx.AM.get<TraceDiff>();
    if (!D.available())
      return Error::success();
    SmallString<256> Dir(Ctx.OutputDir);
    sys::path::append(Dir, "perf_report_csvs");
    if (std::error_code EC = sys::fs::create_directories(Dir))
      return createStringError(EC, "%s: %s", Dir.c_str(),
                               EC.message().c_str());
    return writeCsvTable(Dir, "diff_stats.csv", diffStatsTable(Ctx.T, Ctx.AM));
  }
};

class DiffMarkdownEmitter : public Emitter {
public:
  StringRef name() const override { return "diff-md"; }
  Error emit(const ReportContext &Ctx) override {
    if (!Ctx.AM.get<TraceDiff>().available())
      return Error::success();
    return writeFileAtomically(Ctx.OutputDir, "diff.md", [&](raw_ostream &OS) {
      writeDiffMarkdown(Ctx, OS);
    });
  }
};

} // namespace

CsvTable diffStatsTable(const Trace &T, AnalysisManager &AM) {
  CsvTable Tab({"name", "cpu_op_name", "cpu_op_uid", "source", "Input Dims",
                "Input Strides", "Input type", "Concrete Inputs",
                "kernel_time", "busy_time", "lowest_common_ancestor_name",
                "lowest_common_ancestor_id", "gpu_op_uid", "nn_module_stack",
                "nn_module_parent"});
  const TraceDiff &D = AM.get<TraceDiff>();
  if (!D.available())
    return Tab;
  AnalysisManager *RefAM = AM.options().ReferenceAM;
  for (const LcaGroup &G : D.groups()) {
    addRows(Tab, T, &AM, G.Kernels1, false, &G);
    addRows(Tab, *D.reference(), RefAM, G.Kernels2, true, &G);
  }
  // GPU events with no matched ancestor: null LCA, at the end.
  addRows(Tab, T, &AM, D.unmatched(false), false, nullptr);
  addRows(Tab, *D.reference(), RefAM, D.unmatched(true), true, nullptr);
  return Tab;
}

std::unique_ptr<Emitter> createDiffStatsEmitter() {
  return std::make_unique<DiffStatsEmitter>();
}
std::unique_ptr<Emitter> createDiffMarkdownEmitter() {
  return std::make_unique<DiffMarkdownEmitter>();
}

} // namespace tl
