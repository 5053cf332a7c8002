//===- ImporterFuzzer.cpp - libFuzzer target over the trace importer ------===//
//
// Feeds arbitrary bytes (plain or gzip JSON) to importTraceFromBuffer. An
// input may be refused with an error, but never crash, hang or leak; an
// accepted trace must pass the IR verifier and print. Limits keep each run
// small so libFuzzer explores breadth instead of inflating bombs.
//
//===----------------------------------------------------------------------===//
#include "tl/IR/Printer.h"
#include "tl/IR/Verifier.h"
#include "tl/Import/Importer.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  tl::ImportOptions Opts;
  Opts.MaxEvents = 100000;
  Opts.MaxBytes = 64u << 20;
  Opts.MaxMemory = 256u << 20;
  llvm::StringRef Buf(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<tl::Trace> T = tl::importTraceFromBuffer(Buf, "fuzz", Opts);
  if (!T) {
    llvm::consumeError(T.takeError());
    return 0;
  }
  if (llvm::Error E = tl::verifyTrace(*T)) {
    llvm::errs() << "accepted trace fails the verifier: "
                 << llvm::toString(std::move(E)) << "\n";
    std::abort();
  }
  llvm::raw_null_ostream Null;
  tl::printTrace(*T, Null);
  tl::printTraceSummary(*T, Null);
  return 0;
}
