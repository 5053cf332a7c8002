//===- HtmlReportEmitter.cpp - analysis.html -------------------------------===//
//
// analysis.md for a browser, in one self-contained file: the markdown text
// of analysis.md (renderAnalysisMarkdown, so prose and structure changes
// show in both) converted by markdownToHtml, the two charts inlined as data:
// URIs, click-to-sort tables, folding evidence tables, and under every
// detailed P-item the exact kernels, ops, events and time ranges its finding
// points at (analysis.md shortens kernel names in its Data tables).
//
// Nothing is fetched: a Content-Security-Policy allows only the page's own
// style and script (by hash) and data: images (the page around the
// converted markdown is HtmlPage.cpp's, shared with a job's report). Names from the trace are
// always text, escaped, control characters removed.
//
//===----------------------------------------------------------------------===//
#include "../AnalysisMarkdown.h"
#include "../Charts.h"
#include "../PItemMarkdown.h"
#include "../ReportUtil.h"
#include "MarkdownHtml.h"

#include "tl/Analysis/TraceStart.h"
#include "tl/IR/Trace.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {
namespace {

/// The finding's locations, names verbatim (as text).
std::string locationsHtml(const Finding &F, const Trace &T) {
  if (F.Locations.empty())
    return "";
  size_t Kernels = 0;
  for (const Location &L : F.Locations)
    Kernels += L.K == Location::Kind::Kernel;
  std::string S;
  raw_string_ostream OS(S);
  OS << "<details class=\"where\"><summary>Where: " << F.Locations.size()
     << " location(s), " << Kernels
     << " kernel(s) <span class=\"rows\">(exact names)</span></summary>\n"
     << "<table class=\"sortable locations\"><thead><tr><th title=\"sort\">Kind</th>"
        "<th title=\"sort\">What</th></tr></thead>\n<tbody>\n";
  // Points in time as ms from the trace start, as in analysis.md.
  double Start = traceStartUs(T);
  for (const Location &L : F.Locations) {
    OS << "<tr><td>" << locationKindName(L.K) << "</td><td>";
    switch (L.K) {
    case Location::Kind::Kernel:
    case Location::Kind::Op:
      OS << "<code>" << htmlText(L.Name) << "</code>";
      break;
    case Location::Kind::Event: {
      OS << "uid " << L.Uid;
      EventId E = T.byUid(L.Uid);
      if (E != NoEvent)
        OS << ": <code>" << htmlText(T.name(E)) << "</code> at "
           << fixed((T.ts(E) - Start) / 1000, 3)
           << " ms from the trace start, " << fixed(T.dur(E), 3) << " µs";
      break;
    }
    case Location::Kind::TimeRange:
      OS << fixed((L.StartUs - Start) / 1000, 3) << " – "
         << fixed((L.EndUs - Start) / 1000, 3) << " ms from the trace start";
      break;
    }
    OS << "</td></tr>\n";
  }
  OS << "</tbody></table>\n</details>\n";
  return S;
}

class HtmlReportEmitter final : public Emitter {
public:
  StringRef name() const override { return "analysis-html"; }
  Error emit(const ReportContext &Ctx) override {
    const ReportModel &M = ReportModel::of(Ctx);
    std::string Md;
    raw_string_ostream MdOS(Md);
    renderAnalysisMarkdown(MdOS, Ctx, M);

    MarkdownHtmlOptions Opts;
    std::string Svg;
    raw_string_ostream SvgOS(Svg);
    renderBreakdownSvg(SvgOS, Ctx, M);
    Opts.InlineImages["performance_breakdown.svg"] = {"image/svg+xml", Svg};
    Svg.clear();
    renderTimelineSvg(SvgOS, Ctx);
    Opts.InlineImages["gpu_timeline.svg"] = {"image/svg+xml", Svg};
    Svg.clear();
    renderTopKernelsSvg(SvgOS, Ctx, chartSubject(Ctx) + " — Top Kernels");
    Opts.InlineImages["top_kernels.svg"] = {"image/svg+xml", Svg};
    Svg.clear();
    renderIdleByCauseSvg(SvgOS, Ctx,
                         chartSubject(Ctx) + " — GPU Idle by Cause");
    Opts.InlineImages["idle_by_cause.svg"] = {"image/svg+xml", Svg};
    if (hasCompareChart(Ctx)) {
      Svg.clear();
      renderCompareSvg(SvgOS, Ctx,
                       chartSubject(Ctx) + " — Per-Category Time, Trace 1 vs 2");
      Opts.InlineImages["compare_categories.svg"] = {"image/svg+xml", Svg};
    }
    if (hasCriticalPathChart(Ctx)) {
      Svg.clear();
      renderCriticalPathSvg(SvgOS, Ctx, chartSubject(Ctx) + " — Critical Path");
      Opts.InlineImages["critical_path.svg"] = {"image/svg+xml", Svg};
    }
    if (hasMemoryChart(Ctx)) {
      Svg.clear();
      renderMemorySvg(SvgOS, Ctx, chartSubject(Ctx) + " — GPU Memory");
      Opts.InlineImages["memory.svg"] = {"image/svg+xml", Svg};
    }
    if (!rooflineUnavailable(Ctx)) {
      Svg.clear();
      renderRooflineSvg(SvgOS, Ctx, chartSubject(Ctx) + " — Roofline");
      Opts.InlineImages["roofline.svg"] = {"image/svg+xml", Svg};
    }
    Opts.CollapsibleSection = "Detailed Analysis";
    for (Tier T : {Tier::Compute, Tier::Fusion, Tier::System})
      for (const PItem &P : M.items(T))
        Opts.AfterAnchor[detailAnchor(T, P.Rank)] =
            locationsHtml(*P.F, Ctx.T);

    return writeFileAtomically(Ctx.OutputDir, "analysis.html",
                               [&](raw_ostream &OS) {
                                 writeHtmlDocument(OS, Md, Opts,
                                                   Ctx.ToolVersion);
                               });
  }
};

} // namespace

std::unique_ptr<Emitter> createHtmlReportEmitter() {
  return std::make_unique<HtmlReportEmitter>();
}

} // namespace tl
