//===- ProgressInstrumentation.cpp - Pass progress on the hooks -----------===//
#include "tl/Driver/Instrumentations.h"
#include "tl/Pass/Pass.h"

using namespace llvm;

namespace tl {

void ProgressInstrumentation::runBeforePipeline(
    ArrayRef<std::unique_ptr<Pass>> Passes, const Trace &) {
  std::lock_guard<std::mutex> L(M);
  Done = 0;
  Total = Passes.size();
}

void ProgressInstrumentation::runAfterPass(const Pass &P, const Trace &,
                                           const PassResult &) {
  std::lock_guard<std::mutex> L(M);
  OS << ToolName << ": passes " << ++Done << "/" << Total << " ("
     << P.getArgument() << ")\x1b[K\r";
}

void ProgressInstrumentation::runAfterPipeline(ArrayRef<PassResult>,
                                               const Trace &) {
  std::lock_guard<std::mutex> L(M);
  OS << "\x1b[K";
}

} // namespace tl
