//===- JobCharts.cpp - The charts of a multi-rank job's report ------------===//
//
// rank_breakdown.svg reuses the stacked bars of the critical path chart;
// collective_skew.svg is a heatmap on one sequential scale from white (on
// time) to dark red (the latest arrival of the job), so the late rank of
// each collective is the darkest cell of its column. Cells that are not
// members of the collective's group stay blank; members without the
// instance (incomplete) are grey.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/JobCharts.h"
#include "../Html/MarkdownHtml.h"
#include "../ReportUtil.h"
#include "Palette.h"
#include "StackedBars.h"
#include "SvgWriter.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace tl {

void renderRankBreakdownSvg(raw_ostream &OS, ArrayRef<JobRankBar> Ranks,
                            StringRef Title) {
  StackedBarsChart C;
  C.Title = Title.str();
  C.RowKind = "rank";
  C.Empty = "No rank has GPU events";
  C.Series = {
      {"computation", "computation", palette::Computation},
      {"communication", "exposed communication", palette::Communication},
      {"memcpy", "exposed memcpy", palette::Memcpy},
      {"idle", "idle", palette::NonComputing}};
  for (const JobRankBar &R : Ranks) {
    StackedRow Row;
    Row.Id = std::to_string(R.Rank);
    Row.Label = "rank " + Row.Id;
    if (R.HasGpu)
      Row.Us = {R.ComputationUs, R.ExposedCommUs, R.ExposedMemcpyUs, R.IdleUs};
    else
      Row.Note = "no GPU events";
    C.Rows.push_back(std::move(Row));
  }
  C.Caption = "Per rank, its GPU timeline (first GPU event start to last GPU "
              "event end) split as in its gpu_timeline.csv; communication and "
              "memcpy only where no computation overlaps them";
  renderStackedBars(OS, C, /*MaxRows=*/1024);
}

namespace {

/// White (0) to dark red (1), through the ColorBrewer OrRd ramp; its
/// lightness falls monotonically, so darker is always later.
std::string heatColor(double F) {
  static constexpr unsigned char Ramp[][3] = {{255, 247, 236},
                                              {253, 212, 158},
                                              {252, 141, 89},
                                              {215, 48, 31},
                                              {127, 0, 0}};
  F = std::clamp(F, 0.0, 1.0) * 4;
  unsigned I = std::min(3u, unsigned(F));
  double T = F - I;
  std::string S;
  raw_string_ostream OS(S);
  OS << "#";
  for (unsigned K = 0; K < 3; ++K)
    OS << format_hex_no_prefix(
        unsigned(std::lround(Ramp[I][K] + (Ramp[I + 1][K] - Ramp[I][K]) * T)),
        2, /*Upper=*/true);
  return S;
}

/// [First, Last) of group G when N items go into ceil(N / per) groups.
std::pair<size_t, size_t> groupRange(size_t G, size_t N, size_t Groups) {
  return {G * N / Groups, (G + 1) * N / Groups};
}

} // namespace

