//===- BoundedJson.h - llvm::json::parse with a nesting bound ---*- C++ -*-===//
//
// llvm::json::parse (and json::Value's destructor) recurse once per nesting
// level, so a file of a million '[' overflows the stack. Files tl reads
// back that a user may have edited (a report under --validate-report) go
// through parseJsonBounded, which first measures the depth iteratively.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_BOUNDEDJSON_H
#define TL_SUPPORT_BOUNDEDJSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace tl {

/// Deeper than any report tl writes (findings.json nests 6 levels).
constexpr unsigned MaxJsonDepth = 256;

/// json::parse(Text), or an error "nesting deeper than N at offset K" when
/// arrays and objects nest deeper than MaxDepth.
llvm::Expected<llvm::json::Value> parseJsonBounded(llvm::StringRef Text,
                                                   unsigned MaxDepth =
                                                       MaxJsonDepth);

} // namespace tl

#endif // TL_SUPPORT_BOUNDEDJSON_H
