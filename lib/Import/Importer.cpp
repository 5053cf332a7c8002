//===- Importer.cpp - Kineto JSON importer (placeholder) ------------------===//
#include "tl/Import/Importer.h"
using namespace tl;
llvm::Expected<Trace> tl::importTraceFromBuffer(llvm::StringRef Data,
                                                llvm::StringRef Name,
                                                const ImportOptions &Opts) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Name + ": offset 0: importer not ready");
}
llvm::Expected<Trace> tl::importTrace(llvm::StringRef Path,
                                      const ImportOptions &Opts) {
  return importTraceFromBuffer("", Path, Opts);
}
