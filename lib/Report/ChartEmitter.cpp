//===- ChartEmitter.cpp - SVG charts linked from analysis.md --------------===//
//
// Self-contained SVG files (no dependency, any browser renders them); the
// other charts live in Charts/ (roofline.svg, top_kernels.svg,
// idle_by_cause.svg, compare_categories.svg):
//   performance_breakdown.svg  the reference's perf plot (§9.1): one stacked
//                              bar of per-category kernel time, exposed
//                              communication and non-computing time.
//   gpu_timeline.svg           busy / idle / communication / memcpy per time
//                              bucket, for the whole GPU (exposed view) and
//                              per stream, with ProfilerStep boundaries and
//                              1-2-5 ticks in ms from the trace start.
//
//===----------------------------------------------------------------------===//
#include "Charts.h"
#include "Charts/Palette.h"
#include "Charts/SvgWriter.h"
#include "Html/MarkdownHtml.h"
#include "ReportUtil.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/ProfilerSteps.h"
#include "tl/Analysis/TraceStart.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/IR/Trace.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace tl {
namespace {

constexpr StringLiteral CompColor = palette::Computation,
                        CommColor = palette::Communication,
                        CopyColor = palette::Memcpy, IdleColor = palette::Idle;

std::string num(double V) { return svgNum(V); }

/// Segments of the breakdown bar: compute categories by kernel time (the
/// palette's size at most, the smallest beyond it grouped as "Other"), the
/// exposed communication time in its own colour, then the rest of E2E as
/// non-computing time (§9.1). A category of communication ops
/// (record_param_comms, whose kernels are the collectives) is not a compute
/// category: its time is the communication segment's.
struct Segment {
  std::string Label;
  double Ms;
  std::string Color;
};

std::vector<Segment> breakdown(const ReportModel &M) {
  std::vector<const CategoryInfo *> Cats;
  for (const CategoryInfo &C : M.categories())
    if (C.GpuKernelTimeMs > 0 && C.Key != "record_param_comms")
      Cats.push_back(&C);
  std::stable_sort(Cats.begin(), Cats.end(),
                   [](const CategoryInfo *A, const CategoryInfo *B) {
                     return A->GpuKernelTimeMs > B->GpuKernelTimeMs;
                   });
  ArrayRef<StringLiteral> Colors = palette::categorical();
  size_t Named = Cats.size() > Colors.size() ? Colors.size() - 1 : Cats.size();
  std::vector<Segment> S;
  double Sum = 0, OtherMs = 0;
  for (size_t I = 0; I < Cats.size(); ++I) {
    Sum += Cats[I]->GpuKernelTimeMs;
    if (I >= Named) {
      OtherMs += Cats[I]->GpuKernelTimeMs;
      continue;
    }
    std::string L = Cats[I]->Key;
    if (!L.empty())
      L[0] = toUpper(L[0]);
    S.push_back({L, Cats[I]->GpuKernelTimeMs, Colors[I].str()});
  }
  if (OtherMs > 0)
    S.push_back({"Other categories", OtherMs, palette::Other.str()});
  const Utilization &U = M.utilization();
  double CommMs = U.TotalMs * U.ExposedCommPct / 100;
  if (CommMs > 0)
    S.push_back({"Communication", CommMs, palette::Communication.str()});
  double Rest = U.TotalMs - Sum - std::max(0.0, CommMs);
  if (Rest > 0)
    S.push_back({"Non-computing", Rest, palette::NonComputing.str()});
  return S;
}

void writeBreakdown(raw_ostream &OS, const ReportModel &M, StringRef Title) {
  std::vector<Segment> Segs = breakdown(M);
  double Total = M.utilization().TotalMs;
  const int W = 1200, X0 = 60, BarW = W - 2 * X0, BarY = 60, BarH = 70;
  unsigned Cols = std::max<unsigned>(1, std::min<unsigned>(Segs.size(), 4));
  unsigned Rows = (Segs.size() + Cols - 1) / Cols;
  int H = BarY + BarH + 70 + Rows * 24 + 20;
  svgBegin(OS, W, H, Title);
  OS << "<text x=\"" << W / 2 << "\" y=\"30\" text-anchor=\"middle\" "
        "font-size=\"18\" font-weight=\"bold\">"
     << htmlText(Title) << "</text>\n";
  if (Segs.empty() || Total <= 0) {
    OS << "<text x=\"" << W / 2 << "\" y=\"" << BarY + BarH / 2
       << "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">No GPU "
          "time in this trace</text>\n</svg>\n";
    return;
  }
  double Scale = BarW / std::max(Total, 1e-12);
  double X = X0;
  for (const Segment &S : Segs) {
    double Wd = S.Ms * Scale;
    OS << "<rect x=\"" << num(X) << "\" y=\"" << BarY << "\" width=\""
       << num(Wd) << "\" height=\"" << BarH << "\" fill=\"" << S.Color
       << "\" fill-opacity=\"0.95\" stroke=\"#ffffff\" stroke-width=\"0.9\">"
       << "<title>" << htmlText(S.Label) << ": " << fixed(S.Ms, 3)
       << " ms</title></rect>\n";
    X += Wd;
  }
  // Axis with five ticks, labelled in ms.
  int AxisY = BarY + BarH + 8;
  OS << "<line x1=\"" << X0 << "\" y1=\"" << AxisY << "\" x2=\"" << X0 + BarW
     << "\" y2=\"" << AxisY << "\" stroke=\"#333\"/>\n";
  for (int I = 0; I <= 5; ++I) {
    double TX = X0 + BarW * I / 5.0;
    OS << "<line x1=\"" << num(TX) << "\" y1=\"" << AxisY << "\" x2=\""
       << num(TX) << "\" y2=\"" << AxisY + 5 << "\" stroke=\"#333\"/>\n";
    OS << "<text x=\"" << num(TX) << "\" y=\"" << AxisY + 18
       << "\" text-anchor=\"middle\" font-size=\"11\">"
       << fixed(Total * I / 5.0, 2) << "</text>\n";
  }
  OS << "<text x=\"" << W / 2 << "\" y=\"" << AxisY + 36
     << "\" text-anchor=\"middle\" font-size=\"12\">GPU time (ms)</text>\n";
  int LY = AxisY + 60, ColW = BarW / Cols;
  for (size_t I = 0; I < Segs.size(); ++I) {
    int LX = X0 + (I % Cols) * ColW, Y = LY + (I / Cols) * 24;
    const Segment &S = Segs[I];
    OS << "<rect x=\"" << LX << "\" y=\"" << Y - 11 << "\" width=\"14\" "
       << "height=\"14\" fill=\"" << S.Color << "\"/>\n";
    OS << "<text x=\"" << LX + 20 << "\" y=\"" << Y
       << "\" font-size=\"12\">" << htmlText(S.Label) << " — "
       << fixed(S.Ms, 1) << " ms (" << fixed(S.Ms / Total * 100, 1)
       << "%)</text>\n";
  }
  OS << "</svg>\n";
}

/// Overlap of [A,B] with the sorted, merged intervals.
double overlap(ArrayRef<Interval> Iv, double A, double B) {
  auto It = std::lower_bound(
      Iv.begin(), Iv.end(), A,
      [](const Interval &I, double V) { return I.End < V; });
  double Sum = 0;
  for (; It != Iv.end() && It->Start < B; ++It)
    Sum += std::max(0.0, std::min(B, It->End) - std::max(A, It->Start));
  return Sum;
}

void writeTimeline(raw_ostream &OS, const Trace &T, const GpuTimeline &TL,
                   double TraceStartUs, ArrayRef<ProfilerStep> Steps,
                   StringRef Title) {
  constexpr unsigned Buckets = 120, MaxStreams = 16;
  const int W = 1200, X0 = 170, PlotW = W - X0 - 30, RowH = 22, Top = 60;

  // Per-stream busy time per bucket and kind.
  struct StreamRow {
    std::string Label;
    double Busy = 0;
    std::vector<double> Kind[3];
  };
  double Start = TL.start(), Span = std::max(TL.totalTime(), 1e-9);
  double BW = Span / Buckets;
  // A few streams over millions of events, mostly in runs: the last row
  // is tried before the map; rows are put in key order at the end.
  using StreamKey = std::pair<int64_t, int64_t>;
  std::vector<std::pair<StreamKey, StreamRow>> Streams;
  std::map<StreamKey, unsigned> RowOf;
  unsigned Last = ~0u;
  GpuBucketer Bucket(T);
  for (EventId E : TL.events()) {
    StreamKey Key(T.device(E).value_or(-1), T.stream(E).value_or(-1));
    if (Last == ~0u || Streams[Last].first != Key) {
      auto [It, New] = RowOf.try_emplace(Key, Streams.size());
      Last = It->second;
      if (New) {
        StreamRow NewRow;
        NewRow.Label = "GPU " + std::to_string(Key.first) + " stream " +
                       std::to_string(Key.second);
        for (auto &K : NewRow.Kind)
          K.assign(Buckets, 0);
        Streams.emplace_back(Key, std::move(NewRow));
      }
    }
    StreamRow &R = Streams[Last].second;
    unsigned Kd = static_cast<unsigned>(Bucket(E));
    double S = T.ts(E) - Start, En = S + T.dur(E);
    R.Busy += T.dur(E);
    for (unsigned B = std::min<unsigned>(Buckets - 1, std::max(0.0, S / BW));
         B < Buckets && B * BW < En; ++B)
      R.Kind[Kd][B] += std::max(0.0, std::min(En, (B + 1) * BW) -
                                         std::max(S, B * BW));
  }
  std::sort(Streams.begin(), Streams.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<StreamRow *> Rows;
  for (auto &[K, R] : Streams)
    Rows.push_back(&R);
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const StreamRow *A, const StreamRow *B) {
                     return A->Busy > B->Busy;
                   });
  size_t Hidden = Rows.size() > MaxStreams ? Rows.size() - MaxStreams : 0;
  Rows.resize(std::min<size_t>(Rows.size(), MaxStreams));

