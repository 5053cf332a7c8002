//===- OneLineError.h - the fuzzers' rule for a refused input -*- C++ -*-===//
//
// A settings or arch text may be refused, but only with one line that
// starts with the file's name (tl-opt prints it after "tl-opt: error: ").
//
//===----------------------------------------------------------------------===//
#ifndef TL_TEST_FUZZ_ONELINEERROR_H
#define TL_TEST_FUZZ_ONELINEERROR_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

/// Aborts (a fuzzer finding) unless E's text is one line starting "File: ".
inline void requireOneLineError(llvm::Error E, llvm::StringRef File) {
  std::string Msg = llvm::toString(std::move(E));
  if (!llvm::StringRef(Msg).starts_with((File + ": ").str()) ||
      Msg.find('\n') != std::string::npos) {
    llvm::errs() << "error is not one line naming the file: " << Msg << "\n";
    std::abort();
  }
}

#endif // TL_TEST_FUZZ_ONELINEERROR_H
