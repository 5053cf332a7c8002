//===- PassInstrumentation.cpp - Hooks around passes and analyses ---------===//
#include "tl/Pass/PassInstrumentation.h"

#include "llvm/ADT/STLExtras.h"

namespace tl {

PassInstrumentation::~PassInstrumentation() = default;
PassInstrumentor::PassInstrumentor() = default;
PassInstrumentor::~PassInstrumentor() = default;

void PassInstrumentor::addInstrumentation(
    std::unique_ptr<PassInstrumentation> PI) {
  Instrumentations.push_back(std::move(PI));
}

void PassInstrumentor::runBeforePipeline(
    llvm::ArrayRef<std::unique_ptr<Pass>> Passes, const Trace &T) {
  for (auto &PI : Instrumentations)
    PI->runBeforePipeline(Passes, T);
}

void PassInstrumentor::runAfterPipeline(llvm::ArrayRef<PassResult> Results,
                                        const Trace &T) {
  for (auto &PI : llvm::reverse(Instrumentations))
    PI->runAfterPipeline(Results, T);
}

void PassInstrumentor::runBeforePass(const Pass &P, const Trace &T) {
  for (auto &PI : Instrumentations)
    PI->runBeforePass(P, T);
}

void PassInstrumentor::runAfterPass(const Pass &P, const Trace &T,
                                    const PassResult &R) {
  for (auto &PI : llvm::reverse(Instrumentations))
    PI->runAfterPass(P, T, R);
}

void PassInstrumentor::runBeforeAnalysis(llvm::StringRef Name,
                                         const Trace &T) {
  for (auto &PI : Instrumentations)
    PI->runBeforeAnalysis(Name, T);
}

void PassInstrumentor::runAfterAnalysis(const AnalysisTiming &Timing,
                                        const Trace &T) {
  for (auto &PI : llvm::reverse(Instrumentations))
    PI->runAfterAnalysis(Timing, T);
}

} // namespace tl