  int H = Top + (Rows.size() + 1) * (RowH + 6) + 106;
  svgBegin(OS, W, H, Title);
  // Adjacent bucket columns must not show anti-aliasing seams.
  OS << "<g shape-rendering=\"crispEdges\">\n";
  OS << "<text x=\"" << W / 2 << "\" y=\"30\" text-anchor=\"middle\" "
        "font-size=\"18\" font-weight=\"bold\">"
     << htmlText(Title) << "</text>\n";
  if (!TL.hasGpuEvents()) {
    OS << "<text x=\"" << W / 2 << "\" y=\"" << Top + 20
       << "\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">No GPU "
          "events in this trace</text>\n</g>\n</svg>\n";
    return;
  }
  double CW = double(PlotW) / Buckets;
  auto Column = [&](int Y, unsigned B, double Comp, double Comm, double Copy) {
    double Y0 = Y + RowH;
    const std::pair<double, StringRef> Parts[] = {
        {Comp, CompColor}, {Comm, CommColor}, {Copy, CopyColor}};
    OS << "<rect x=\"" << num(X0 + B * CW) << "\" y=\"" << Y << "\" width=\""
       << num(CW) << "\" height=\"" << RowH << "\" fill=\"" << IdleColor
       << "\"/>\n";
    for (const auto &[Frac, Color] : Parts) {
      double F = std::clamp(Frac, 0.0, 1.0);
      if (F <= 0)
        continue;
      double Hh = F * RowH;
      Y0 -= Hh;
      OS << "<rect x=\"" << num(X0 + B * CW) << "\" y=\"" << num(Y0)
         << "\" width=\"" << num(CW) << "\" height=\"" << num(Hh)
         << "\" fill=\"" << Color << "\"/>\n";
    }
  };
  // Whole GPU: computation, then exposed communication and memcpy.
  int Y = Top;
  OS << "<text x=\"" << X0 - 8 << "\" y=\"" << Y + RowH - 6
     << "\" text-anchor=\"end\" font-size=\"12\" font-weight=\"bold\">All "
        "(exposed)</text>\n";
  for (unsigned B = 0; B < Buckets; ++B) {
    double A = Start + B * BW, E = A + BW;
    double Busy = overlap(TL.mergedAll(), A, E);
    double Comp = overlap(TL.merged(GpuBucket::Computation), A, E);
    double Comm = std::min(overlap(TL.merged(GpuBucket::Communication), A, E),
                           Busy - Comp);
    double Copy = std::max(0.0, Busy - Comp - std::max(0.0, Comm));
    Column(Y, B, Comp / BW, std::max(0.0, Comm) / BW, Copy / BW);
  }
  for (StreamRow *R : Rows) {
    Y += RowH + 6;
    OS << "<text x=\"" << X0 - 8 << "\" y=\"" << Y + RowH - 6
       << "\" text-anchor=\"end\" font-size=\"12\">" << htmlText(R->Label)
       << "</text>\n";
    for (unsigned B = 0; B < Buckets; ++B)
      Column(Y, B, R->Kind[0][B] / BW, R->Kind[1][B] / BW,
             R->Kind[2][B] / BW);
  }
  // Step boundaries inside the plotted span, dashed over every row.
  auto XOf = [&](double Us) { return X0 + (Us - Start) / Span * PlotW; };
  int PlotBottom = Y + RowH;
  auto Marker = [&](double Us, const std::string &Label, StringRef Short) {
    if (Us < Start || Us > Start + Span)
      return;
    double X = XOf(Us);
    OS << "<line class=\"step\" x1=\"" << num(X) << "\" y1=\"" << Top - 6
       << "\" x2=\"" << num(X) << "\" y2=\"" << PlotBottom
       << "\" stroke=\"#333\" stroke-dasharray=\"4,3\"><title>"
       << htmlText(Label) << "</title></line>\n";
    OS << "<text x=\"" << num(X + 3) << "\" y=\"" << Top - 8
       << "\" font-size=\"10\">" << htmlText(Short) << "</text>\n";
  };
  for (const ProfilerStep &St : Steps) {
    std::string N = St.Number >= 0 ? std::to_string(St.Number) : "?";
    Marker(St.Start, "ProfilerStep#" + N, "#" + N);
  }
  if (!Steps.empty()) {
    std::string N =
        Steps.back().Number >= 0 ? std::to_string(Steps.back().Number) : "?";
    Marker(Steps.back().End, "end of ProfilerStep#" + N, "end #" + N);
  }
  // Ticks: 1-2-5 steps in ms from the trace start, about six over the span.
  Y += RowH + 22;
  double OffMs = (Start - TraceStartUs) / 1000, SpanMs = Span / 1000;
  double Raw = SpanMs / 6, Mag = std::pow(10.0, std::floor(std::log10(Raw)));
  double Step = 10 * Mag;
  for (double M : {1.0, 2.0, 5.0})
    if (M * Mag >= Raw * (1 - 1e-9)) {
      Step = M * Mag;
      break;
    }
  int Decimals = std::max(0, int(-std::floor(std::log10(Step) + 1e-9)));
  OS << "<g id=\"timeline-axis\" data-x0=\"" << X0 << "\" data-w=\"" << PlotW
     << "\" data-start-ms=\"" << fixed(OffMs, 6) << "\" data-ms=\""
     << fixed(SpanMs, 6) << "\">\n";
  for (long long K = std::llround(std::ceil(OffMs / Step - 1e-9));
       K * Step <= OffMs + SpanMs + 1e-9 * Step; ++K) {
    double X = XOf(TraceStartUs + K * Step * 1000);
    OS << "<line x1=\"" << num(X) << "\" y1=\"" << PlotBottom << "\" x2=\""
       << num(X) << "\" y2=\"" << PlotBottom + 5 << "\" stroke=\"#333\"/>\n";
    OS << "<text class=\"tick\" x=\"" << num(X) << "\" y=\"" << Y
       << "\" text-anchor=\"middle\" font-size=\"11\">"
       << fixed(K * Step, Decimals) << "</text>\n";
  }
  OS << "</g>\n";
  Y += 16;
  OS << "<text x=\"" << X0 << "\" y=\"" << Y << "\" font-size=\"11\">"
     << "ms from the trace start (GPU span " << fixed(SpanMs, 3)
     << " ms)</text>\n";
  if (Hidden)
    OS << "<text x=\"" << X0 + PlotW << "\" y=\"" << Y
       << "\" text-anchor=\"end\" font-size=\"11\">(" << Hidden
       << " less busy stream(s) not shown)</text>\n";
  Y += 24;
  const std::pair<StringRef, StringRef> Legend[] = {
      {"computation", CompColor},
      {"communication", CommColor},
      {"memcpy", CopyColor},
      {"idle", IdleColor}};
  int LX = X0;
  for (const auto &[Name, Color] : Legend) {
    OS << "<rect x=\"" << LX << "\" y=\"" << Y - 11 << "\" width=\"14\" "
       << "height=\"14\" fill=\"" << Color << "\" stroke=\"#999\"/>\n";
    OS << "<text x=\"" << LX + 20 << "\" y=\"" << Y << "\" font-size=\"12\">"
       << Name << "</text>\n";
    LX += 150;
  }
  OS << "</g>\n</svg>\n";
}

