//===- TraceSplice.h - Copy a trace with events appended --------*- C++ -*-===//
//
// Copies a Chrome-trace JSON file (plain or gzip, read as the importer reads
// it: InputStream, the BOM skipped) byte for byte, with more elements
// inserted at the end of its top-level `traceEvents` array, so every
// original entry, key and number text comes back unchanged and the original
// entries keep their positions (the importer's uids). The copy ends at the
// top-level object's closing brace: whatever the importer tolerated after it
// (a NUL byte and anything behind) is dropped, so the copy is always one
// JSON document. The structure is found by a small scanner (strings,
// escapes, nesting), not by a parse; the input is one the importer read.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_TRACESPLICE_H
#define TL_INPUT_TRACESPLICE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class raw_ostream;
}

namespace tl {

/// Write the JSON at Path to OS with Append's text placed before the `]`
/// that closes the top-level traceEvents array. Append receives whether the
/// array already has elements (then its text must start with a comma).
/// Errors (unreadable or corrupt input, no top-level object, no
/// traceEvents array, input ending early) name Path; OS then holds a
/// prefix of the copy.
llvm::Error
spliceTraceEvents(llvm::StringRef Path, llvm::raw_ostream &OS,
                  llvm::function_ref<void(llvm::raw_ostream &, bool)> Append);

} // namespace tl

#endif // TL_INPUT_TRACESPLICE_H
