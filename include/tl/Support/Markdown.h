//===- Markdown.h - Text that CommonMark/GFM renders exactly ----*- C++ -*-===//
//
// Kernel and op names carry `<`, `>`, `*`, `_`, backticks and `|`; written
// raw into markdown they become HTML tags, links or emphasis. These helpers
// write any text so that a CommonMark/GFM renderer (cmark-gfm) shows it
// verbatim: names as code spans, other text backslash-escaped.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_MARKDOWN_H
#define TL_SUPPORT_MARKDOWN_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

/// S as a code span: fenced by one backtick more than its longest backtick
/// run, padded with a space when it starts or ends with a backtick or a
/// space. Newlines become spaces. InTable: `|` escaped as `\|` (a GFM table
/// cell ends at any unescaped `|`, even inside a code span).
std::string mdCode(llvm::StringRef S, bool InTable = false);

/// S as inline text with the characters that could start markup escaped
/// (`\ ` * < & ~ | [`, and `_` unless it sits between two
/// alphanumerics, where it cannot delimit emphasis). Newlines become
/// spaces.
std::string mdEscape(llvm::StringRef S);

/// The text a renderer shows for Markdown produced by mdCode or mdEscape
/// (code-span fences removed, backslash escapes resolved). For reading
/// table cells back (tl-opt --validate-report).
std::string mdPlain(llvm::StringRef S);

} // namespace tl

#endif // TL_SUPPORT_MARKDOWN_H
