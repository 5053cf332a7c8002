//===- tl-opt.cpp - the tl driver -----------------------------------------===//
// Placeholder driver; replaced by the pass-infrastructure work.
#include "tl/Support/Version.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv, "tl-opt\n");
  llvm::outs() << "tl-opt " << TL_VERSION_STRING << " (" << TL_GIT_HASH << ")\n";
  return 0;
}
