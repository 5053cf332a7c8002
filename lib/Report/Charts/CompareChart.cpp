//===- CompareChart.cpp - compare_categories.svg: trace 1 vs trace 2 ------===//
//
// With --compare: per op category, paired horizontal bars of trace 1's and
// trace 2's kernel time (ops_summary_by_category of each side, joined
// case-insensitively, trace 1's order first — diff.md's "By op category"
// table), with the difference.
//
//===----------------------------------------------------------------------===//
#include "../Charts.h"
#include "../Compare/ComparativeMarkdown.h"
#include "../Html/MarkdownHtml.h"
#include "../ReportUtil.h"
#include "Palette.h"
#include "SvgWriter.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Report/ReportEmitters.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tl {

bool hasCompareChart(const ReportContext &Ctx) {
  return comparativeReport(Ctx);
}

void renderCompareSvg(raw_ostream &OS, const ReportContext &Ctx,
                      StringRef Title) {
  struct Cat {
    std::string Name;
    double Ms[2] = {0, 0};
  };
  std::vector<Cat> Cats;
  std::map<std::string, size_t> Index;
  AnalysisManager *Sides[] = {&Ctx.AM, Ctx.AM.options().ReferenceAM};
  for (unsigned S = 0; S < 2; ++S)
    for (const CategorySummaryRow &C : Sides[S]->get<OpTable>().byCategory()) {
      auto [It, New] = Index.insert({StringRef(C.Category).lower(), Cats.size()});
      if (New)
        Cats.push_back({C.Category});
      Cats[It->second].Ms[S] += C.DirectMs;
    }

  const StringRef Colors[] = {palette::categorical()[0],
                              palette::categorical()[1]};
  const StringRef Names[] = {"trace 1", "trace 2"};
  const int W = 1200, X0 = 260, BarMax = W - X0 - 260, BarH = 14,
            RowH = 2 * BarH + 14, Top = 60;
  int H = Top + int(std::max<size_t>(Cats.size(), 1)) * RowH + 60;
  svgBegin(OS, W, H, Title);
  svgHeading(OS, W, Title);
  double MaxMs = 0;
  for (const Cat &C : Cats)
    MaxMs = std::max({MaxMs, C.Ms[0], C.Ms[1]});
  if (Cats.empty() || MaxMs <= 0) {
    OS << "<text x=\"" << W / 2 << "\" y=\"" << Top + 20
       << "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">No op "
          "categories with kernel time</text>\n</svg>\n";
    return;
  }
  for (size_t I = 0; I < Cats.size(); ++I) {
    const Cat &C = Cats[I];
    int Y = Top + int(I) * RowH;
    OS << "<g class=\"category\" data-category=\"" << htmlText(C.Name)
       << "\">\n<text x=\"" << X0 - 8 << "\" y=\"" << Y + BarH + 4
       << "\" text-anchor=\"end\" font-size=\"12\">" << htmlText(C.Name)
       << "</text>\n";
    for (unsigned S = 0; S < 2; ++S) {
      int BY = Y + int(S) * BarH;
      double Wd = C.Ms[S] / MaxMs * BarMax;
      OS << "<rect class=\"side\" data-side=\"" << S + 1 << "\" x=\"" << X0
         << "\" y=\"" << BY << "\" width=\"" << svgNum(Wd) << "\" height=\""
         << BarH - 1 << "\" fill=\"" << Colors[S] << "\"><title>"
         << htmlText(C.Name) << ", " << Names[S] << ": "
         << fixed(C.Ms[S], 3) << " ms</title></rect>\n";
      OS << "<text x=\"" << svgNum(X0 + Wd + 6) << "\" y=\"" << BY + 11
         << "\" font-size=\"11\">" << fixed(C.Ms[S], 3) << " ms</text>\n";
    }
    double D = C.Ms[0] - C.Ms[1];
    OS << "<text class=\"diff\" x=\"" << X0 + BarMax + 80 << "\" y=\""
       << Y + BarH + 4 << "\" font-size=\"12\">" << (D >= 0 ? "+" : "")
       << fixed(D, 3) << " ms</text>\n</g>\n";
  }
  int Y = Top + int(Cats.size()) * RowH + 24, LX = X0;
  for (unsigned S = 0; S < 2; ++S) {
    OS << "<rect class=\"legend\" x=\"" << LX << "\" y=\"" << Y - 11
       << "\" width=\"14\" height=\"14\" fill=\"" << Colors[S] << "\"/>\n";
    OS << "<text x=\"" << LX + 20 << "\" y=\"" << Y << "\" font-size=\"12\">"
       << Names[S] << (S ? " (--compare)" : " (analyzed)") << "</text>\n";
    LX += 220;
  }
  OS << "<text x=\"" << LX << "\" y=\"" << Y << "\" font-size=\"12\">"
     << "difference = trace 1 − trace 2</text>\n</svg>\n";
}

} // namespace tl
