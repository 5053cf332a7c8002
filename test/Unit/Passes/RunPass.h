//===- RunPass.h - Run one registered pass over a trace ---------*- C++ -*-===//
#ifndef TL_TEST_UNIT_PASSES_RUNPASS_H
#define TL_TEST_UNIT_PASSES_RUNPASS_H

#include "tl/Analysis/AnalysisManager.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/PassManager.h"
#include "tl/Pass/PassPipeline.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/Finding.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>
#include <vector>

namespace tl::test {

/// Run Pipeline (passes registered by Register) on T on one thread; every
/// pass's result (findings, artifacts, typed report data).
template <typename RegisterFn>
std::vector<PassResult> runPassResults(RegisterFn Register,
                                       llvm::StringRef Pipeline,
                                       const Trace &T,
                                       AnalysisOptions Opts = {}) {
  PassRegistry R;
  Register(R);
  auto P = buildPipeline(R, Pipeline);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return {};
  }
  AnalysisManager AM(T, Opts);
  PassManager PM(std::move(*P));
  PassManagerOptions O;
  O.Threads = 1;
  std::vector<PassResult> Results = PM.run(T, AM, O);
  for (const FailedPass &F : collectFailures(Results))
    ADD_FAILURE() << F.Pass << ": " << F.Message;
  return Results;
}

/// The findings of runPassResults, in pipeline order.
template <typename RegisterFn>
std::vector<Finding> runPasses(RegisterFn Register, llvm::StringRef Pipeline,
                               const Trace &T, AnalysisOptions Opts = {}) {
  std::vector<PassResult> Results =
      runPassResults(Register, Pipeline, T, std::move(Opts));
  return collectFindings(Results);
}

/// The metric Name of F, if it has one.
inline const Metric *findMetric(const Finding &F, llvm::StringRef Name) {
  for (const Metric &M : F.Metrics)
    if (M.Name == Name)
      return &M;
  return nullptr;
}

} // namespace tl::test

#endif // TL_TEST_UNIT_PASSES_RUNPASS_H
