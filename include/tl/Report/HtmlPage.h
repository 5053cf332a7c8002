//===- HtmlPage.h - A markdown report as one HTML page ----------*- C++ -*-===//
//
// For reports outside the emitters (a job's analysis.md, JobReport.h): the
// markdown converted as a trace's analysis.html is (same converter, style,
// sortable tables and Content-Security-Policy), its images inlined.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_HTMLPAGE_H
#define TL_REPORT_HTMLPAGE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <utility>

namespace tl {

/// Image path as the markdown links it -> (MIME type, bytes).
using HtmlImages = std::map<std::string, std::pair<std::string, std::string>>;

/// Write Dir/FileName (atomically): Markdown as one self-contained page,
/// the `![..](path)` of Images inlined as data: URIs.
llvm::Error writeMarkdownHtmlPage(llvm::StringRef Dir, llvm::StringRef FileName,
                                  llvm::StringRef Markdown,
                                  const HtmlImages &Images,
                                  llvm::StringRef Generator);

} // namespace tl

#endif // TL_REPORT_HTMLPAGE_H
