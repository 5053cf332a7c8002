//===- YamlSyntax.h - a YAML text checked before yaml-cpp reads it -*- C++ -*-===//
//
// yaml-cpp 0.7 reads some malformed texts without a word (",i" alone is an
// empty document), stops deep nesting with a bare "bad file", and reads
// only the first of several documents. Settings, arch and deviation files
// are therefore parsed first by LLVM's YAML parser, which reports errors
// with a position and is walked here with an explicit stack; only a text
// that passes goes on to yaml-cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_YAMLSYNTAX_H
#define TL_SUPPORT_YAMLSYNTAX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tl {

/// Collections nested deeper than this are refused: no settings or arch
/// file needs more than three levels.
inline constexpr unsigned MaxYamlDepth = 256;

/// Success when Text is one well-formed YAML document with scalar mapping
/// keys and at most MaxYamlDepth nested collections; otherwise an error
/// "line L, column C: <what>" (no file name: callers add it).
llvm::Error checkYamlSyntax(llvm::StringRef Text);

} // namespace tl

#endif // TL_SUPPORT_YAMLSYNTAX_H
