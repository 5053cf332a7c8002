//===- TraceFileHash.cpp - Hash of the trace file, as an analysis --------===//
#include "tl/Analysis/TraceFileHash.h"

#include "tl/Support/FileHash.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

using namespace tl;

std::string tl::traceFileHash(llvm::StringRef Path, uint64_t &Size) {
  // Read in chunks: mapping the file would make a GB trace resident.
  Size = 0;
  // A pipe or a device was consumed by the import; opening it again would
  // wait for a writer that is gone. Only regular files get a hash.
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St) || !llvm::sys::fs::is_regular_file(St))
    return "";
  auto H = xxh3_128File(Path, Size);
  if (!H) {
    llvm::consumeError(H.takeError());
    Size = 0;
    return "";
  }
  return "xxh3_128:" + llvm::utohexstr(H->high64, true, 16) +
         llvm::utohexstr(H->low64, true, 16);
}

TraceFileHash::TraceFileHash(const Trace &T, AnalysisManager &)
    : Path(T.sourcePath().str()) {
  Hash = traceFileHash(Path, Size);
}
