//===- DiffMarkdown.cpp - diff.md: what changed against the reference -----===//
//
// The diff view of comparative mode. Every number is a sum of GPU event
// durations of one side. "Change" is trace - reference (positive: the
// analyzed trace is slower), the opposite sign of TraceLens's
// `delta_us (trace2 - trace1)`; docs/Comparative.md explains both.
//
//===----------------------------------------------------------------------===//
#include "../ReportUtil.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/OpTable.h"
#include "tl/IR/Trace.h"
#include "tl/Report/CompareEmitters.h"
#include "tl/Support/RelativePath.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <fmt/format.h>

using namespace llvm;

namespace tl {

namespace {

constexpr size_t MaxRows = 25;

std::string us(double V) { return fmt::format("{:.3f}", V); }
std::string signedUs(double V) { return fmt::format("{:+.3f}", V); }

/// Markdown cell: no pipes or newlines, long kernel names shortened.
std::string cell(StringRef S) {
  std::string Out;
  for (char C : S.take_front(120))
    Out += C == '|' ? '/' : (C == '\n' ? ' ' : C);
  if (S.size() > 120)
    Out += "...";
  return Out;
}

std::string pct(double Num, double Den) {
  if (Den == 0)
    return "n/a";
  return fmt::format("{:+.1f}%", 100.0 * Num / Den);
}

enum class Change { Slower, Faster, Same, Appeared, Disappeared };

Change classify(const LcaGroup &G) {
  if (G.Kernels2.empty())
    return Change::Appeared;
  if (G.Kernels1.empty())
    return Change::Disappeared;
  if (G.Time1Us > G.Time2Us)
    return Change::Slower;
  if (G.Time1Us < G.Time2Us)
    return Change::Faster;
  return Change::Same;
}

void groupTable(raw_ostream &OS, std::vector<const LcaGroup *> Gs) {
  std::stable_sort(Gs.begin(), Gs.end(),
                   [](const LcaGroup *A, const LcaGroup *B) {
                     return std::fabs(A->Time1Us - A->Time2Us) >
                            std::fabs(B->Time1Us - B->Time2Us);
                   });
  OS << "| LCA id | Op | Kernels (trace / ref) | Trace (us) | Reference (us) "
        "| Change (us) | Trace / Reference |\n"
        "|---|---|---|---|---|---|---|\n";
  for (size_t I = 0; I < Gs.size() && I < MaxRows; ++I) {
    const LcaGroup &G = *Gs[I];
    OS << "| " << G.Id << " | " << cell(G.Name) << " | " << G.Kernels1.size()
       << " / " << G.Kernels2.size() << " | " << us(G.Time1Us) << " | "
       << us(G.Time2Us) << " | " << signedUs(G.Time1Us - G.Time2Us) << " | "
       << (G.Time2Us > 0 ? fmt::format("{:.3f}", G.Time1Us / G.Time2Us)
                         : std::string("n/a"))
       << " |\n";
  }
  if (Gs.size() > MaxRows)
    OS << "\n(" << Gs.size() - MaxRows << " more)\n";
  OS << "\n";
}

} // namespace

void writeDiffMarkdown(const ReportContext &Ctx, raw_ostream &OS) {
  const TraceDiff &D = Ctx.AM.get<TraceDiff>();
  const Trace &R = *D.reference();
  double T1 = D.totalTimeUs(false), T2 = D.totalTimeUs(true);
  OS << "# Trace diff\n\n";
  OS << "Trace `" << reportTracePath(Ctx) << "` against reference `"
     << relativePath(R.sourcePath(), Ctx.reportDir()) << "`. Ops are matched by their lowest common "
     << "ancestor (LCA) in the merged call trees; times are summed GPU "
     << "event durations; Change = trace - reference (positive: the trace "
     << "is slower).\n\n";
  if (!D.frameworkWarning().empty())
    OS << "> **Warning:** " << D.frameworkWarning() << ".\n\n";
  OS << "| | Trace | Reference | Change |\n|---|---|---|---|\n";
  OS << "| Device | " << cell(D.device(false).empty() ? "unknown"
                                                        : D.device(false))
     << " | " << cell(D.device(true).empty() ? "unknown" : D.device(true))
     << " | — |\n";
  OS << "| GPU events | " << D.numKernels(false) << " | " << D.numKernels(true)
     << " | "
     << fmt::format("{:+d}", int64_t(D.numKernels(false)) -
                                 int64_t(D.numKernels(true)))
     << " |\n";
  OS << "| GPU event time (us) | " << us(T1) << " | " << us(T2) << " | "
     << signedUs(T1 - T2) << " (" << pct(T1 - T2, T2) << ") |\n\n";

  // Summary by kind of change.
  std::vector<const LcaGroup *> ByChange[5];
  for (const LcaGroup &G : D.groups())
    ByChange[int(classify(G))].push_back(&G);
  static const char *const Labels[5] = {
      "slower in trace", "faster in trace", "unchanged",
      "only in trace (appeared)", "only in reference (disappeared)"};
  OS << "## Summary\n\n| Change | LCA groups | Trace (us) | Reference (us) | "
        "Change (us) |\n|---|---|---|---|---|\n";
  for (int C = 0; C < 5; ++C) {
    double A = 0, B = 0;
    for (const LcaGroup *G : ByChange[C])
      A += G->Time1Us, B += G->Time2Us;
    OS << "| " << Labels[C] << " | " << ByChange[C].size() << " | " << us(A)
       << " | " << us(B) << " | " << signedUs(A - B) << " |\n";
  }
  double U1 = 0, U2 = 0;
  for (EventId E : D.unmatched(false))
    U1 += Ctx.T.dur(E);
  for (EventId E : D.unmatched(true))
    U2 += R.dur(E);
  OS << "| no matched ancestor | " << D.unmatched(false).size() << " / "
     << D.unmatched(true).size() << " events | " << us(U1) << " | " << us(U2)
     << " | " << signedUs(U1 - U2) << " |\n\n";

  // Per op category (ops_summary_by_category of each side: kernel time of
  // the launching ops), joined case-insensitively, trace's order first.
  if (AnalysisManager *RefAM = Ctx.AM.options().ReferenceAM) {
    struct Cat {
      std::string Name;
      double Ms1 = 0, Ms2 = 0;
      uint64_t N1 = 0, N2 = 0;
    };
    std::vector<Cat> Cats;
    std::map<std::string, size_t> Index;
    auto Add = [&](ArrayRef<CategorySummaryRow> Rows, bool InRef) {
      for (const CategorySummaryRow &C : Rows) {
        std::string Key = StringRef(C.Category).lower();
        auto [It, New] = Index.insert({Key, Cats.size()});
        if (New)
          Cats.push_back({C.Category});
        Cat &X = Cats[It->second];
        (InRef ? X.Ms2 : X.Ms1) += C.DirectMs;
        (InRef ? X.N2 : X.N1) += C.Count;
      }
    };
    Add(Ctx.AM.get<OpTable>().byCategory(), false);
    Add(RefAM->get<OpTable>().byCategory(), true);
    OS << "## By op category\n\n| Category | Trace (ms) | Reference (ms) | "
          "Change (ms) | Change (%) | Ops (trace / ref) |\n"
          "|---|---|---|---|---|---|\n";
    for (const Cat &C : Cats)
      OS << "| " << cell(C.Name) << " | " << fmt::format("{:.3f}", C.Ms1)
         << " | " << fmt::format("{:.3f}", C.Ms2) << " | "
         << fmt::format("{:+.3f}", C.Ms1 - C.Ms2) << " | "
         << pct(C.Ms1 - C.Ms2, C.Ms2) << " | " << C.N1 << " / " << C.N2
         << " |\n";
    OS << "\n";
  }

  OS << "## Slower in trace\n\n";
  groupTable(OS, ByChange[int(Change::Slower)]);
  OS << "## Faster in trace\n\n";
  groupTable(OS, ByChange[int(Change::Faster)]);
  OS << "## Kernels only in trace (appeared)\n\n";
  groupTable(OS, ByChange[int(Change::Appeared)]);
  OS << "## Kernels only in reference (disappeared)\n\n";
  groupTable(OS, ByChange[int(Change::Disappeared)]);

  for (bool InRef : {false, true}) {
    OS << (InRef ? "## Ops only in reference (missing from trace)\n\n"
                 : "## Ops only in trace (new)\n\n");
    OS << "| Op | Under LCA id | GPU events | GPU time (us) |\n"
          "|---|---|---|---|\n";
    size_t N = 0, Total = 0;
    for (const OneSidedOp &O : D.oneSidedOps()) {
      if (O.InReference != InRef)
        continue;
      if (N++ < MaxRows)
        OS << "| " << cell(O.Name) << " | " << O.LcaId << " | "
           << O.NumKernels << " | " << us(O.KernelTimeUs) << " |\n";
      ++Total;
    }
    if (Total > MaxRows)
      OS << "\n(" << Total - MaxRows << " more)\n";
    OS << "\n";
  }

  OS << "## Kernel names\n\n| Kernel | Count (trace / ref) | Trace (us) | "
        "Reference (us) | Change (us) |\n|---|---|---|---|---|\n";
  std::vector<const KernelNameDiff *> Ks;
  for (const KernelNameDiff &K : D.kernelNames())
    Ks.push_back(&K);
  std::stable_sort(Ks.begin(), Ks.end(),
                   [](const KernelNameDiff *A, const KernelNameDiff *B) {
                     return std::fabs(A->Time1Us - A->Time2Us) >
                            std::fabs(B->Time1Us - B->Time2Us);
                   });
  size_t Only1 = 0, Only2 = 0;
  for (const KernelNameDiff *K : Ks)
    Only1 += K->Count2 == 0, Only2 += K->Count1 == 0;
  for (size_t I = 0; I < Ks.size() && I < MaxRows; ++I)
    OS << "| " << cell(Ks[I]->Name) << " | " << Ks[I]->Count1 << " / "
       << Ks[I]->Count2 << " | " << us(Ks[I]->Time1Us) << " | "
       << us(Ks[I]->Time2Us) << " | "
       << signedUs(Ks[I]->Time1Us - Ks[I]->Time2Us) << " |\n";
  if (Ks.size() > MaxRows)
    OS << "\n(" << Ks.size() - MaxRows << " more)\n";
  OS << "\n" << Ks.size() << " kernel name(s): " << Only1
     << " only in trace, " << Only2 << " only in reference.\n";
}

} // namespace tl
