//===- TopKernelsChart.cpp - top_kernels.svg: where the kernel time goes --===//
//
// Horizontal bars of the ten kernels (by name, over every stream and
// launching op) with the most total time, from the kernel summary; each
// labelled with its short name (full name in the tooltip), its time and
// its share of the total kernel time.
//
//===----------------------------------------------------------------------===//
#include "../Charts.h"
#include "../Html/MarkdownHtml.h"
#include "../ReportUtil.h"
#include "Palette.h"
#include "SvgWriter.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/KernelSummary.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Support/KernelName.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace tl {

void renderTopKernelsSvg(raw_ostream &OS, const ReportContext &Ctx,
                         StringRef Title) {
  constexpr size_t TopN = 10;
  struct Kernel {
    std::string Name;
    double Us = 0, Pct = 0;
    uint64_t Count = 0;
  };
  std::vector<Kernel> Ks;
  StringMap<size_t> Index;
  for (const KernelGroupRow &G : Ctx.AM.get<KernelSummary>().groups()) {
    auto [It, New] = Index.try_emplace(G.KernelName, Ks.size());
    if (New)
      Ks.push_back({G.KernelName});
    Kernel &K = Ks[It->second];
    K.Us += G.SumUs;
    K.Pct += G.PercentOfKernels;
    K.Count += G.Count;
  }
  // Ties keep the summary's order (first seen).
  std::stable_sort(Ks.begin(), Ks.end(), [](const Kernel &A, const Kernel &B) {
    return A.Us > B.Us;
  });
  size_t Hidden = Ks.size() > TopN ? Ks.size() - TopN : 0;
  Ks.resize(std::min(Ks.size(), TopN));

  const int W = 1200, LabelW = 520, X0 = LabelW + 20, BarMax = W - X0 - 200,
            RowH = 26, Top = 60;
  int H = Top + int(std::max<size_t>(Ks.size(), 1)) * RowH + 50;
  svgBegin(OS, W, H, Title);
  svgHeading(OS, W, Title);
  if (Ks.empty()) {
    OS << "<text x=\"" << W / 2 << "\" y=\"" << Top + 20
       << "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">No "
          "kernels in this trace</text>\n</svg>\n";
    return;
  }
  double MaxUs = std::max(Ks.front().Us, 1e-12);
  for (size_t I = 0; I < Ks.size(); ++I) {
    const Kernel &K = Ks[I];
    int Y = Top + int(I) * RowH;
    double Wd = K.Us / MaxUs * BarMax;
    OS << "<g class=\"kernel\" data-rank=\"" << I + 1 << "\">";
    OS << "<title>" << htmlText(K.Name) << ": " << fixed(K.Us / 1000, 3)
       << " ms in " << K.Count << " launch(es), " << fixed(K.Pct, 1)
       << "% of kernel time</title>";
    OS << "<text x=\"" << LabelW << "\" y=\"" << Y + 16
       << "\" text-anchor=\"end\" font-size=\"12\">"
       << htmlText(shortKernelName(K.Name, 70)) << "</text>";
    OS << "<rect x=\"" << X0 << "\" y=\"" << Y + 3 << "\" width=\""
       << svgNum(Wd) << "\" height=\"" << RowH - 6 << "\" fill=\""
       << palette::categorical()[0] << "\"/>";
    OS << "<text class=\"value\" x=\"" << svgNum(X0 + Wd + 6) << "\" y=\""
       << Y + 16 << "\" font-size=\"12\">" << fixed(K.Us / 1000, 3)
       << " ms (" << fixed(K.Pct, 1) << "%)</text></g>\n";
  }
  int Y = Top + int(Ks.size()) * RowH + 24;
  OS << "<text x=\"" << X0 << "\" y=\"" << Y << "\" font-size=\"11\" "
     << "fill=\"#555\">Total time per kernel name, % of all kernel time";
  if (Hidden)
    OS << "; " << Hidden << " more kernel(s) not shown";
  OS << "</text>\n</svg>\n";
}

} // namespace tl
