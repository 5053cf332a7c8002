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
// style and script (by hash) and data: images. Names from the trace are
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
#include "llvm/Support/Base64.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {
namespace {

constexpr StringLiteral Style = R"css(
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:0;background:#f6f7f9;color:#1f2328;line-height:1.45}
main{max-width:1180px;margin:0 auto;padding:24px 32px 64px;background:#fff}
h1{font-size:1.7em;border-bottom:2px solid #d0d7de;padding-bottom:.3em}
h2{font-size:1.35em;border-bottom:1px solid #d0d7de;padding-bottom:.25em;margin-top:1.8em}
h3{font-size:1.15em;margin-top:1.4em}h4{font-size:1.05em;margin-top:1.3em}
table{border-collapse:collapse;margin:.6em 0;font-size:.86em;display:block;overflow-x:auto}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef1f4;cursor:pointer;white-space:nowrap;user-select:none}
th[data-dir=asc]::after{content:" \25B2"}th[data-dir=desc]::after{content:" \25BC"}
tbody tr:nth-child(even){background:#f8f9fb}
code{font-family:"DejaVu Sans Mono",monospace;font-size:.92em;background:#f1f3f5;padding:0 3px;word-break:break-all}
figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #e1e4e8}
figcaption{font-size:.85em;color:#57606a}
details{margin:.5em 0;border:1px solid #e1e4e8;border-radius:4px;padding:.2em .6em}
summary{cursor:pointer;font-weight:bold}summary .rows{font-weight:normal;color:#57606a}
blockquote{margin:.6em 0;padding:.2em 1em;border-left:4px solid #d0d7de;color:#424a53}
hr{border:0;border-top:1px solid #d0d7de;margin:1.5em 0}
)css";

// Click a header to sort by that column (numbers by value, else text);
// click again to reverse.
constexpr StringLiteral Script = R"js(
document.querySelectorAll("table.sortable").forEach(function(t){
var hs=t.tHead?t.tHead.rows[0].cells:[];
Array.prototype.forEach.call(hs,function(th,i){th.addEventListener("click",function(){
var dir=th.getAttribute("data-dir")==="asc"?"desc":"asc";
Array.prototype.forEach.call(hs,function(h){h.removeAttribute("data-dir");});
th.setAttribute("data-dir",dir);
var num=function(s){var m=s.replace(/,/g,"").match(/^\s*-?\d+(\.\d+)?(e[-+]?\d+)?/i);return m?parseFloat(m[0]):NaN;};
var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);
rows.sort(function(x,y){var a=x.cells[i]?x.cells[i].textContent:"",c=y.cells[i]?y.cells[i].textContent:"";
var na=num(a),nc=num(c),r=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);return dir==="asc"?r:-r;});
rows.forEach(function(r){b.appendChild(r);});});});});
)js";

std::string cspHash(StringRef Text) {
  std::array<uint8_t, 32> H = SHA256::hash(arrayRefFromStringRef(Text));
  return "'sha256-" + encodeBase64(H) + "'";
}

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

    StringRef Title = StringRef(Md).split('\n').first;
    if (!Title.consume_front("# "))
      Title = "tl report";
    return writeFileAtomically(
        Ctx.OutputDir, "analysis.html", [&](raw_ostream &OS) {
          OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
             << "<meta charset=\"utf-8\">\n"
             << "<meta http-equiv=\"Content-Security-Policy\" "
                "content=\"default-src 'none'; img-src data:; style-src "
             << cspHash(Style) << "; script-src " << cspHash(Script)
             << "\">\n"
             << "<meta name=\"viewport\" content=\"width=device-width, "
                "initial-scale=1\">\n"
             << "<meta name=\"generator\" content=\""
             << htmlText(Ctx.ToolVersion) << "\">\n"
             << "<title>" << htmlText(Title) << "</title>\n"
             << "<style>" << Style << "</style>\n</head>\n<body>\n<main>\n";
          markdownToHtml(Md, Opts, OS);
          OS << "</main>\n<script>" << Script << "</script>\n</body>\n"
             << "</html>\n";
        });
  }
};

} // namespace

std::unique_ptr<Emitter> createHtmlReportEmitter() {
  return std::make_unique<HtmlReportEmitter>();
}

} // namespace tl
