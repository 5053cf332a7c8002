//===- ConfigFuzzer.cpp - libFuzzer target over --config files ------------===//
//
// Feeds arbitrary bytes to parseSessionSettings, the reader behind
// --config. A text may be refused, but only with one line naming the file;
// it must never crash, hang or leak. Accepted settings are resolved over
// the defaults as tl-opt does.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/SessionOptions.h"

#include "llvm/Support/raw_ostream.h"

#include "OneLineError.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<tl::SessionSettings> S =
      tl::parseSessionSettings("fuzz.yaml", Text);
  if (!S) {
    requireOneLineError(S.takeError(), "fuzz.yaml");
    return 0;
  }
  tl::SessionOptions O = tl::resolveOptions(*S, tl::SessionSettings());
  (void)O;
  return 0;
}