class ChartEmitter final : public Emitter {
public:
  StringRef name() const override { return "charts"; }
  Error emit(const ReportContext &Ctx) override {
    const ReportModel &M = ReportModel::of(Ctx);
    if (Error E = writeFileAtomically(
            Ctx.OutputDir, "performance_breakdown.svg", [&](raw_ostream &OS) {
              renderBreakdownSvg(OS, Ctx, M);
            }))
      return E;
    if (Error E = writeFileAtomically(
            Ctx.OutputDir, "gpu_timeline.svg",
            [&](raw_ostream &OS) { renderTimelineSvg(OS, Ctx); }))
      return E;
    if (Error E = writeFileAtomically(
            Ctx.OutputDir, "top_kernels.svg", [&](raw_ostream &OS) {
              renderTopKernelsSvg(OS, Ctx, chartSubject(Ctx) + " — Top Kernels");
            }))
      return E;
    if (Error E = writeFileAtomically(
            Ctx.OutputDir, "idle_by_cause.svg", [&](raw_ostream &OS) {
              renderIdleByCauseSvg(OS, Ctx,
                                   chartSubject(Ctx) + " — GPU Idle by Cause");
            }))
      return E;
    if (hasCompareChart(Ctx))
      if (Error E = writeFileAtomically(
              Ctx.OutputDir, "compare_categories.svg", [&](raw_ostream &OS) {
                renderCompareSvg(OS, Ctx,
                                 chartSubject(Ctx) +
                                     " — Per-Category Time, Trace 1 vs 2");
              }))
        return E;
    // No arch or no modelled op: no roofline.svg; analysis.md says why.
    if (rooflineUnavailable(Ctx))
      return Error::success();
    return writeFileAtomically(
        Ctx.OutputDir, "roofline.svg", [&](raw_ostream &OS) {
          renderRooflineSvg(OS, Ctx, chartSubject(Ctx) + " — Roofline");
        });
  }
};

} // namespace

std::string chartSubject(const ReportContext &Ctx) {
  const WorkloadInfo &W = Ctx.AM.get<WorkloadInfo>();
  const auto &Arch = Ctx.AM.options().Arch;
  return W.title() + " on " + (Arch ? Arch->Name : "GPU");
}

void renderBreakdownSvg(raw_ostream &OS, const ReportContext &Ctx,
                        const ReportModel &M) {
  writeBreakdown(OS, M, chartSubject(Ctx) + " — Performance Breakdown");
}

void renderTimelineSvg(raw_ostream &OS, const ReportContext &Ctx) {
  writeTimeline(OS, Ctx.T, Ctx.AM.get<GpuTimeline>(), traceStartUs(Ctx.T),
                collectProfilerSteps(Ctx.T),
                chartSubject(Ctx) + " — GPU Timeline");
}

std::unique_ptr<Emitter> createChartEmitter() {
  return std::make_unique<ChartEmitter>();
}

} // namespace tl
