//===- Importer.h - Lowering trace files into the IR -----------*- C++ -*-===//
#ifndef TL_IMPORT_IMPORTER_H
#define TL_IMPORT_IMPORTER_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>

namespace tl {

struct ImportOptions {
  /// Refuse traces with more events than this (0 = no limit).
  uint64_t MaxEvents = 0;
  /// Refuse traces whose uncompressed JSON is larger than this (0 = no limit).
  uint64_t MaxBytes = 0;
  /// Stop when the trace's in-memory form (columns, strings, args arena,
  /// parser stack; approximate) would exceed this many bytes (0 = no limit).
  uint64_t MaxMemory = 0;
  /// Refuse any single JSON string (or nesting) needing more parser memory
  /// than this many bytes, so a 1 GB name cannot exhaust memory.
  uint64_t MaxStringBytes = 256u << 20;
  /// Threads for reading: 0 (or more than 1) = when the machine has more
  /// than one core, inflate gzip input on a second thread, and parse the
  /// second part of a large input (plain, or gzip of at most 256 MB, which
  /// is then inflated into one buffer) on another; 1 = all on the calling
  /// thread. Results and error messages are the same either way.
  unsigned Threads = 0;
  /// Plain inputs smaller than this are parsed on one thread.
  uint64_t SplitMinBytes = 32u << 20;
  /// Byte offset from which the second thread looks for an event boundary
  /// to start at (0 = 24 % into plain input, 60 % into gzip input on fewer
  /// than three cores). For tests.
  uint64_t SplitOffset = 0;
  /// Called (on the calling thread) with the offset of the event boundary
  /// when the second thread's events were used. For tests.
  std::function<void(uint64_t SplitAt)> OnSplice;
  /// Called now and then with the number of uncompressed bytes read so far.
  std::function<void(uint64_t BytesRead)> Progress;
};

/// Import a Kineto / Chrome-trace JSON file (`.json` or `.json.gz`). Errors
/// read "<file>: offset <N>: <what was expected>".
llvm::Expected<Trace> importTrace(llvm::StringRef Path,
                                  const ImportOptions &Opts = {});

/// Import from memory (`Name` is used in diagnostics). Gzip is detected by
/// its magic bytes.
llvm::Expected<Trace> importTraceFromBuffer(llvm::StringRef Data,
                                            llvm::StringRef Name,
                                            const ImportOptions &Opts = {});

} // namespace tl

#endif // TL_IMPORT_IMPORTER_H
