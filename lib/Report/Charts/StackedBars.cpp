//===- StackedBars.cpp - Horizontal stacked bars, one row per item --------===//
#include "StackedBars.h"
#include "../Html/MarkdownHtml.h"
#include "../ReportUtil.h"
#include "Palette.h"
#include "SvgWriter.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace tl {

double StackedRow::total() const {
  double S = 0;
  for (double V : Us)
    S += std::max(0.0, V);
  return S;
}

void renderStackedBars(raw_ostream &OS, const StackedBarsChart &C,
                       size_t MaxRows) {
  size_t N = std::min(C.Rows.size(), MaxRows);
  // Thin rows for many items, labels only where they fit.
  int RowH = N <= 24 ? 26 : N <= 64 ? 14 : 6;
  bool Labels = RowH >= 14;
  const int W = 1200, X0 = 170, BarMax = W - X0 - 330, Top = 60;
  std::vector<bool> Used(C.Series.size(), false);
  for (size_t R = 0; R < N; ++R)
    for (size_t I = 0; I < C.Series.size() && I < C.Rows[R].Us.size(); ++I)
      Used[I] = Used[I] || C.Rows[R].Us[I] > 0;
  size_t Legend = std::count(Used.begin(), Used.end(), true);
  int LegendRows = int((Legend + 3) / 4);
  int H = Top + int(std::max<size_t>(N, 1)) * RowH + 50 + LegendRows * 22;
  svgBegin(OS, W, H, C.Title);
  svgHeading(OS, W, C.Title);
  if (N == 0) {
    OS << "<text x=\"" << W / 2 << "\" y=\"" << Top + 20
       << "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">"
       << htmlText(C.Empty) << "</text>\n</svg>\n";
    return;
  }
  double MaxUs = 0;
  for (size_t R = 0; R < N; ++R)
    MaxUs = std::max(MaxUs, C.Rows[R].total());
  double Scale = MaxUs > 0 ? BarMax / MaxUs : 0;
  OS << "<g id=\"bars\" data-x0=\"" << X0 << "\" data-w=\"" << BarMax
     << "\" data-max-us=\"" << fixed(MaxUs, 6) << "\">\n";
  for (size_t R = 0; R < N; ++R) {
    const StackedRow &Row = C.Rows[R];
    int Y = Top + int(R) * RowH;
    double Total = Row.total();
    OS << "<g class=\"" << htmlText(C.RowKind) << "\" data-row=\""
       << htmlText(Row.Id) << "\" data-total-us=\"" << fixed(Total, 6) << "\">";
    if (Labels)
      OS << "<text x=\"" << X0 - 8 << "\" y=\"" << Y + RowH / 2 + 4
         << "\" text-anchor=\"end\" font-size=\"12\">" << htmlText(Row.Label)
         << "</text>";
    double X = X0;
    for (size_t I = 0; I < C.Series.size() && I < Row.Us.size(); ++I) {
      double Us = Row.Us[I];
      if (Us <= 0)
        continue;
      const StackedSeries &S = C.Series[I];
      OS << "<rect class=\"part\" data-series=\"" << htmlText(S.Key)
         << "\" data-us=\"" << fixed(Us, 6) << "\" x=\"" << svgNum(X)
         << "\" y=\"" << Y + 2 << "\" width=\"" << svgNum(Us * Scale)
         << "\" height=\"" << RowH - 4 << "\" fill=\"" << S.Color
         << "\"><title>" << htmlText(Row.Label) << ", " << htmlText(S.Label)
         << ": " << fixed(Us / 1000, 3) << " ms ("
         << fixed(Total > 0 ? Us / Total * 100 : 0, 1) << "%)</title></rect>";
      X += Us * Scale;
    }
    if (Labels)
      OS << "<text class=\"total\" x=\"" << svgNum(X + 6) << "\" y=\""
         << Y + RowH / 2 + 4 << "\" font-size=\"12\">" << fixed(Total / 1000, 3)
         << " ms" << (Row.Note.empty() ? "" : " ") << htmlText(Row.Note)
         << "</text>";
    OS << "</g>\n";
  }
  OS << "</g>\n";
  int Y = Top + int(N) * RowH + 20;
  std::string Caption = C.Caption;
  if (C.Rows.size() > N)
    Caption += (Caption.empty() ? "" : "; ") +
               std::to_string(C.Rows.size() - N) + " more not shown";
  OS << "<text x=\"" << X0 << "\" y=\"" << Y << "\" font-size=\"11\" "
     << "fill=\"#555\">" << htmlText(Caption) << "</text>\n";
  Y += 26;
  size_t K = 0;
  for (size_t I = 0; I < C.Series.size(); ++I) {
    if (!Used[I])
      continue;
    int LX = X0 + int(K % 4) * 240, LY = Y + int(K / 4) * 22;
    OS << "<rect class=\"legend\" data-series=\"" << htmlText(C.Series[I].Key)
       << "\" x=\"" << LX << "\" y=\"" << LY - 11
       << "\" width=\"14\" height=\"14\" fill=\"" << C.Series[I].Color
       << "\" stroke=\"#999\"/>\n<text x=\"" << LX + 20 << "\" y=\"" << LY
       << "\" font-size=\"12\">" << htmlText(C.Series[I].Label) << "</text>\n";
    ++K;
  }
  OS << "</svg>\n";
}

} // namespace tl
