//===- ComparativeMarkdown.cpp - analysis.md blocks of comparative mode ---===//
//
// tracelens-analysis §10.3. Trace 1 is the analyzed trace, trace 2 the
// --compare reference; every Difference is T2 - T1 as in the reference's
// template (positive: trace 2 takes longer). Trace 2's numbers come from
// Trace2Summary (its GPU timeline and unified perf table), trace 1's from
// the ReportModel, so the tables agree with category_manifest.json.
//
//===----------------------------------------------------------------------===//
#include "ComparativeMarkdown.h"

#include "../Prose.h"
#include "../ReportUtil.h"
#include "../TopOpsMarkdown.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/ArchSpec.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Report/CompareEmitters.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <fmt/format.h>

using namespace llvm;

namespace tl {

namespace {

/// Platform label of one side: trace 1 uses --arch when given; otherwise
/// (and always for trace 2) the shipped arch matching the recorded device,
/// else the device name.
std::string platformOf(const ReportContext &Ctx, bool Reference) {
  if (!Reference && Ctx.AM.options().Arch)
    return Ctx.AM.options().Arch->Name;
  const Trace *T = Reference ? Ctx.AM.options().Reference : &Ctx.T;
  std::optional<std::string> Dev = T ? traceDeviceName(*T) : std::nullopt;
  if (!Dev)
    return Reference ? "Trace 2" : "Trace 1";
  if (std::optional<std::string> A = archNameForDevice(*Dev))
    return *A;
  return *Dev;
}

std::string signedFixed(double V, int N) {
  // No "-0.000": a difference that rounds to zero prints unsigned.
  if (std::fabs(V) < 0.5 * std::pow(10.0, -N))
    return fmt::format("{:.{}f}", 0.0, N);
  return fmt::format("{:+.{}f}", V, N);
}

/// Category share of a trace's computation time (§9 item 2).
std::optional<double> shareOfCompute(const Utilization &U, double Ms) {
  double Comp = U.computationMs();
  if (Comp <= 0)
    return std::nullopt;
  return Ms / Comp * 100;
}

const Trace2CategoryRow *trace2Category(const Trace2Summary &S,
                                        StringRef Key) {
  for (const Trace2CategoryRow &C : S.Categories)
    if (StringRef(C.Key).equals_insensitive(Key))
      return &C;
  return nullptr;
}

} // namespace

bool comparativeReport(const ReportContext &Ctx) {
  return Ctx.AM.options().Reference && Ctx.AM.options().ReferenceAM;
}

void renderComparativeTitle(raw_ostream &OS, const ReportContext &Ctx,
                            StringRef Model) {
  OS << "# " << Model << " - Comparative Analysis: " << platformOf(Ctx, false)
     << " vs " << platformOf(Ctx, true) << "\n\n";
}

void renderComparativeSummaryTable(raw_ostream &OS, const ReportContext &Ctx,
                                   const ReportModel &M) {
  std::optional<Trace2Summary> S = trace2Summary(Ctx);
  if (!S)
    return;
  const Utilization &U1 = M.utilization(), &U2 = S->Util;
  std::string P1 = platformOf(Ctx, false), P2 = platformOf(Ctx, true);

  // The paragraph: which trace is faster, by how much, the largest
  // per-category gaps (templated; an LLM may rewrite it via the hook).
  std::string Text;
  raw_string_ostream TS(Text);
  double Diff = U2.TotalMs - U1.TotalMs;
  if (U1.TotalMs > 0 && U2.TotalMs > 0) {
    bool T1Faster = Diff > 0;
    double Pct = std::fabs(Diff) / (T1Faster ? U2.TotalMs : U1.TotalMs) * 100;
    TS << "Trace 1 (" << P1 << ") takes " << fixed(U1.TotalMs, 3)
       << " ms end to end and trace 2 (" << P2 << ") "
       << fixed(U2.TotalMs, 3) << " ms: ";
    if (Diff == 0)
      TS << "the two take the same time.";
    else
      TS << (T1Faster ? "trace 1" : "trace 2") << " is " << fixed(Pct, 1)
         << "% faster (" << fixed(std::fabs(Diff), 3) << " ms).";
  }
  // Per-category kernel-time gaps, largest first.
  struct Gap {
    std::string Name;
    double DiffMs;
  };
  std::vector<Gap> Gaps;
  for (const CategoryInfo &C : M.categories()) {
    const Trace2CategoryRow *R = trace2Category(*S, C.Key);
    Gaps.push_back({C.DisplayName, (R ? R->TimeMs : 0) - C.GpuKernelTimeMs});
  }
  for (const Trace2CategoryRow &R : S->Categories)
    if (!M.category(R.Key))
      Gaps.push_back({R.Key, R.TimeMs});
  llvm::stable_sort(Gaps, [](const Gap &A, const Gap &B) {
    return std::fabs(A.DiffMs) > std::fabs(B.DiffMs);
  });
  if (!Gaps.empty() && Gaps.front().DiffMs != 0) {
    TS << " Largest kernel-time gaps by category (trace 2 - trace 1): ";
    for (size_t I = 0; I < Gaps.size() && I < 3; ++I)
      TS << (I ? ", " : "") << Gaps[I].Name << " "
         << signedFixed(Gaps[I].DiffMs, 3) << " ms";
    TS << ".";
  }
  OS << proseHook("report", "executive-summary", Text) << "\n\n";

  OS << "| Metric | Trace 1 - (" << P1 << ") | Trace 2 - (" << P2
     << ") | Difference |\n|---|---|---|---|\n";
  OS << "| Total Time | " << fixed(U1.TotalMs, 3) << " ms | "
     << fixed(U2.TotalMs, 3) << " ms | " << signedFixed(Diff, 3) << " ms";
  if (U1.TotalMs > 0)
    OS << " (" << signedFixed(Diff / U1.TotalMs * 100, 1) << "%)";
  OS << " |\n";
  auto PctRow = [&](StringRef Label, double A, double B) {
    OS << "| " << Label << " | " << fixed(A, 2) << "% | " << fixed(B, 2)
       << "% | " << signedFixed(B - A, 2) << "% |\n";
  };
  PctRow("Compute %", U1.ComputationPct, U2.ComputationPct);
  PctRow("Idle %", U1.IdlePct, U2.IdlePct);
  PctRow("Exposed Communication %", U1.ExposedCommPct, U2.ExposedCommPct);
  OS << "| Top Bottleneck Category | ";
  if (const CategoryInfo *C = M.topBottleneck()) {
    OS << C->DisplayName;
    if (auto V = shareOfCompute(U1, C->GpuKernelTimeMs))
      OS << " (" << fixed(*V, 1) << "%)";
  } else {
    OS << "None";
  }
  OS << " | ";
  if (!S->Categories.empty()) {
    const Trace2CategoryRow &T2 = S->Categories.front();
    OS << M.displayName(T2.Key);
    if (auto V = shareOfCompute(U2, T2.TimeMs))
      OS << " (" << fixed(*V, 1) << "%)";
  } else {
    OS << "None";
  }
  OS << " | — |\n\n";
}

void renderComparativeTopOps(raw_ostream &OS, const ReportContext &Ctx,
                             const ReportModel &M) {
  std::optional<Trace2Summary> S = trace2Summary(Ctx);
  OS << "<!-- impact-begin kind=top_ops -->\n";
  OS << "| Rank | Category | Trace 1 Time (ms) | Trace 2 Time (ms) | "
     << TopOpsShareColumn << " | Ops | Difference (ms) |\n";
  OS << "|------|----------|-------------------|-------------------|--------"
        "----------|-----|-----------------|\n";
  for (const Priority &P : M.priorities()) {
    const CategoryInfo *C = M.category(P.Category);
    double Ms = C ? C->GpuKernelTimeMs : P.GpuKernelTimeMs.value_or(0);
    auto Share = M.percentOfKernelTime(Ms);
    const Trace2CategoryRow *R = S ? trace2Category(*S, P.Category) : nullptr;
    OS << "| " << P.Rank << " | " << P.DisplayName << " | " << fixed(Ms, 3)
       << " | " << (R ? fixed(R->TimeMs, 3) : "—") << " | "
       << (Share ? fixed(*Share, 1) : "—") << " | " << (C ? C->OpsCount : 0)
       << " | " << (R ? signedFixed(R->TimeMs - Ms, 3) : "—")
       << " | <!-- top-ops-row low=" << score(P.Low)
       << " high=" << score(P.High) << " -->\n";
  }
  OS << "<!-- impact-end -->\n\n";
  renderTopOpsShareNote(OS, M); // trace 1's kernel time
}

void renderComparativeFusionNote(raw_ostream &OS) {
  OS << "Kernel fusion analysis is experimental. Candidates are ops where "
        "trace 1 runs more kernels than trace 2 at the same matched ops; "
        "savings are the measured time gap to trace 2.\n\n";
}

void renderComparativeSystemNote(raw_ostream &OS, const ReportContext &Ctx) {
  OS << "System analysis covers Trace 1 (" << platformOf(Ctx, false)
     << ") only.\n\n";
}

} // namespace tl
