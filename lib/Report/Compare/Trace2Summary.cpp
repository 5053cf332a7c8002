//===- Trace2Summary.cpp - Reference trace utilization and categories ---===//
//
// tracelens-analysis §3.1, §10.1, §10.2: in comparative scope the manifest
// carries `trace2_gpu_utilization` (the reference's five GPU-timeline
// numbers) and `trace2_ops_summary_by_category` (its unified perf table
// grouped by normalized category key), and metadata/trace2_gpu_utilization.json
// repeats the utilization. The same numbers feed the trace 2 column of
// analysis.md's comparative layout.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Report/CompareEmitters.h"
#include "tl/Report/ReportModel.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace tl {

namespace {

void writeUtilizationMembers(json::OStream &J, const Utilization &U) {
  jsonNumAttr(J, "total_time_ms", U.TotalMs);
  jsonNumAttr(J, "computation_time_percent", U.ComputationPct);
  jsonNumAttr(J, "exposed_comm_time_percent", U.ExposedCommPct);
  jsonNumAttr(J, "exposed_memcpy_time_percent", U.ExposedMemcpyPct);
  jsonNumAttr(J, "idle_time_percent", U.IdlePct);
}

class Trace2MetadataEmitter final : public Emitter {
public:
  StringRef name() const override { return "trace2-metadata"; }
  Error emit(const ReportContext &Ctx) override {
    std::optional<Trace2Summary> S = trace2Summary(Ctx);
    if (!S)
      return Error::success();
    return writeFileAtomically(Ctx.OutputDir,
                               "metadata/trace2_gpu_utilization.json",
                               [&](raw_ostream &OS) {
                                 json::OStream J(OS, 2);
                                 J.object([&] {
                                   writeUtilizationMembers(J, S->Util);
                                 });
                               });
  }
};

} // namespace

std::optional<Trace2Summary> trace2Summary(const ReportContext &Ctx) {
  AnalysisManager *RefAM = Ctx.AM.options().ReferenceAM;
  if (!Ctx.AM.options().Reference || !RefAM)
    return std::nullopt;
  Trace2Summary S;
  const GpuTimeline &TL = RefAM->get<GpuTimeline>();
  if (TL.hasGpuEvents() && TL.totalTime() > 0) {
    S.Util.Available = true;
    S.Util.TotalMs = TL.totalTime() / 1000;
    S.Util.ComputationPct = TL.percent(TL.computationTime());
    S.Util.ExposedCommPct = TL.percent(TL.exposedCommTime());
    S.Util.ExposedMemcpyPct = TL.percent(TL.exposedMemcpyTime());
    S.Util.IdlePct = TL.percent(TL.idleTime());
  }
  // §10.2: group the unified rows by normalized key (pandas groupby sums
  // in row order), sort by time desc, shares and their running sum.
  StringMap<size_t> Index;
  for (const UnifiedPerfRow &R : RefAM->get<UnifiedPerfTable>().rows()) {
    std::string Key = categoryKey(R.Category);
    auto [It, New] = Index.try_emplace(Key, S.Categories.size());
    if (New)
      S.Categories.push_back({Key, 0, 0, 0, 0});
    Trace2CategoryRow &C = S.Categories[It->second];
    C.Count += R.OperationCount;
    C.TimeMs += R.KernelTimeUs.Sum.value_or(0) / 1000;
  }
  // groupby sorts the keys; sort_values then orders by time.
  llvm::sort(S.Categories, [](const Trace2CategoryRow &A,
                              const Trace2CategoryRow &B) {
    return A.Key < B.Key;
  });
  llvm::stable_sort(S.Categories, [](const Trace2CategoryRow &A,
                                     const Trace2CategoryRow &B) {
    return A.TimeMs > B.TimeMs;
  });
  double Total = 0;
  for (const Trace2CategoryRow &C : S.Categories)
    Total += C.TimeMs;
  double Cum = 0;
  for (Trace2CategoryRow &C : S.Categories) {
    C.Pct = Total > 0 ? C.TimeMs / Total * 100 : 0;
    Cum += C.Pct;
    C.CumPct = Cum;
  }
  return S;
}

void writeTrace2ManifestMembers(json::OStream &J, const ReportContext &Ctx) {
  std::optional<Trace2Summary> S = trace2Summary(Ctx);
  if (!S)
    return;
  J.attributeObject("trace2_gpu_utilization",
                    [&] { writeUtilizationMembers(J, S->Util); });
  // The reference rounds the table to 10 decimals (§10.2).
  J.attributeArray("trace2_ops_summary_by_category", [&] {
    for (const Trace2CategoryRow &C : S->Categories)
      J.object([&] {
        J.attribute("op category", C.Key);
        J.attribute("Count", static_cast<int64_t>(C.Count));
        jsonNumAttr(J, "total_direct_kernel_time_ms", pyRound(C.TimeMs, 10));
        jsonNumAttr(J, "Percentage (%)", pyRound(C.Pct, 10));
        jsonNumAttr(J, "Cumulative Percentage (%)", pyRound(C.CumPct, 10));
      });
  });
}

StringRef comparisonScope(const ReportContext &Ctx) {
  return Ctx.AM.options().Reference ? "comparative" : "standalone";
}

std::unique_ptr<Emitter> createTrace2MetadataEmitter() {
  return std::make_unique<Trace2MetadataEmitter>();
}

} // namespace tl
