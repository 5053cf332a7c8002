//===- PathMemoryMarkdown.cpp - analysis.md's critical path / memory block ===//
//
// One delimited block of analysis.md's appendix: the critical path summed
// over the analysed windows (time by category, top ops on the path) and,
// per GPU device, the allocator's peak with what was live at it.
//
//===----------------------------------------------------------------------===//
#include "PathMemoryMarkdown.h"
#include "Charts.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CriticalPath.h"
#include "tl/Analysis/MemoryTimeline.h"
#include "tl/IR/Trace.h"
#include "tl/Report/Emitter.h"
#include "tl/Support/Markdown.h"
#include "tl/Support/NumberFormat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace tl {

namespace {
std::string ms(double Us) { return printfDouble("%.3f", Us / 1000); }
std::string pct(double V, double Of) {
  return printfDouble("%.1f", Of > 0 ? V / Of * 100 : 0);
}
std::string mib(int64_t B) {
  return printfDouble("%.1f", double(B) / double(1 << 20));
}
} // namespace

void renderPathMemoryMarkdown(raw_ostream &OS, const ReportContext &Ctx) {
  const Trace &T = Ctx.T;
  const CriticalPath &CP = Ctx.AM.get<CriticalPath>();
  const MemoryTimeline &MT = Ctx.AM.get<MemoryTimeline>();
  OS << "<!-- tl:critical-path-memory -->\n";
  OS << "### Critical Path and GPU Memory\n\n";
  ArrayRef<CpWindow> Ws = CP.windows();
  if (Ws.empty()) {
    OS << "No critical path: the trace has no host or GPU events.\n\n";
  } else {
    double Total = 0;
    for (const CpWindow &W : Ws)
      Total += W.length();
    OS << "The chain of dependent work that set the wall time of "
       << (Ws.front().StepEvent == NoEvent
               ? std::string("the trace")
               : std::to_string(Ws.size()) + " profiler step(s)")
       << " (" << ms(Total)
       << " ms; `critical_path.json` has every segment). Shortening work "
          "off this path does not shorten the step.\n\n";
    if (!CP.hasSyncEvents() && !T.gpuEvents().empty())
      OS << "No cuda_sync events: cross-stream waits are not visible and "
            "GPU-to-host waits are inferred.\n\n";
    OS << "| Category | Time (ms) | % of path |\n|---|---|---|\n";
    auto Sum = CP.totalByCategory();
    for (unsigned I = 0; I < NumCpCategories; ++I)
      if (Sum[I] > 0)
        OS << "| " << cpCategoryName(CpCategory(I)) << " | " << ms(Sum[I])
           << " | " << pct(Sum[I], Total) << " |\n";
    double Cpu = 0, Gpu = 0, Over = 0;
    for (unsigned I = 0; I < NumCpCategories; ++I) {
      Cpu += isCpuBound(CpCategory(I)) ? Sum[I] : 0;
      Gpu += isGpuBound(CpCategory(I)) ? Sum[I] : 0;
      Over += isCpOverhead(CpCategory(I)) ? Sum[I] : 0;
    }
    OS << "\nCPU-bound " << pct(Cpu, Total) << " %, GPU-bound "
       << pct(Gpu, Total) << " %, overhead (launch latency, gaps, syncs) "
       << pct(Over, Total) << " %.\n\n";
    // Top ops over every window.
    std::vector<std::pair<std::string, double>> Ops;
    StringMap<size_t> ByName;
    for (const CpWindow &W : Ws)
      for (const CpOpShare &O : W.Ops) {
        std::string N =
            O.TopOp == NoEvent ? "(untraced)" : T.name(O.TopOp).str();
        auto [It, New] = ByName.try_emplace(N, Ops.size());
        if (New)
          Ops.push_back({N, 0});
        Ops[It->second].second += O.CriticalUs;
      }
    std::stable_sort(Ops.begin(), Ops.end(), [](const auto &A, const auto &B) {
      return A.second > B.second;
    });
    OS << "| Top op on the path | Critical time (ms) | % of path |\n"
          "|---|---|---|\n";
    for (size_t I = 0; I < Ops.size() && I < 5; ++I)
      OS << "| " << mdCode(Ops[I].first, /*InTable=*/true) << " | "
         << ms(Ops[I].second) << " | "
         << pct(Ops[I].second, Total) << " |\n";
    OS << "\n![Critical path per step](critical_path.svg)\n\n";
  }
  bool AnyGpu = false;
  for (const MemDevice &D : MT.devices()) {
    if (!D.isGpu())
      continue;
    AnyGpu = true;
    const MemPoint &Pk = D.peak();
    OS << "**GPU memory, " << mdEscape(D.Name) << "**: peak allocated "
       << mib(D.PeakAllocated) << " MiB";
    if (auto P = D.peakAllocatedPct())
      OS << " (" << printfDouble("%.1f", *P) << " % of device memory)";
    OS << ", reached by a " << mib(Pk.Bytes) << " MiB allocation in "
       << mdCode(Pk.Owner.Display);
    if (Pk.Owner.Step >= 0)
      OS << " (step " << Pk.Owner.Step << ")";
    OS << ".";
    if (D.PeakReserved)
      OS << " Reserved peak " << mib(*D.PeakReserved) << " MiB";
    if (D.CachedAtPeak)
      OS << "; reserved but unused at the peak " << mib(*D.CachedAtPeak)
         << " MiB";
    OS << ". Live at the peak:";
    unsigned N = 0;
    for (const MemLiveOwner &O : D.LiveAtPeak) {
      if (O.Kind != "top_op" || N == 3)
        continue;
      OS << (N++ ? ", " : " ") << mdCode(O.Owner) << " " << mib(O.Bytes)
         << " MiB";
    }
    OS << ".\n\n";
  }
  if (AnyGpu)
    OS << "![GPU memory](memory.svg)\n\n";
  else
    OS << "No GPU allocator events (`[memory]`, recorded with "
          "`profile_memory=True`).\n\n";
  OS << "<!-- /tl:critical-path-memory -->\n";
}

} // namespace tl
