//===- PassManager.cpp - Running passes on a thread pool ------------------===//
#include "tl/Pass/PassManager.h"
#include "tl/Pass/PassInstrumentation.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Report/FindingSink.h"
#include "tl/Support/ThreadCount.h"
#include "tl/Support/ThreadTiming.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <algorithm>
#include <exception>
#include <mutex>

using namespace llvm;

namespace tl {

PassManager::PassManager(PassPipeline Pipeline)
    : Passes(Pipeline.takePasses()) {
  // Claims are resolved against what is scheduled, never against what is
  // merely loaded: the same pipeline gives the same result either way.
  for (const std::unique_ptr<Pass> &P : Passes)
    for (StringLiteral C : P->claimedCategories())
      Claims.push_back(C.str());
  llvm::sort(Claims);
  Claims.erase(std::unique(Claims.begin(), Claims.end()), Claims.end());
  for (const std::unique_ptr<Pass> &P : Passes)
    P->ScheduledClaims = &Claims;
}
PassManager::~PassManager() = default;

std::vector<PassResult> PassManager::run(const Trace &T, AnalysisManager &AM,
                                         const PassManagerOptions &Opts) {
  size_t N = Passes.size();
  std::vector<PassResult> Results(N);
  PassInstrumentation *PI = Opts.Instrumentation;
  if (PI)
    PI->runBeforePipeline(Passes, T);

  auto RunOne = [&](size_t I, bool OnWorker) {
    TimeTraceThreadScope TTS(Opts.TimeTrace && OnWorker);
    Pass &P = *Passes[I];
    PassResult &R = Results[I];
    R.Pass = P.getArgument().str();
    R.PassTier = P.getTier();
    FindingSink Sink(R.Pass);
    if (PI)
      PI->runBeforePass(P, T);
    auto Wall0 = std::chrono::steady_clock::now();
    double Cpu0 = threadCpuSeconds();
    {
      // The one place tl catches C++ exceptions (besides the yaml-cpp
      // boundary): a plugin pass may come from anyone, and an exception
      // escaping it must fail that pass only, not the run.
      try {
        if (Error E = P.run(T, AM, Sink)) {
          R.Failed = true;
          R.Message = toString(std::move(E));
        }
      } catch (const std::exception &Ex) {
        R.Failed = true;
        R.Message = std::string("threw an exception: ") + Ex.what();
      } catch (...) {
        R.Failed = true;
        R.Message = "threw an exception of unknown type";
      }
    }
    R.CpuSeconds = threadCpuSeconds() - Cpu0;
    R.WallSeconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - Wall0)
                        .count();
    // A failed pass keeps the findings it produced before failing: they
    // are real results and the failure is reported next to them.
    R.Findings = Sink.take();
    R.Artifacts = Sink.takeArtifacts();
    for (const PassStatistic *S : P.statistics())
      R.Statistics.push_back(
          {S->name().str(), S->description().str(), S->getValue()});
    if (PI)
      PI->runAfterPass(P, T, R);
  };

  unsigned Threads = effectiveThreads(Opts.Threads);
  if (Threads <= 1 || N <= 1) {
    for (size_t I = 0; I < N; ++I)
      RunOne(I, /*OnWorker=*/false);
    if (PI)
      PI->runAfterPipeline(Results, T);
    return Results;
  }
  DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
  for (const std::function<void()> &Job : Opts.Prefetch)
    Pool.async([&Job, &Opts] {
      TimeTraceThreadScope TTS(Opts.TimeTrace);
      Job();
    });
  for (size_t I = 0; I < N; ++I)
    Pool.async([&RunOne, I] { RunOne(I, /*OnWorker=*/true); });
  Pool.wait();
  if (PI)
    PI->runAfterPipeline(Results, T);
  return Results;
}

std::vector<Artifact> collectArtifacts(std::vector<PassResult> &Results) {
  std::vector<Artifact> All;
  for (PassResult &R : Results)
    for (Artifact &A : R.Artifacts)
      All.push_back(std::move(A));
  return All;
}

std::vector<Finding> collectFindings(std::vector<PassResult> &Results) {
  std::vector<std::vector<Finding>> PerPass;
  for (PassResult &R : Results)
    PerPass.push_back(std::move(R.Findings));
  std::vector<Finding> All = mergeFindings(std::move(PerPass));
  return All;
}

std::vector<FailedPass> collectFailures(ArrayRef<PassResult> Results) {
  std::vector<FailedPass> Out;
  for (const PassResult &R : Results)
    if (R.Failed)
      Out.push_back({R.Pass, R.Message, R.PassTier});
  return Out;
}

std::vector<PassRunInfo> collectRunInfo(ArrayRef<PassResult> Results) {
  std::vector<PassRunInfo> Out;
  for (const PassResult &R : Results)
    Out.push_back({R.Pass, R.Failed, R.Findings.size(), R.WallSeconds,
                   R.CpuSeconds, R.Statistics, R.PassTier});
  return Out;
}

} // namespace tl
