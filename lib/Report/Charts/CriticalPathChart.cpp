//===- CriticalPathChart.cpp - critical_path.svg: the path of every step --===//
//
// One stacked bar per window of the CriticalPath analysis (a profiler step,
// or the whole trace without steps): its length split by the segments'
// categories (critical-path.md §6.5), grouped as the issue asks: kernels
// (gpu_*), host ops (cpu_*, host_untraced, data_loading), the launch gap
// (launch_latency) and waiting (gpu_gap, gpu_sync_gap, sync_return). The
// bars share one scale, so a long step is a long bar; the total at the end
// is the path's length, with the CPU-bound / GPU-bound / overhead shares.
//
//===----------------------------------------------------------------------===//
#include "../Charts.h"
#include "../ReportUtil.h"
#include "Palette.h"
#include "StackedBars.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CriticalPath.h"
#include "tl/Report/ReportEmitters.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

namespace {

/// The group a category belongs to in the chart's legend.
StringRef groupOf(CpCategory C) {
  if (isGpuBound(C))
    return "kernel";
  if (isCpuBound(C))
    return "op";
  if (C == CpCategory::LaunchLatency)
    return "launch gap";
  return "idle";
}

/// One colour per category, the families next to each other.
StringRef colorOf(CpCategory C) {
  ArrayRef<StringLiteral> P = palette::categorical();
  switch (C) {
  case CpCategory::GpuCompute:
    return palette::Computation;
  case CpCategory::GpuComm:
    return palette::Communication;
  case CpCategory::GpuMemcpy:
    return palette::Memcpy;
  case CpCategory::GpuMemset:
    return P[4];
  case CpCategory::CpuOp:
    return P[1];
  case CpCategory::CpuRuntime:
    return P[5];
  case CpCategory::CpuSyncCall:
    return P[3];
  case CpCategory::HostUntraced:
    return P[10];
  case CpCategory::DataLoading:
    return P[7];
  case CpCategory::LaunchLatency:
    return P[6];
  case CpCategory::GpuGap:
    return palette::NonComputing;
  case CpCategory::GpuSyncGap:
    return P[9];
  case CpCategory::SyncReturn:
    return P[11];
  }
  return palette::Other;
}

} // namespace

bool hasCriticalPathChart(const ReportContext &Ctx) {
  return !Ctx.AM.get<CriticalPath>().windows().empty();
}

void renderCriticalPathSvg(raw_ostream &OS, const ReportContext &Ctx,
                           StringRef Title) {
  const CriticalPath &CP = Ctx.AM.get<CriticalPath>();
  StackedBarsChart C;
  C.Title = Title.str();
  C.RowKind = "step";
  C.Empty = "No critical path: the trace has no host or GPU events";
  for (unsigned I = 0; I < NumCpCategories; ++I) {
    CpCategory Cat = CpCategory(I);
    C.Series.push_back({cpCategoryName(Cat).str(),
                        (groupOf(Cat) + ": " + cpCategoryName(Cat)).str(),
                        colorOf(Cat)});
  }
  for (const CpWindow &W : CP.windows()) {
    StackedRow R;
    if (W.StepEvent == NoEvent) {
      R.Id = "trace";
      R.Label = "whole trace";
    } else {
      R.Id = W.Step >= 0 ? std::to_string(W.Step) : "?";
      R.Label = "ProfilerStep#" + R.Id;
    }
    R.Us.assign(W.ByCategory.begin(), W.ByCategory.end());
    double L = W.length();
    auto Pct = [&](double Us) { return fixed(L > 0 ? Us / L * 100 : 0, 1); };
    R.Note = "(CPU " + Pct(W.cpuBoundUs()) + " %, GPU " + Pct(W.gpuBoundUs()) +
             " %, overhead " + Pct(W.overheadUs()) + " %" +
             (W.ReachedStart ? ")" : "; walk stopped early)");
    C.Rows.push_back(std::move(R));
  }
  C.Caption = "Critical path per step (critical_path.json): its length and "
              "the time of each category on it; work off the path does not "
              "shorten the step";
  renderStackedBars(OS, C);
}

} // namespace tl
