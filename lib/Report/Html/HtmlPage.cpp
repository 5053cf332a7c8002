//===- HtmlPage.cpp - A markdown report as one HTML page -------------------===//
//
// The page around markdownToHtml's fragment, shared by analysis.html of a
// trace (HtmlReportEmitter.cpp) and of a job (tl/Report/HtmlPage.h): the
// style, the click-to-sort script, and a Content-Security-Policy that
// allows only them (by hash) and data: images, so nothing is fetched.
//
//===----------------------------------------------------------------------===//
#include "MarkdownHtml.h"

#include "tl/Report/Emitter.h"
#include "tl/Report/HtmlPage.h"

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

} // namespace

void writeHtmlDocument(raw_ostream &OS, StringRef Md,
                       const MarkdownHtmlOptions &Opts, StringRef Generator) {
  StringRef Title = Md.split('\n').first;
  if (!Title.consume_front("# "))
    Title = "tl report";
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
     << "<meta charset=\"utf-8\">\n"
     << "<meta http-equiv=\"Content-Security-Policy\" "
        "content=\"default-src 'none'; img-src data:; style-src "
     << cspHash(Style) << "; script-src " << cspHash(Script) << "\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n"
     << "<meta name=\"generator\" content=\"" << htmlText(Generator)
     << "\">\n"
     << "<title>" << htmlText(Title) << "</title>\n"
     << "<style>" << Style << "</style>\n</head>\n<body>\n<main>\n";
  markdownToHtml(Md, Opts, OS);
  OS << "</main>\n<script>" << Script << "</script>\n</body>\n"
     << "</html>\n";
}

Error writeMarkdownHtmlPage(StringRef Dir, StringRef FileName,
                            StringRef Markdown, const HtmlImages &Images,
                            StringRef Generator) {
  MarkdownHtmlOptions Opts;
  Opts.InlineImages = Images;
  // A report outside the emitters writes its own cells (a job's rank
  // links); names from a trace are in code spans there.
  Opts.LinksInCells = true;
  return writeFileAtomically(Dir, FileName, [&](raw_ostream &OS) {
    writeHtmlDocument(OS, Markdown, Opts, Generator);
  });
}

} // namespace tl
