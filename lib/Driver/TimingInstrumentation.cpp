//===- TimingInstrumentation.cpp - --timing on the pass hooks -------------===//
#include "tl/Driver/Instrumentations.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassManager.h"
#include "tl/Support/ThreadTiming.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace tl {

TimingReport TimingInstrumentation::take(const Trace &T) {
  std::lock_guard<std::mutex> L(M);
  TimingReport R;
  auto It = Reports.find(&T);
  if (It != Reports.end()) {
    R = std::move(It->second);
    Reports.erase(It);
  }
  auto A = Analyses.find(&T);
  if (A != Analyses.end()) {
    R.Analyses = std::move(A->second);
    Analyses.erase(A);
  }
  PipelineStart.erase(&T);
  return R;
}

void TimingInstrumentation::runAfterAnalysis(const AnalysisTiming &Timing,
                                             const Trace &T) {
  std::lock_guard<std::mutex> L(M);
  Analyses[&T].push_back(
      {Timing.Name, Timing.WallSeconds, Timing.CpuSeconds, false});
}

void TimingInstrumentation::runBeforePipeline(
    ArrayRef<std::unique_ptr<Pass>> Passes, const Trace &T) {
  std::lock_guard<std::mutex> L(M);
  TimingReport &R = Reports[&T];
  R = TimingReport();
  for (size_t I = 0; I < Passes.size(); ++I) {
    R.Passes.push_back({Passes[I]->getArgument().str(), 0, 0, false});
    PassIndex[Passes[I].get()] = I;
  }
  PipelineStart[&T] = std::chrono::steady_clock::now();
}

void TimingInstrumentation::runAfterPipeline(ArrayRef<PassResult>,
                                             const Trace &T) {
  auto Now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> L(M);
  auto S = PipelineStart.find(&T);
  if (S != PipelineStart.end())
    Reports[&T].PipelineWallSeconds =
        std::chrono::duration<double>(Now - S->second).count();
}

void TimingInstrumentation::runBeforePass(const Pass &, const Trace &) {
  Start S{std::chrono::steady_clock::now(), threadCpuSeconds()};
  std::lock_guard<std::mutex> L(M);
  Running[std::this_thread::get_id()] = S;
}

void TimingInstrumentation::runAfterPass(const Pass &P, const Trace &T,
                                         const PassResult &R) {
  double Cpu = threadCpuSeconds();
  auto Now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> L(M);
  auto S = Running.find(std::this_thread::get_id());
  auto It = Reports.find(&T);
  auto I = PassIndex.find(&P);
  if (S == Running.end() || It == Reports.end() || I == PassIndex.end() ||
      I->second >= It->second.Passes.size())
    return;
  TimingRecord &Rec = It->second.Passes[I->second];
  Rec.WallSeconds = std::chrono::duration<double>(Now - S->second.Wall).count();
  Rec.CpuSeconds = Cpu - S->second.Cpu;
  Rec.Failed = R.Failed;
  Running.erase(S);
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

void TimingReport::print(raw_ostream &OS, bool Json,
                         ArrayRef<EmitterTiming> Emitters) const {
  if (Json) {
    OS << "{\n  \"total_wall_s\": " << format("%.6f", PipelineWallSeconds)
       << ",\n  \"passes\": [";
    for (size_t I = 0; I < Passes.size(); ++I) {
      const TimingRecord &R = Passes[I];
      OS << (I ? "," : "") << "\n    {\"name\": ";
      jsonString(OS, R.Name);
      OS << ", \"wall_s\": " << format("%.6f", R.WallSeconds)
         << ", \"cpu_s\": " << format("%.6f", R.CpuSeconds)
         << ", \"failed\": " << (R.Failed ? "true" : "false") << "}";
    }
    OS << (Passes.empty() ? "" : "\n  ") << "],\n  \"analyses\": [";
    for (size_t I = 0; I < Analyses.size(); ++I) {
      OS << (I ? "," : "") << "\n    {\"name\": ";
      jsonString(OS, Analyses[I].Name);
      OS << ", \"wall_s\": " << format("%.6f", Analyses[I].WallSeconds)
         << ", \"cpu_s\": " << format("%.6f", Analyses[I].CpuSeconds) << "}";
    }
    OS << (Analyses.empty() ? "" : "\n  ") << "],\n  \"emitters\": [";
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
  OS << format("  Total wall time: %.4f s\n\n", PipelineWallSeconds);
  OS << "   ---Wall Time---  ---CPU Time---  --- Name ---\n";
  for (const TimingRecord &R : Passes)
    OS << format("   %10.4f s     %10.4f s    %s%s\n", R.WallSeconds,
                 R.CpuSeconds, R.Name.c_str(), R.Failed ? " (failed)" : "");
  for (const TimingRecord &A : Analyses)
    OS << format("   %10.4f s     %10.4f s    (A) %s\n", A.WallSeconds,
                 A.CpuSeconds, A.Name.c_str());
  // Emitters include the analyses first computed for the report.
  for (const EmitterTiming &E : Emitters)
    OS << format("   %10.4f s     %10.4f s    (E) %s\n", E.WallSeconds,
                 E.CpuSeconds, E.Name.c_str());
}

} // namespace tl
