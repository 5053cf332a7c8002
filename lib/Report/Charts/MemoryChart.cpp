//===- MemoryChart.cpp - memory.svg: allocator curves and the peak --------===//
//
// Spec memory-timeline.md §3.2: per GPU device one plot of the allocated
// and reserved bytes after every allocator event, drawn as steps against
// ms since the first GPU allocator event (one x axis for every device),
// profiler steps shaded. The peak is marked (circle, dashed line, value)
// and the box beside the plot says what is live at it by top op (§3.6) and
// how much reserved memory is unused there. The curves are down-sampled
// for drawing only: per pixel column the first, lowest, highest and last
// point, so the peak and every extreme survive. The plot group's data-*
// attributes give its transform (docs/ReportFormat.md, "Charts").
//
//===----------------------------------------------------------------------===//
#include "../Charts.h"
#include "../Html/MarkdownHtml.h"
#include "../ReportUtil.h"
#include "Palette.h"
#include "SvgWriter.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/MemoryTimeline.h"
#include "tl/Analysis/ProfilerSteps.h"
#include "tl/IR/Trace.h"
#include "tl/Report/ReportEmitters.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace tl {

namespace {

/// 1, 2 or 5 times a power of ten, the smallest >= Raw.
double niceStep(double Raw) {
  if (!(Raw > 0))
    return 1;
  double Mag = std::pow(10.0, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0})
    if (M * Mag >= Raw * (1 - 1e-9))
      return M * Mag;
  return 10 * Mag;
}

int decimalsOf(double Step) {
  return std::max(0, int(-std::floor(std::log10(Step) + 1e-9)));
}

double value(const MemPoint &P, bool Reserved) {
  return Reserved ? double(P.Reserved.value_or(0)) : double(P.Allocated);
}

/// Per pixel column the first, lowest, highest and last point (by index).
std::vector<size_t> downsample(const MemDevice &D, double T0, double Span,
                               double Width, bool Reserved) {
  std::vector<size_t> Keep;
  size_t I = 0, N = D.Points.size();
  auto Col = [&](size_t K) {
    return long((D.Points[K].Ts - T0) / Span * Width);
  };
  while (I < N) {
    long C = Col(I);
    size_t First = I, Lo = I, Hi = I, Last = I;
    for (; I < N && Col(I) == C; ++I) {
      if (value(D.Points[I], Reserved) < value(D.Points[Lo], Reserved))
        Lo = I;
      if (value(D.Points[I], Reserved) > value(D.Points[Hi], Reserved))
        Hi = I;
      Last = I;
    }
    size_t Pick[] = {First, Lo, Hi, Last};
    std::sort(std::begin(Pick), std::end(Pick));
    for (size_t K : Pick)
      if (Keep.empty() || Keep.back() != K)
        Keep.push_back(K);
  }
  return Keep;
}

std::string mib(double B) { return fixed(B / double(1 << 20), 1) + " MiB"; }

} // namespace

bool hasMemoryChart(const ReportContext &Ctx) {
  return llvm::any_of(Ctx.AM.get<MemoryTimeline>().devices(),
                      [](const MemDevice &D) { return D.isGpu(); });
}

