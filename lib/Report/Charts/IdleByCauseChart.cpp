//===- IdleByCauseChart.cpp - idle_by_cause.svg: why the GPU waited -------===//
//
// One stacked bar of the GPU's idle time (the gaps of the merged GPU
// timeline) split by what the host did meanwhile, as LaunchStats computes
// it for the cpu-idle pass: inside a synchronize call (sync wait), other
// host activity (launch-bound), nothing (no host activity). Below it, one
// bar per stream (16 at most, the idlest first): the GPU span minus that
// stream's busy time.
//
//===----------------------------------------------------------------------===//
#include "../Charts.h"
#include "../Html/MarkdownHtml.h"
#include "../ReportUtil.h"
#include "Palette.h"
#include "SvgWriter.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/LaunchStats.h"
#include "tl/IR/Trace.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Support/Intervals.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tl {

void renderIdleByCauseSvg(raw_ostream &OS, const ReportContext &Ctx,
                          StringRef Title) {
  constexpr size_t MaxStreams = 16;
  const GpuTimeline &TL = Ctx.AM.get<GpuTimeline>();
  const LaunchStats &LS = Ctx.AM.get<LaunchStats>();
  const Trace &T = Ctx.T;
  double Span = TL.totalTime();

  struct Part {
    StringRef Cause;
    double Us;
    StringRef Color;
  };
  ArrayRef<StringLiteral> Colors = palette::categorical();
  const Part Parts[] = {{"sync wait", LS.idleSyncUs(), Colors[0]},
                        {"launch-bound", LS.idleLaunchUs(), Colors[1]},
                        {"no host activity", LS.idleNoHostUs(), Colors[2]}};
  double Idle = 0;
  for (const Part &P : Parts)
    Idle += P.Us;

  // Per stream: the GPU span minus the stream's merged busy time.
  std::map<std::pair<int64_t, int64_t>, std::vector<Interval>> Busy;
  for (EventId E : TL.events())
    Busy[{T.device(E).value_or(-1), T.stream(E).value_or(-1)}].push_back(
        {T.ts(E), T.end(E)});
  struct StreamIdle {
    std::string Label;
    double Us;
  };
  std::vector<StreamIdle> Streams;
  for (auto &[Key, Iv] : Busy)
    Streams.push_back({"GPU " + std::to_string(Key.first) + " stream " +
                           std::to_string(Key.second),
                       std::max(0.0, Span - busyTime(std::move(Iv)))});
  std::stable_sort(Streams.begin(), Streams.end(),
                   [](const StreamIdle &A, const StreamIdle &B) {
                     return A.Us > B.Us;
                   });
  size_t Hidden = Streams.size() > MaxStreams ? Streams.size() - MaxStreams : 0;
  Streams.resize(std::min(Streams.size(), MaxStreams));

  const int W = 1200, X0 = 200, BarMax = W - X0 - 220, RowH = 26, Top = 60;
  int H = Top + int(Streams.size() + 1) * RowH + 90;
  svgBegin(OS, W, H, Title);
  svgHeading(OS, W, Title);
  if (!TL.hasGpuEvents() || Span <= 0) {
    OS << "<text x=\"" << W / 2 << "\" y=\"" << Top + 20
       << "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">No GPU "
          "events in this trace</text>\n</svg>\n";
    return;
  }
  double MaxUs = Idle;
  for (const StreamIdle &S : Streams)
    MaxUs = std::max(MaxUs, S.Us);
  double Scale = MaxUs > 0 ? BarMax / MaxUs : 0;

  int Y = Top;
  OS << "<text x=\"" << X0 - 8 << "\" y=\"" << Y + 17
     << "\" text-anchor=\"end\" font-size=\"12\" font-weight=\"bold\">GPU "
        "idle by host activity</text>\n";
  double X = X0;
  for (const Part &P : Parts) {
    if (P.Us <= 0)
      continue;
    OS << "<rect class=\"cause\" data-cause=\"" << P.Cause << "\" x=\""
       << svgNum(X) << "\" y=\"" << Y + 3 << "\" width=\""
       << svgNum(P.Us * Scale) << "\" height=\"" << RowH - 6 << "\" fill=\""
       << P.Color << "\"><title>" << P.Cause << ": " << fixed(P.Us / 1000, 3)
       << " ms (" << fixed(Idle > 0 ? P.Us / Idle * 100 : 0, 1)
       << "% of idle)</title></rect>\n";
    X += P.Us * Scale;
  }
  OS << "<text x=\"" << svgNum(X + 6) << "\" y=\"" << Y + 17
     << "\" font-size=\"12\">" << fixed(Idle / 1000, 3) << " ms ("
     << fixed(Idle / Span * 100, 1) << "% of the GPU span)</text>\n";
  for (const StreamIdle &S : Streams) {
    Y += RowH;
    OS << "<text x=\"" << X0 - 8 << "\" y=\"" << Y + 17
       << "\" text-anchor=\"end\" font-size=\"12\">" << htmlText(S.Label)
       << "</text>\n";
    OS << "<rect class=\"stream-idle\" x=\"" << X0 << "\" y=\"" << Y + 3
       << "\" width=\"" << svgNum(S.Us * Scale) << "\" height=\""
       << RowH - 6 << "\" fill=\"" << palette::NonComputing << "\"><title>"
       << htmlText(S.Label) << ": " << fixed(S.Us / 1000, 3)
       << " ms idle</title></rect>\n";
    OS << "<text x=\"" << svgNum(X0 + S.Us * Scale + 6) << "\" y=\"" << Y + 17
       << "\" font-size=\"12\">" << fixed(S.Us / 1000, 3) << " ms ("
       << fixed(S.Us / Span * 100, 1) << "%)</text>\n";
  }
  Y += RowH + 24;
  int LX = X0;
  for (const Part &P : Parts) {
    OS << "<rect class=\"legend\" x=\"" << LX << "\" y=\"" << Y - 11
       << "\" width=\"14\" height=\"14\" fill=\"" << P.Color << "\"/>\n";
    OS << "<text x=\"" << LX + 20 << "\" y=\"" << Y << "\" font-size=\"12\">"
       << P.Cause << "</text>\n";
    LX += 170;
  }
  OS << "<rect class=\"legend\" x=\"" << LX << "\" y=\"" << Y - 11
     << "\" width=\"14\" height=\"14\" fill=\"" << palette::NonComputing
     << "\"/>\n<text x=\"" << LX + 20 << "\" y=\"" << Y
     << "\" font-size=\"12\">stream idle (GPU span minus stream busy)";
  if (Hidden)
    OS << "; " << Hidden << " less idle stream(s) not shown";
  OS << "</text>\n</svg>\n";
}

} // namespace tl