void renderSkewHeatmapSvg(raw_ostream &OS, const SkewHeatmap &H,
                          StringRef Title, size_t MaxCols, size_t MaxRows) {
  size_t NR = H.Ranks.size(), NC = H.Columns.size();
  size_t GR = std::min(NR, MaxRows), GC = std::min(NC, MaxCols);
  const int W = 1200, X0 = 110, PlotW = W - X0 - 40, Top = 80;
  double CW = GC ? double(PlotW) / GC : 0;
  double RH = GR ? std::clamp(480.0 / GR, 4.0, 24.0) : 0;
  int Hgt = Top + int(std::ceil(RH * GR)) + 110;
  svgBegin(OS, W, Hgt, Title);
  svgHeading(OS, W, Title);
  if (!GR || !GC) {
    OS << "<text x=\"" << W / 2 << "\" y=\"" << Top
       << "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">No "
          "collective matched across ranks</text>\n</svg>\n";
    return;
  }
  double MaxLate = 0;
  for (const SkewColumn &Col : H.Columns)
    for (const SkewCell &C : Col.Cells)
      if (C.K == SkewCell::Kind::Arrived)
        MaxLate = std::max(MaxLate, C.LateUs);
  OS << "<g id=\"heatmap\" data-max-late-us=\"" << fixed(MaxLate, 6)
     << "\" data-grouped=\"" << (GR < NR || GC < NC ? 1 : 0) << "\""
     << " shape-rendering=\"crispEdges\">\n";
  bool RowLabels = RH >= 10, ColLabels = CW >= 14;
  for (size_t C = 0; ColLabels && C < GC; ++C) {
    const SkewColumn &Col = H.Columns[groupRange(C, NC, GC).first];
    double X = X0 + (C + 0.5) * CW;
    OS << "<text x=\"" << svgNum(X) << "\" y=\"" << Top - 6
       << "\" font-size=\"10\" transform=\"rotate(-45 " << svgNum(X) << " "
       << Top - 6 << ")\">" << htmlText(Col.Id) << "</text>\n";
  }
  for (size_t R = 0; RowLabels && R < GR; ++R) {
    auto [R0, R1] = groupRange(R, NR, GR);
    std::string Name = R1 - R0 == 1 ? "rank " + std::to_string(H.Ranks[R0])
                                    : "ranks " + std::to_string(H.Ranks[R0]) +
                                          "–" + std::to_string(H.Ranks[R1 - 1]);
    OS << "<text x=\"" << X0 - 8 << "\" y=\""
       << svgNum(Top + R * RH + RH / 2 + 4)
       << "\" text-anchor=\"end\" font-size=\"11\">" << htmlText(Name)
       << "</text>\n";
  }
  // Per block of rows and columns the latest arrival (grey when its only
  // member cells are missing), found in one pass over the block's cells.
  struct Block {
    bool Any = false, Missing = false;
    double Late = 0;
    size_t Row = 0, Col = 0;
  };
  std::vector<Block> Blocks(GR);
  std::vector<size_t> GroupOfRow(NR);
  for (size_t R = 0; R < GR; ++R) {
    auto [R0, R1] = groupRange(R, NR, GR);
    for (size_t I = R0; I < R1; ++I)
      GroupOfRow[I] = R;
  }
  for (size_t C = 0; C < GC; ++C) {
    auto [C0, C1] = groupRange(C, NC, GC);
    std::fill(Blocks.begin(), Blocks.end(), Block());
    for (size_t CC = C0; CC < C1; ++CC)
      for (const SkewCell &Cell : H.Columns[CC].Cells) {
        if (Cell.Row >= NR)
          continue;
        Block &B = Blocks[GroupOfRow[Cell.Row]];
        if (Cell.K == SkewCell::Kind::Missing) {
          if (!B.Any && !B.Missing)
            B.Row = Cell.Row, B.Col = CC;
          B.Missing = true;
          continue;
        }
        if (!B.Any || Cell.LateUs > B.Late) {
          B.Late = Cell.LateUs;
          B.Row = Cell.Row;
          B.Col = CC;
        }
        B.Any = true;
      }
    for (size_t R = 0; R < GR; ++R) {
      const Block &B = Blocks[R];
      if (!B.Any && !B.Missing)
        continue;
      const SkewColumn &Col = H.Columns[B.Col];
      int64_t Rank = H.Ranks[B.Row];
      OS << "<rect class=\"cell\" data-rank=\"" << Rank << "\" data-coll=\""
         << htmlText(Col.Id) << "\"";
      if (B.Any)
        OS << " data-late-us=\"" << fixed(B.Late, 3) << "\"";
      else
        OS << " data-missing=\"1\"";
      OS << " x=\"" << svgNum(X0 + C * CW) << "\" y=\"" << svgNum(Top + R * RH)
         << "\" width=\"" << svgNum(CW) << "\" height=\"" << svgNum(RH)
         << "\" fill=\""
         << (B.Any ? heatColor(MaxLate > 0 ? B.Late / MaxLate : 0)
                   : palette::NonComputing.str())
         << "\"><title>rank " << Rank << ", " << htmlText(Col.Type) << " "
         << htmlText(Col.Id);
      if (Col.Step)
        OS << " (step " << *Col.Step << ")";
      if (B.Any)
        OS << ": " << fixed(B.Late, 1) << " us after the first arrival";
      else
        OS << ": missing on this rank";
      OS << "</title></rect>\n";
    }
  }
  OS << "</g>\n";
  // Scale bar: five swatches from on time to the latest arrival.
  int Y = Top + int(std::ceil(RH * GR)) + 26;
  OS << "<text x=\"" << X0 << "\" y=\"" << Y << "\" font-size=\"11\">"
     << "arrival after the first member (us):</text>\n";
  for (int K = 0; K <= 4; ++K) {
    int SX = X0 + 220 + K * 90;
    OS << "<rect class=\"scale\" x=\"" << SX << "\" y=\"" << Y - 11
       << "\" width=\"24\" height=\"14\" fill=\"" << heatColor(K / 4.0)
       << "\" stroke=\"#999\"/>\n<text x=\"" << SX + 30 << "\" y=\"" << Y
       << "\" font-size=\"11\">" << fixed(MaxLate * K / 4, 1) << "</text>\n";
  }
  OS << "<rect x=\"" << X0 + 700 << "\" y=\"" << Y - 11
     << "\" width=\"24\" height=\"14\" fill=\"" << palette::NonComputing
     << "\"/>\n<text x=\"" << X0 + 730 << "\" y=\"" << Y
     << "\" font-size=\"11\">missing (incomplete)</text>\n";
  Y += 22;
  OS << "<text x=\"" << X0 << "\" y=\"" << Y << "\" font-size=\"11\" "
     << "fill=\"#555\">" << NR << " rank(s) x " << NC
     << " collective(s) in first-start order (multirank/collectives.csv); "
        "blank: not a member of the group";
  if (GR < NR || GC < NC)
    OS << "; consecutive " << (GC < NC ? "collectives" : "ranks")
       << (GC < NC && GR < NR ? " and ranks" : "")
       << " share a cell, which shows the latest arrival among them";
  OS << "</text>\n</svg>\n";
}

} // namespace tl
