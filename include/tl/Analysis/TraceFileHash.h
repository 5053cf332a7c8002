//===- TraceFileHash.h - Hash of the trace file, as an analysis -*- C++ -*-===//
//
// findings.json names the trace by "xxh3_128:<32 hex digits>" of the file's
// bytes as stored (a .json.gz hashes its compressed bytes). Reading a GB
// file to hash it is a third of a second of CPU: as an analysis it is
// computed on the pool with the others instead of on the report's serial
// path.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_TRACEFILEHASH_H
#define TL_ANALYSIS_TRACEFILEHASH_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tl {

class AnalysisManager;

/// "xxh3_128:<32 hex digits>" of the file at Path and its size; "" (size
/// 0) when the file cannot be read.
std::string traceFileHash(llvm::StringRef Path, uint64_t &Size);

class TraceFileHash {
public:
  static constexpr llvm::StringLiteral Name = "trace-file-hash";
  /// Hashes T.sourcePath().
  TraceFileHash(const Trace &T, AnalysisManager &AM);

  llvm::StringRef path() const { return Path; }
  llvm::StringRef hash() const { return Hash; }
  uint64_t size() const { return Size; }

private:
  std::string Path, Hash;
  uint64_t Size = 0;
};

} // namespace tl

#endif // TL_ANALYSIS_TRACEFILEHASH_H
