//===- ArchFuzzer.cpp - libFuzzer target over --arch files ----------------===//
//
// Feeds arbitrary bytes to parseArchSpec, the reader behind --arch FILE. A
// text may be refused, but only with one line naming the file; it must
// never crash, hang or leak. An accepted arch has a name and only finite,
// positive peaks (every roofline divides by them).
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/ArchSpec.h"

#include "llvm/Support/raw_ostream.h"

#include "OneLineError.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

static bool positive(double D) { return std::isfinite(D) && D > 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<tl::ArchSpec> A = tl::parseArchSpec("fuzz.yaml", Text);
  if (!A) {
    requireOneLineError(A.takeError(), "fuzz.yaml");
    return 0;
  }
  bool Ok = !A->Name.empty() && positive(A->MemBwGBps) &&
            (A->MemoryGB == 0 || positive(A->MemoryGB));
  for (const auto &P : A->MaxTflops)
    Ok = Ok && positive(P.second);
  if (!Ok) {
    llvm::errs() << "accepted arch has an empty name or a bad peak\n";
    std::abort();
  }
  return 0;
}