void renderMemorySvg(raw_ostream &OS, const ReportContext &Ctx,
                     StringRef Title) {
  const Trace &T = Ctx.T;
  const MemoryTimeline &M = Ctx.AM.get<MemoryTimeline>();
  const int W = 1200, PlotW = 760, X0 = 90, Top0 = 70, PlotH = 240,
            PanelH = PlotH + 80, BoxX = X0 + PlotW + 20;
  std::vector<const MemDevice *> Gpus;
  double T0 = 0, T1 = 0;
  for (const MemDevice &D : M.devices()) {
    if (!D.isGpu() || D.Points.empty())
      continue;
    T0 = Gpus.empty() ? D.Points.front().Ts : std::min(T0, D.Points.front().Ts);
    T1 = Gpus.empty() ? D.Points.back().Ts : std::max(T1, D.Points.back().Ts);
    Gpus.push_back(&D);
  }
  int H = Top0 + int(std::max<size_t>(Gpus.size(), 1)) * PanelH + 30;
  svgBegin(OS, W, H, Title);
  svgHeading(OS, W, Title);
  const StringRef AllocColor = palette::categorical()[0],
                  ResColor = palette::categorical()[1],
                  PeakColor = palette::categorical()[6];
  if (Gpus.empty()) {
    OS << "<text x=\"" << W / 2 << "\" y=\"" << Top0 + 20
       << "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">No GPU "
          "allocator events in this trace</text>\n</svg>\n";
    return;
  }
  double Span = std::max(T1 - T0, 1e-9);
  std::vector<ProfilerStep> Steps = collectProfilerSteps(T);
  int Top = Top0;
  for (const MemDevice *D : Gpus) {
    double Max = double(std::max<int64_t>(
        {D->PeakAllocated, D->PeakReserved.value_or(0), int64_t(1)}));
    // The y axis in GiB from 1 GiB up, else MiB; 1-2-5 ticks.
    bool Gib = Max >= double(1ull << 30);
    double Unit = Gib ? double(1ull << 30) : double(1 << 20);
    double YStep = niceStep(Max / Unit / 4) * Unit;
    double YMax = std::ceil(Max / YStep * (1 + 1e-9)) * YStep;
    if (YMax <= Max)
      YMax += YStep;
    auto X = [&](double Ts) { return X0 + (Ts - T0) / Span * PlotW; };
    auto Y = [&](double V) { return Top + PlotH - V / YMax * PlotH; };
    OS << "<g class=\"memory-device\" data-device=\"" << htmlText(D->Name)
       << "\" data-x0=\"" << X0 << "\" data-y0=\"" << Top << "\" data-w=\""
       << PlotW << "\" data-h=\"" << PlotH << "\" data-t0-us=\"" << fixed(T0, 3)
       << "\" data-span-us=\"" << fixed(Span, 3) << "\" data-max-bytes=\""
       << fixed(YMax, 0) << "\" data-peak-bytes=\"" << D->PeakAllocated
       << "\">\n";
    OS << "<text x=\"" << X0 << "\" y=\"" << Top - 8
       << "\" font-size=\"13\" font-weight=\"bold\">" << htmlText(D->Name)
       << "</text>\n";
    if (D->DeviceMemory)
      OS << "<text x=\"" << X0 + PlotW << "\" y=\"" << Top - 8
         << "\" font-size=\"11\" text-anchor=\"end\" fill=\"#555\">device "
            "memory "
         << fixed(double(*D->DeviceMemory) / double(1ull << 30), 1)
         << " GiB</text>\n";
    for (const ProfilerStep &S : Steps) {
      double A = std::max(S.Start, T0), B = std::min(S.End, T1);
      if (B <= A)
        continue;
      OS << "<rect class=\"step\" x=\"" << svgNum(X(A)) << "\" y=\"" << Top
         << "\" width=\"" << svgNum(X(B) - X(A)) << "\" height=\"" << PlotH
         << "\" fill=\"#f0f3f7\" stroke=\"#d5dbe3\"><title>ProfilerStep#"
         << S.Number << "</title></rect>\n";
    }
    OS << "<rect x=\"" << X0 << "\" y=\"" << Top << "\" width=\"" << PlotW
       << "\" height=\"" << PlotH
       << "\" fill=\"none\" stroke=\"#888\" stroke-width=\"1\"/>\n";
    int YDec = decimalsOf(YStep / Unit);
    for (double V = 0; V <= YMax * (1 + 1e-9); V += YStep)
      OS << "<text class=\"ytick\" x=\"" << X0 - 6 << "\" y=\""
         << svgNum(Y(V) + 4) << "\" font-size=\"11\" text-anchor=\"end\">"
         << fixed(V / Unit, YDec) << "</text>\n";
    OS << "<text x=\"" << X0 - 60 << "\" y=\"" << Top + PlotH / 2
       << "\" font-size=\"11\" transform=\"rotate(-90 " << X0 - 60 << " "
       << Top + PlotH / 2 << ")\" text-anchor=\"middle\">"
       << (Gib ? "GiB" : "MiB") << "</text>\n";
    double SpanMs = Span / 1000, XStep = niceStep(SpanMs / 6);
    int XDec = decimalsOf(XStep);
    for (long K = 0; K * XStep <= SpanMs * (1 + 1e-9); ++K)
      OS << "<text class=\"tick\" x=\"" << svgNum(X(T0 + K * XStep * 1000))
         << "\" y=\"" << Top + PlotH + 16
         << "\" font-size=\"11\" text-anchor=\"middle\">"
         << fixed(K * XStep, XDec) << "</text>\n";
    OS << "<text x=\"" << X0 + PlotW / 2 << "\" y=\"" << Top + PlotH + 32
       << "\" font-size=\"11\" text-anchor=\"middle\">ms since the first GPU "
          "allocator event</text>\n";
    for (bool Reserved : {true, false}) {
      if (Reserved && !D->PeakReserved)
        continue;
      std::vector<size_t> Keep = downsample(*D, T0, Span, PlotW, Reserved);
      OS << "<path class=\"" << (Reserved ? "reserved" : "allocated")
         << "\" fill=\"none\" stroke=\"" << (Reserved ? ResColor : AllocColor)
         << "\" stroke-width=\"1.5\" d=\"";
      bool First = true;
      for (size_t I : Keep) {
        const MemPoint &P = D->Points[I];
        if (First)
          OS << "M" << svgNum(X(P.Ts)) << "," << svgNum(Y(value(P, Reserved)));
        else
          OS << " H" << svgNum(X(P.Ts)) << " V"
             << svgNum(Y(value(P, Reserved)));
        First = false;
      }
      OS << " H" << svgNum(X(T1)) << "\"/>\n";
    }
    const MemPoint &Pk = D->peak();
    double PX = X(Pk.Ts), PY = Y(double(D->PeakAllocated));
    OS << "<line class=\"peak-line\" x1=\"" << svgNum(PX) << "\" y1=\"" << Top
       << "\" x2=\"" << svgNum(PX) << "\" y2=\"" << Top + PlotH
       << "\" stroke=\"" << PeakColor << "\" stroke-dasharray=\"4,3\"/>\n";
    OS << "<circle class=\"peak\" cx=\"" << svgNum(PX) << "\" cy=\""
       << svgNum(PY) << "\" r=\"4\" fill=\"" << PeakColor << "\"><title>peak "
       << D->PeakAllocated << " bytes in " << htmlText(Pk.Owner.Display)
       << "</title></circle>\n";
    bool Left = PX > X0 + PlotW * 0.7;
    OS << "<text class=\"peak-label\" x=\"" << svgNum(Left ? PX - 6 : PX + 6)
       << "\" y=\"" << svgNum(std::max(PY - 6, double(Top) + 12))
       << "\" font-size=\"11\" fill=\"" << PeakColor << "\""
       << (Left ? " text-anchor=\"end\"" : "") << ">peak "
       << mib(double(D->PeakAllocated)) << " at "
       << fixed((Pk.Ts - T0) / 1000, 3) << " ms</text>\n";
    // What is live at the peak, by top op (§3.6): the four largest owners,
    // the rest as one line.
    int BY = Top + 4;
    OS << "<g class=\"live-at-peak\"><text x=\"" << BoxX << "\" y=\"" << BY
       << "\" font-size=\"12\" font-weight=\"bold\">Live at the peak ("
       << mib(double(D->PeakAllocated)) << ")</text>\n";
    unsigned Shown = 0;
    int64_t Rest = 0;
    unsigned RestN = 0;
    for (const MemLiveOwner &O : D->LiveAtPeak) {
      if (O.Kind != "top_op")
        continue;
      if (Shown == 4) {
        Rest += O.Bytes;
        ++RestN;
        continue;
      }
      BY += 18;
      double Pct = D->PeakAllocated
                       ? double(O.Bytes) / double(D->PeakAllocated) * 100
                       : 0;
      std::string Name =
          O.Owner.size() > 34 ? O.Owner.substr(0, 33) + "…" : O.Owner;
      OS << "<text class=\"live\" data-owner=\"" << htmlText(O.Owner)
         << "\" data-bytes=\"" << O.Bytes << "\" x=\"" << BoxX << "\" y=\""
         << BY << "\" font-size=\"11\"><title>" << htmlText(O.Owner) << ": "
         << O.Bytes << " bytes</title>" << htmlText(Name) << " — "
         << mib(double(O.Bytes)) << " (" << fixed(Pct, 1) << "%)</text>\n";
      ++Shown;
    }
    if (RestN) {
      BY += 18;
      OS << "<text class=\"live\" data-owner=\"(" << RestN
         << " others)\" data-bytes=\"" << Rest << "\" x=\"" << BoxX << "\" y=\""
         << BY << "\" font-size=\"11\">" << RestN << " other top op(s) — "
         << mib(double(Rest)) << "</text>\n";
    }
    BY += 24;
    OS << "<text class=\"peak-op\" x=\"" << BoxX << "\" y=\"" << BY
       << "\" font-size=\"11\">reached by " << mib(double(Pk.Bytes))
       << " in</text>\n<text x=\"" << BoxX << "\" y=\"" << BY + 14
       << "\" font-size=\"11\">"
       << htmlText(Pk.Owner.Display.size() > 40
                       ? Pk.Owner.Display.substr(0, 39) + "…"
                       : Pk.Owner.Display)
       << (Pk.Owner.Step >= 0 ? " (step " + std::to_string(Pk.Owner.Step) + ")"
                              : std::string())
       << "</text>\n";
    if (D->CachedAtPeak) {
      BY += 36;
      OS << "<text class=\"cached\" data-bytes=\"" << *D->CachedAtPeak
         << "\" x=\"" << BoxX << "\" y=\"" << BY
         << "\" font-size=\"11\">reserved but unused at the peak: "
         << mib(double(*D->CachedAtPeak)) << "</text>\n";
    }
    OS << "</g>\n";
    // Legend under the plot.
    int LY = Top + PlotH + 52, LX = X0;
    const std::pair<StringRef, StringRef> Legend[] = {
        {"allocated", AllocColor}, {"reserved", ResColor}, {"peak", PeakColor}};
    for (const auto &[Name, Color] : Legend) {
      if (Name == "reserved" && !D->PeakReserved)
        continue;
      OS << "<rect class=\"legend\" x=\"" << LX << "\" y=\"" << LY - 10
         << "\" width=\"14\" height=\"14\" fill=\"" << Color << "\"/>\n"
         << "<text x=\"" << LX + 20 << "\" y=\"" << LY << "\" font-size=\"12\">"
         << Name << "</text>\n";
      LX += 140;
    }
    OS << "</g>\n";
    Top += PanelH;
  }
  OS << "</svg>\n";
}

} // namespace tl
