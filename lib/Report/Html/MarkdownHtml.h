//===- MarkdownHtml.h - analysis.md's markdown as HTML ----------*- C++ -*-===//
//
// Private to lib/Report: turns the markdown tl writes (headings, pipe tables,
// lists, quotes, fences, bold / italic / code spans, links, images, <br>,
// <a id> anchors and tl's HTML-comment markers) into HTML. Every piece of
// text is escaped: the only tags in the output are the ones this converter
// writes, so nothing a trace puts into a name becomes markup. Links are kept
// only when they point inside the page or at a relative file.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_HTML_MARKDOWNHTML_H
#define TL_LIB_REPORT_HTML_MARKDOWNHTML_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>

namespace llvm {
class raw_ostream;
}

namespace tl {

struct MarkdownHtmlOptions {
  /// `![alt](File)` of these files become <img> with the image inlined as
  /// a data: URI (file name -> MIME type and bytes).
  std::map<std::string, std::pair<std::string, std::string>> InlineImages;
  /// Tables under this level-2 heading fold (<details>); the `*Title*` or
  /// `**Title:**` line just above one becomes its summary.
  std::string CollapsibleSection;
  /// `[text](file)` inside table cells becomes a link too (a trace's
  /// names in cells may hold brackets: off for its report).
  bool LinksInCells = false;
  /// Tables with more rows than this start folded.
  unsigned OpenTableRows = 10;
  /// HTML written where the block an `<a id="X"></a>` line starts ends (at
  /// the next anchor line, the next heading of level <= 3, or the end).
  std::map<std::string, std::string> AfterAnchor;
};

/// Convert Markdown to an HTML fragment (the <body>'s content).
void markdownToHtml(llvm::StringRef Markdown, const MarkdownHtmlOptions &Opts,
                    llvm::raw_ostream &OS);

/// The whole page: head (title = Markdown's "# " line, the style and
/// script allowed by hash), the converted Markdown, the script.
void writeHtmlDocument(llvm::raw_ostream &OS, llvm::StringRef Markdown,
                       const MarkdownHtmlOptions &Opts,
                       llvm::StringRef Generator);

/// S as HTML text: `& < > " '` escaped, control characters (C0, DEL, C1)
/// removed, bytes that are not UTF-8 replaced by U+FFFD.
std::string htmlText(llvm::StringRef S);

/// S with the control characters removed and bytes that are not UTF-8
/// replaced, unescaped (what a browser shows for htmlText(S)).
std::string visibleText(llvm::StringRef S);

} // namespace tl

#endif // TL_LIB_REPORT_HTML_MARKDOWNHTML_H
