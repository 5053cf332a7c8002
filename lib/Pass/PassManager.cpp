//===- PassManager.cpp - Running passes on a thread pool ------------------===//
#include "tl/Pass/PassManager.h"
#include "tl/Pass/PassInstrumentation.h"
#include "tl/Pass/PassIsolation.h"
#include "tl/Pass/PassRegistry.h"
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

/// Registered by a plugin that is not built in.
static bool isIsolated(const Pass &P) {
  const PassRegistry *Reg = P.getRegistry();
  if (!Reg)
    return false;
  const PassInfo *Info = Reg->lookupPass(P.getArgument());
  return Info && Info->Isolated;
}

std::vector<PassResult> PassManager::run(const Trace &T, AnalysisManager &AM,
                                         const PassManagerOptions &Opts) {
  size_t N = Passes.size();
  std::vector<PassResult> Results(N);
  PassInstrumentation *PI = Opts.Instrumentation;
  std::vector<bool> Isolated(N);
  for (size_t I = 0; I < N; ++I)
    Isolated[I] = isIsolated(*Passes[I]);
  if (PI)
    PI->runBeforePipeline(Passes, T);

  // The pass itself, on this thread: never throws.
  auto RunBody = [&](Pass &P) {
    PassOutput Out;
    FindingSink Sink(P.getArgument());
    // The one place tl catches C++ exceptions (besides the yaml-cpp
    // boundary): a plugin pass may come from anyone, and an exception
    // escaping it must fail that pass only, not the run.
    try {
      if (Error E = P.run(T, AM, Sink)) {
        Out.Failed = true;
        Out.Message = toString(std::move(E));
      }
    } catch (const std::exception &Ex) {
      Out.Failed = true;
      Out.Message = std::string("threw an exception: ") + Ex.what();
    } catch (...) {
      Out.Failed = true;
      Out.Message = "threw an exception of unknown type";
    }
    // A failed pass keeps the findings it produced before failing: they
    // are real results and the failure is reported next to them.
    Out.Findings = Sink.take();
    Out.Artifacts = Sink.takeArtifacts();
    Out.Data = Sink.takeReportData();
    for (const PassStatistic *S : P.statistics())
      Out.StatisticValues.push_back(S->getValue());
    return Out;
  };

  auto RunOne = [&](size_t I, bool OnWorker) {
    TimeTraceThreadScope TTS(Opts.TimeTrace && OnWorker);
    Pass &P = *Passes[I];
    PassResult &R = Results[I];
    R.Pass = P.getArgument().str();
    R.PassTier = P.getTier();
    if (PI)
      PI->runBeforePass(P, T);
    auto Wall0 = std::chrono::steady_clock::now();
    PassOutput Out;
    if (Isolated[I]) {
      ChildRunOptions CO;
      CO.TimeoutSeconds = Opts.PassTimeoutSeconds;
      ChildRunResult CR = runInChildProcess(
          [&] {
            // The hooks are the parent's: another thread may have held
            // their locks at the fork, and no thread releases them here.
            AM.setInstrumentation(nullptr);
            return RunBody(P);
          },
          CO);
      Out = std::move(CR.Output);
      R.CpuSeconds = CR.CpuSeconds;
      // The child's counts become the pass's (what instrumentation reads).
      if (Out.StatisticValues.size() == P.statistics().size())
        for (size_t S = 0; S < Out.StatisticValues.size(); ++S)
          *P.statistics()[S] = Out.StatisticValues[S];
    } else {
      double Cpu0 = threadCpuSeconds();
      Out = RunBody(P);
      R.CpuSeconds = threadCpuSeconds() - Cpu0;
    }
    R.WallSeconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - Wall0)
                        .count();
    R.Failed = Out.Failed;
    R.Message = std::move(Out.Message);
    R.Findings = std::move(Out.Findings);
    R.Artifacts = std::move(Out.Artifacts);
    R.Data = std::move(Out.Data);
    for (const PassStatistic *S : P.statistics())
      R.Statistics.push_back(
          {S->name().str(), S->description().str(), S->getValue()});
    if (PI)
      PI->runAfterPass(P, T, R);
  };

  // In-process passes first (with the prefetch jobs), then the isolated
  // ones, once nothing else runs.
  std::vector<size_t> InProcess, InChild;
  for (size_t I = 0; I < N; ++I)
    (Isolated[I] ? InChild : InProcess).push_back(I);
  unsigned Threads = effectiveThreads(Opts.Threads);
  if (Threads <= 1 || N <= 1) {
    for (size_t I : InProcess)
      RunOne(I, /*OnWorker=*/false);
  } else {
    DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
    for (const std::function<void()> &Job : Opts.Prefetch)
      Pool.async([&Job, &Opts] {
        TimeTraceThreadScope TTS(Opts.TimeTrace);
        Job();
      });
    for (size_t I : InProcess)
      Pool.async([&RunOne, I] { RunOne(I, /*OnWorker=*/true); });
    Pool.wait();
  }
  if (!InChild.empty()) {
    if (Opts.BeforeIsolated)
      Opts.BeforeIsolated();
    // Each child is waited for by one thread, so the hooks around a pass
    // run on one thread as for in-process passes.
    if (Threads <= 1 || InChild.size() <= 1) {
      for (size_t I : InChild)
        RunOne(I, /*OnWorker=*/false);
    } else {
      DefaultThreadPool Pool(llvm::hardware_concurrency(
          std::min<unsigned>(Threads, InChild.size())));
      for (size_t I : InChild)
        Pool.async([&RunOne, I] { RunOne(I, /*OnWorker=*/true); });
      Pool.wait();
    }
  }
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

ReportData collectReportData(std::vector<PassResult> &Results) {
  ReportData All;
  for (PassResult &R : Results)
    All.append(std::move(R.Data));
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
