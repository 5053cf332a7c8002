//===- PassManager.cpp - Running passes on a thread pool ------------------===//
#include "tl/Pass/PassManager.h"
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
#include <exception>
#include <mutex>

using namespace llvm;

namespace tl {

PassManager::PassManager(PassPipeline Pipeline)
    : Passes(Pipeline.takePasses()) {}
PassManager::~PassManager() = default;

std::vector<PassResult> PassManager::run(const Trace &T, AnalysisManager &AM,
                                         const PassManagerOptions &Opts) {
  size_t N = Passes.size();
  std::vector<PassResult> Results(N);
  std::mutex ProgressMutex;
  size_t Done = 0;

  auto RunOne = [&](size_t I, bool OnWorker) {
    TimeTraceThreadScope TTS(Opts.TimeTrace && OnWorker);
    Pass &P = *Passes[I];
    PassResult &R = Results[I];
    R.Pass = P.getArgument().str();
    FindingSink Sink(R.Pass);
    auto Wall0 = std::chrono::steady_clock::now();
    double Cpu0 = threadCpuSeconds();
    {
      TimeTraceScope Scope("pass", R.Pass);
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
      R.Statistics.emplace_back(S->name().str(), S->getValue());
    if (Opts.Progress) {
      std::lock_guard<std::mutex> L(ProgressMutex);
      Opts.Progress(++Done, N, R.Pass);
    }
  };

  unsigned Threads = effectiveThreads(Opts.Threads);
  if (Threads <= 1 || N <= 1) {
    for (size_t I = 0; I < N; ++I)
      RunOne(I, /*OnWorker=*/false);
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
      Out.push_back({R.Pass, R.Message});
  return Out;
}

std::vector<PassRunInfo> collectRunInfo(ArrayRef<PassResult> Results) {
  std::vector<PassRunInfo> Out;
  for (const PassResult &R : Results)
    Out.push_back({R.Pass, R.Failed, R.Findings.size(), R.WallSeconds,
                   R.CpuSeconds, R.Statistics});
  return Out;
}

static void jsonString(raw_ostream &OS, StringRef S) {
  OS << '"';
  for (char C : S) {
    if (C == '"' || C == '\\')
      OS << '\\' << C;
    else if (static_cast<unsigned char>(C) < 0x20)
      OS << format("\\u%04x", C);
    else
      OS << C;
  }
  OS << '"';
}

void printTiming(raw_ostream &OS, ArrayRef<PassRunInfo> Results,
                 const AnalysisManager &AM, double TotalWall, bool Json,
                 ArrayRef<EmitterTiming> Emitters) {
  std::vector<AnalysisTiming> ATs = AM.timings();
  if (Json) {
    OS << "{\n  \"total_wall_s\": " << format("%.6f", TotalWall)
       << ",\n  \"passes\": [";
    for (size_t I = 0; I < Results.size(); ++I) {
      const PassRunInfo &R = Results[I];
      OS << (I ? "," : "") << "\n    {\"name\": ";
      jsonString(OS, R.Pass);
      OS << ", \"wall_s\": " << format("%.6f", R.WallSeconds)
         << ", \"cpu_s\": " << format("%.6f", R.CpuSeconds)
         << ", \"failed\": " << (R.Failed ? "true" : "false") << "}";
    }
    OS << (Results.empty() ? "" : "\n  ") << "],\n  \"analyses\": [";
    for (size_t I = 0; I < ATs.size(); ++I) {
      OS << (I ? "," : "") << "\n    {\"name\": ";
      jsonString(OS, ATs[I].Name);
      OS << ", \"wall_s\": " << format("%.6f", ATs[I].WallSeconds)
         << ", \"cpu_s\": " << format("%.6f", ATs[I].CpuSeconds) << "}";
    }
    OS << (ATs.empty() ? "" : "\n  ") << "],\n  \"emitters\": [";
    for (size_t I = 0; I < Emitters.size(); ++I) {
      OS << (I ? "," : "") << "\n    {\"name\": ";
      jsonString(OS, Emitters[I].Name);
      OS << ", \"wall_s\": " << format("%.6f", Emitters[I].WallSeconds)
         << ", \"cpu_s\": " << format("%.6f", Emitters[I].CpuSeconds) << "}";
    }
    OS << (Emitters.empty() ? "" : "\n  ") << "]\n}\n";
    return;
  }
  OS << "===" << std::string(70, '-') << "===\n"
     << "                         tl-opt execution timing report\n"
     << "===" << std::string(70, '-') << "===\n";
  OS << format("  Total wall time: %.4f s\n\n", TotalWall);
  OS << "   ---Wall Time---  ---CPU Time---  --- Name ---\n";
  for (const PassRunInfo &R : Results)
    OS << format("   %10.4f s     %10.4f s    %s%s\n", R.WallSeconds,
                 R.CpuSeconds, R.Pass.c_str(), R.Failed ? " (failed)" : "");
  for (const AnalysisTiming &A : ATs)
    OS << format("   %10.4f s     %10.4f s    (A) %s\n", A.WallSeconds,
                 A.CpuSeconds, A.Name.c_str());
  // Emitters include the analyses first computed for the report.
  for (const EmitterTiming &E : Emitters)
    OS << format("   %10.4f s     %10.4f s    (E) %s\n", E.WallSeconds,
                 E.CpuSeconds, E.Name.c_str());
}

void printStatistics(raw_ostream &OS, ArrayRef<PassRunInfo> Results) {
  OS << "===" << std::string(70, '-') << "===\n"
     << "                         ... Pass statistics report ...\n"
     << "===" << std::string(70, '-') << "===\n";
  for (const PassRunInfo &R : Results) {
    OS << R.Pass << "\n";
    OS << format("  (S) %8zu findings - Findings reported\n", R.NumFindings);
    for (const auto &[Name, V] : R.Statistics)
      OS << format("  (S) %8llu %s\n", (unsigned long long)V, Name.c_str());
  }
}

} // namespace tl
