//===- RooflineChart.cpp - roofline.svg: modelled ops against the roofs ---===//
//
// One point per row of the unified perf summary that has a perf model with
// FLOPs and bytes: x = arithmetic intensity (the row's FLOPs/Byte), y = the
// achieved TFLOP/s (the row's TFLOPS/s mean), both on log10 axes, under the
// arch's roofs: the memory-bandwidth slope (TFLOP/s = intensity x GB/s /
// 1000) capped by the peak of each compute spec the points use. Nothing is
// recomputed here: the values are the perf summary's.
//
// Axis transform (docs/ReportFormat.md, "roofline.svg"): the plot group
// carries data-x0/-y0/-w/-h (pixels) and data-log-x/-log-y (the decades at
// its edges, "lo hi"); a value v maps to
//   px = x0 + (log10 v - xlo) / (xhi - xlo) * w
//   py = y0 + h - (log10 v - ylo) / (yhi - ylo) * h.
//
//===----------------------------------------------------------------------===//
#include "../Charts.h"
#include "../Html/MarkdownHtml.h"
#include "../ReportUtil.h"
#include "Palette.h"
#include "SvgWriter.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/ArchSpec.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Report/ReportEmitters.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace tl {
namespace {

struct RoofPoint {
  const UnifiedPerfRow *Row;
  double Intensity, Tflops;
};

std::vector<RoofPoint> rooflinePoints(const UnifiedPerfTable &P) {
  std::vector<RoofPoint> Out;
  for (const UnifiedPerfRow &R : P.rows())
    if (R.HasPerfModel && R.Gflops && R.DataMovedMB && R.FlopsPerByte &&
        *R.FlopsPerByte > 0 && R.TFLOPSs.Mean && *R.TFLOPSs.Mean > 0)
      Out.push_back({&R, *R.FlopsPerByte, *R.TFLOPSs.Mean});
  return Out;
}

StringRef categoryOf(const UnifiedPerfRow &R) {
  return R.Category.empty() ? StringRef("other") : StringRef(R.Category);
}

/// Shortest round-trip-ish text of a spec value (989, 3350, 0.5).
std::string g(double V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%.6g", V);
  return S;
}

/// A decade label: 0.001, 0.1, 1, 10, 1000, 1e+06 ...
std::string decadeLabel(int K) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%g", std::pow(10.0, K));
  return S;
}

struct LogAxis {
  int Lo = 0, Hi = 1; // decades at the edges
  double Px0 = 0, Len = 1;
  bool Flip = false; // y grows downwards in SVG
  double map(double V) const {
    double F = (std::log10(V) - Lo) / double(Hi - Lo);
    return Flip ? Px0 + Len - F * Len : Px0 + F * Len;
  }
};

LogAxis axisFor(ArrayRef<double> Values, double Px0, double Len, bool Flip) {
  double Mn = *std::min_element(Values.begin(), Values.end());
  double Mx = *std::max_element(Values.begin(), Values.end());
  LogAxis A;
  A.Lo = int(std::floor(std::log10(Mn)));
  A.Hi = std::max(A.Lo + 1, int(std::ceil(std::log10(Mx))));
  A.Px0 = Px0;
  A.Len = Len;
  A.Flip = Flip;
  return A;
}

} // namespace

std::optional<std::string> rooflineUnavailable(const ReportContext &Ctx) {
  const auto &Arch = Ctx.AM.options().Arch;
  if (!Arch || Arch->MemBwGBps <= 0 || Arch->MaxTflops.empty())
    return std::string("no roofline chart: no arch spec with bandwidth and "
                       "peaks (see --arch)");
  if (rooflinePoints(Ctx.AM.get<UnifiedPerfTable>()).empty())
    return std::string("no roofline chart: no op with a perf model (FLOPs "
                       "and bytes) ran on the GPU");
  return std::nullopt;
}

