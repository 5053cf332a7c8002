//===- OutOfMemory.h - a clean exit when an allocation fails ----*- C++ -*-===//
//
// The memory budget (--max-memory) is an estimate; under `ulimit -v` or a
// cgroup limit an allocation can still fail first. LLVM then prints a crash
// report and aborts (rc 134). A tool would rather end as for any resource
// limit: one line naming the trace, exit 1. The previous report is safe:
// every file is renamed into place only when complete.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_OUTOFMEMORY_H
#define TL_SUPPORT_OUTOFMEMORY_H

#include "llvm/ADT/StringRef.h"

namespace tl {

/// Makes a failed allocation print "<Tool>: error: <trace>: out of memory
/// ..." and exit 1. For tools only: a library host (Python) keeps its own
/// policy. Tool must outlive the process (a literal).
void exitOnOutOfMemory(const char *Tool);

/// The trace the next out-of-memory message names (cut to 1 KiB).
void setOutOfMemoryContext(llvm::StringRef TracePath);

} // namespace tl

#endif // TL_SUPPORT_OUTOFMEMORY_H
