//===- TimeTraceInstrumentation.cpp - --time-trace on the hooks -----------===//
//
// llvm::timeTraceProfilerBegin/End are no-ops on threads without a profiler
// (TimeTraceThreadScope starts one per worker), so every hook may call them.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/Instrumentations.h"
#include "tl/Pass/Pass.h"

#include "llvm/Support/TimeProfiler.h"

using namespace llvm;

namespace tl {

void TimeTraceInstrumentation::runBeforePass(const Pass &P, const Trace &) {
  timeTraceProfilerBegin("pass", P.getArgument());
}

void TimeTraceInstrumentation::runAfterPass(const Pass &, const Trace &,
                                            const PassResult &) {
  timeTraceProfilerEnd();
}

void TimeTraceInstrumentation::runBeforeAnalysis(StringRef Name,
                                                 const Trace &) {
  timeTraceProfilerBegin("analysis", Name);
}

void TimeTraceInstrumentation::runAfterAnalysis(const AnalysisTiming &,
                                                const Trace &) {
  timeTraceProfilerEnd();
}

} // namespace tl