void renderRooflineSvg(raw_ostream &OS, const ReportContext &Ctx,
                       StringRef Title) {
  const ArchSpec &Arch = *Ctx.AM.options().Arch;
  std::vector<RoofPoint> Pts =
      rooflinePoints(Ctx.AM.get<UnifiedPerfTable>());
  double Bw = Arch.MemBwGBps / 1000; // TFLOP/s per FLOP/byte

  // Ceilings: the peaks of the compute specs the points use; the highest
  // peak of the arch when no point names a known spec.
  std::map<std::string, double> Peaks;
  for (const RoofPoint &P : Pts)
    if (auto V = Arch.peakTflops(P.Row->ComputeSpec))
      Peaks[P.Row->ComputeSpec] = *V;
  if (Peaks.empty()) {
    auto Best = Arch.MaxTflops.begin();
    for (auto It = Arch.MaxTflops.begin(); It != Arch.MaxTflops.end(); ++It)
      if (It->second > Best->second ||
          (It->second == Best->second && It->first() < Best->first()))
        Best = It;
    Peaks[Best->first().str()] = Best->second;
  }

  std::vector<double> Xs, Ys;
  for (const RoofPoint &P : Pts) {
    Xs.push_back(P.Intensity);
    Ys.push_back(P.Tflops);
  }
  for (const auto &[Spec, Peak] : Peaks) {
    Xs.push_back(Peak / Bw); // knee
    Ys.push_back(Peak);
  }
  const int W = 1000, X0 = 90, Y0 = 60, PW = 640, PH = 460;
  LogAxis XA = axisFor(Xs, X0, PW, false);
  // The memory slope enters at the left edge.
  Ys.push_back(std::pow(10.0, XA.Lo) * Bw);
  LogAxis YA = axisFor(Ys, Y0, PH, true);

  // Category colours in row order (rows are by kernel time, descending).
  ArrayRef<StringLiteral> Colors = palette::categorical();
  std::vector<std::string> Cats;
  StringMap<std::string> ColorOf;
  for (const RoofPoint &P : Pts) {
    StringRef C = categoryOf(*P.Row);
    if (ColorOf.count(C))
      continue;
    bool Room = Cats.size() + 1 < Colors.size();
    ColorOf[C] = Room ? Colors[Cats.size()].str() : palette::Other.str();
    if (Room)
      Cats.push_back(C.str());
  }
  bool HasOther = false;
  for (const auto &E : ColorOf)
    HasOther |= E.second == palette::Other;

  int Legend = int(Cats.size() + HasOther + Peaks.size() + 1);
  int H = std::max(Y0 + PH + 70, Y0 + Legend * 22 + 20);
  svgBegin(OS, W, H, Title);
  svgHeading(OS, W, Title);
  OS << "<g id=\"roofline-plot\" data-x0=\"" << X0 << "\" data-y0=\"" << Y0
     << "\" data-w=\"" << PW << "\" data-h=\"" << PH << "\" data-log-x=\""
     << XA.Lo << " " << XA.Hi << "\" data-log-y=\"" << YA.Lo << " " << YA.Hi
     << "\">\n";
  OS << "<rect x=\"" << X0 << "\" y=\"" << Y0 << "\" width=\"" << PW
     << "\" height=\"" << PH << "\" fill=\"none\" stroke=\"#333\"/>\n";
  for (int K = XA.Lo; K <= XA.Hi; ++K) {
    double X = XA.map(std::pow(10.0, K));
    OS << "<line class=\"grid\" x1=\"" << svgNum(X) << "\" y1=\"" << Y0
       << "\" x2=\"" << svgNum(X) << "\" y2=\"" << Y0 + PH
       << "\" stroke=\"#e0e0e0\"/>\n";
    OS << "<text class=\"xtick\" x=\"" << svgNum(X) << "\" y=\""
       << Y0 + PH + 18 << "\" text-anchor=\"middle\" font-size=\"11\">"
       << decadeLabel(K) << "</text>\n";
  }
  for (int K = YA.Lo; K <= YA.Hi; ++K) {
    double Y = YA.map(std::pow(10.0, K));
    OS << "<line class=\"grid\" x1=\"" << X0 << "\" y1=\"" << svgNum(Y)
       << "\" x2=\"" << X0 + PW << "\" y2=\"" << svgNum(Y)
       << "\" stroke=\"#e0e0e0\"/>\n";
    OS << "<text class=\"ytick\" x=\"" << X0 - 6 << "\" y=\"" << svgNum(Y + 4)
       << "\" text-anchor=\"end\" font-size=\"11\">" << decadeLabel(K)
       << "</text>\n";
  }
  OS << "<text x=\"" << X0 + PW / 2 << "\" y=\"" << Y0 + PH + 40
     << "\" text-anchor=\"middle\" font-size=\"12\">Arithmetic intensity "
        "(FLOPs/byte)</text>\n";
  OS << "<text transform=\"translate(" << X0 - 60 << "," << Y0 + PH / 2
     << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">Achieved "
        "TFLOP/s</text>\n";

  // Roofs: the memory slope up to each knee, then the flat ceiling.
  double XLo = std::pow(10.0, XA.Lo), XHi = std::pow(10.0, XA.Hi);
  for (const auto &[Spec, Peak] : Peaks) {
    double Knee = Peak / Bw;
    OS << "<polyline class=\"roof\" data-spec=\"" << htmlText(Spec)
       << "\" data-peak-tflops=\"" << g(Peak) << "\" data-bw-gbps=\""
       << g(Arch.MemBwGBps) << "\" points=\"" << svgNum(XA.map(XLo)) << ","
       << svgNum(YA.map(XLo * Bw)) << " " << svgNum(XA.map(Knee)) << ","
       << svgNum(YA.map(Peak)) << " " << svgNum(XA.map(XHi)) << ","
       << svgNum(YA.map(Peak))
       << "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\">"
       << "<title>" << htmlText(Spec) << ": " << g(Peak) << " TFLOP/s, "
       << g(Arch.MemBwGBps) << " GB/s, knee at " << fixed(Knee, 2)
       << " FLOPs/byte</title></polyline>\n";
    OS << "<text x=\"" << X0 + PW - 4 << "\" y=\"" << svgNum(YA.map(Peak) - 4)
       << "\" text-anchor=\"end\" font-size=\"11\">" << htmlText(Spec) << " "
       << g(Peak) << " TFLOP/s</text>\n";
  }
  for (const RoofPoint &P : Pts) {
    const UnifiedPerfRow &R = *P.Row;
    StringRef C = categoryOf(R);
    OS << "<circle class=\"op\" cx=\"" << svgNum(XA.map(P.Intensity))
       << "\" cy=\"" << svgNum(YA.map(P.Tflops)) << "\" r=\"5\" fill=\""
       << ColorOf[C] << "\" fill-opacity=\"0.85\" stroke=\"#333\" "
       << "stroke-width=\"0.5\"><title>" << htmlText(R.Name) << " "
       << htmlText(R.InputDims) << " — " << htmlText(C) << ": "
       << g(P.Intensity) << " FLOPs/byte, " << g(P.Tflops) << " TFLOP/s";
    if (R.PctRoofline.Mean)
      OS << ", " << g(*R.PctRoofline.Mean) << "% of roofline";
    OS << "</title></circle>\n";
  }
  OS << "</g>\n";
  // Legend right of the plot.
  int LX = X0 + PW + 30, LY = Y0 + 10;
  auto Item = [&](StringRef Color, StringRef Text) {
    OS << "<rect class=\"legend\" x=\"" << LX << "\" y=\"" << LY - 10
       << "\" width=\"12\" height=\"12\" fill=\"" << Color << "\"/>\n";
    OS << "<text x=\"" << LX + 18 << "\" y=\"" << LY << "\" font-size=\"12\">"
       << htmlText(Text) << "</text>\n";
    LY += 22;
  };
  for (const std::string &C : Cats)
    Item(ColorOf[C], C);
  if (HasOther)
    Item(palette::Other, "other categories");
  OS << "<text x=\"" << LX << "\" y=\"" << LY << "\" font-size=\"12\">"
     << htmlText(Arch.Name) << ": " << g(Arch.MemBwGBps) << " GB/s</text>\n";
  OS << "</svg>\n";
}

} // namespace tl
