//===- ImporterFuzzer.cpp - libFuzzer target over the trace importer ------===//
//
// Feeds arbitrary bytes (plain or gzip JSON) to importTraceFromBuffer. An
// input may be refused with an error, but never crash, hang or leak; an
// accepted trace must pass the IR verifier and print. Limits keep each run
// small so libFuzzer explores breadth instead of inflating bombs. The input
// is imported a second time with the second parser thread starting at a
// guessed split (taken from the input's last byte): the printed IR or the
// error must be the one-thread import's. Finally the bytes are parsed by
// JsonReader and by RapidJSON's reader (the one JsonReader replaces): the
// handler calls, the stream offsets at them, the error code and offset must
// be the same, over the importer's stream and over tiny chunks.
//
//===----------------------------------------------------------------------===//
#include "tl/IR/Printer.h"
#include "tl/IR/Verifier.h"
#include "tl/Import/Importer.h"

#include "llvm/Support/raw_ostream.h"

#include "../Unit/Import/JsonReaderDiff.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

/// The printed IR, or the error text.
static std::string importText(llvm::StringRef Buf, const tl::ImportOptions &O) {
  llvm::Expected<tl::Trace> T = tl::importTraceFromBuffer(Buf, "fuzz", O);
  if (!T)
    return "error: " + llvm::toString(T.takeError());
  if (llvm::Error E = tl::verifyTrace(*T)) {
    llvm::errs() << "accepted trace fails the verifier: "
                 << llvm::toString(std::move(E)) << "\n";
    std::abort();
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  tl::printTrace(*T, OS);
  tl::printTraceSummary(*T, OS);
  return Out;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  tl::ImportOptions Opts;
  Opts.MaxEvents = 100000;
  Opts.MaxBytes = 64u << 20;
  Opts.MaxMemory = 256u << 20;
  Opts.Threads = 1;
  llvm::StringRef Buf(reinterpret_cast<const char *>(Data), Size);
  std::string One = importText(Buf, Opts);
  tl::ImportOptions Two = Opts;
  Two.Threads = 2;
  Two.SplitMinBytes = 0;
  Two.SplitOffset = Size ? 1 + Data[Size - 1] * Size / 256 : 0;
  if (importText(Buf, Two) != One) {
    llvm::errs() << "the two-thread import differs from the one-thread one\n";
    std::abort();
  }
  // The first byte picks a string limit (sometimes) and the chunk size.
  std::string Doc(Buf);
  uint64_t Limit = Size && Data[0] % 4 == 0 ? 200 + Data[0] * 4 : 0;
  size_t Chunk = 1 + (Size ? Data[0] : 0) % 7;
  using namespace tl::test;
  Outcome Ref = rapid<false>(Doc, Limit, 0);
  if (!sameOutcome(Ref, ours<false>(Doc, Limit, 0))) {
    llvm::errs() << "JsonReader differs from RapidJSON's reader\n";
    std::abort();
  }
  // (The tiny source reads the bytes as they are: no gzip, no BOM.)
  bool Raw = !(Size >= 2 && Data[0] == 0x1f && Data[1] == 0x8b) &&
             !(Size >= 3 && Data[0] == 0xEF && Data[1] == 0xBB &&
               Data[2] == 0xBF);
  if (Raw && !sameOutcome(Ref, oursTiny<false>(Doc, Chunk, Limit, 0))) {
    llvm::errs() << "JsonReader over " << Chunk
                 << "-byte chunks differs from RapidJSON's reader\n";
    std::abort();
  }
  if (Raw && Size && Data[Size - 1] % 2 &&
      !sameOutcome(rapid<true>(Doc, Limit, 0),
                   oursTiny<true>(Doc, Chunk, Limit, 0))) {
    llvm::errs() << "JsonReader (stop when done) differs from RapidJSON\n";
    std::abort();
  }
  return 0;
}
