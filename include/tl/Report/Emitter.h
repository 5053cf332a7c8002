//===- Emitter.h - Turning findings into report files ----------*- C++ -*-===//
//
// After the passes ran, the driver hands a ReportContext to every registered
// emitter (analysis.md, findings.json, CSVs, chart ...). Emitters write only
// into ReportContext::OutputDir, atomically (writeFileAtomically), and never
// depend on one another. Files of an earlier report that this one does not
// write are the driver's business (the manifest, OutputTransaction.h).
//
// New emitters are added in lib/Report and registered from
// registerBuiltinEmitters() (lib/Report/BuiltinEmitters.cpp); the driver
// needs no change.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_EMITTER_H
#define TL_REPORT_EMITTER_H

#include "tl/Report/Finding.h"
#include "tl/Report/ReportData.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tl {

class Trace;
class AnalysisManager;
struct PipelineChoice;

/// A pass that returned an error.
struct FailedPass {
  std::string Pass;
  std::string Message;
  /// The tier the pass declares (Pass::getTier()).
  Tier PassTier = Tier::Compute;
};

/// One pass statistic's final value.
struct StatisticValue {
  std::string Name;
  std::string Description;
  uint64_t Value = 0;
};

/// What a pass declares about itself, for the report: Pass::getTier(),
/// getSkillName(), claimedCategories(), takesUnclaimedCategories().
struct PassDescription {
  std::string Pass;
  Tier PassTier = Tier::Compute;
  std::string Skill;
  std::vector<std::string> Claims;
  bool TakesUnclaimed = false;
};

/// Per-pass run data for emitters that want it (timing, statistics).
struct PassRunInfo {
  std::string Pass;
  bool Failed = false;
  size_t NumFindings = 0;
  double WallSeconds = 0;
  double CpuSeconds = 0;
  std::vector<StatisticValue> Statistics;
  Tier PassTier = Tier::Compute;
};

/// Work several emitters share, done once per report (ReportUtil.cpp:
/// the parsed metrics artifacts, the fusion candidate count).
struct ReportCache;
std::shared_ptr<ReportCache> makeReportCache();

struct ReportContext {
  const Trace &T;
  AnalysisManager &AM;
  /// Every finding, in deterministic (pipeline, emission) order.
  llvm::ArrayRef<Finding> Findings;
  llvm::ArrayRef<FailedPass> Failed;
  llvm::ArrayRef<PassRunInfo> Runs;
  /// Canonical, fully expanded pipeline text.
  std::string Pipeline;
  /// Where every output goes (exists when emit() is called). In a tl-opt
  /// run this is a staging directory the run commits at the end
  /// (OutputTransaction.h); paths the report prints are relative to
  /// reportDir().
  std::string OutputDir;
  /// "tl-opt 0.1.0 (abc1234)".
  std::string ToolVersion;
  /// The trace file analyzed.
  std::string TracePath;
  /// Files contributed by passes (FindingSink::artifact), pipeline order.
  llvm::ArrayRef<Artifact> Artifacts = {};
  /// What the trace-quality gate let run (null when the gate was off).
  const PipelineChoice *Gate = nullptr;
  /// Every pass of the requested pipeline (before the quality gate), as it
  /// describes itself: the manifest's skill names come from here.
  llvm::ArrayRef<PassDescription> Scheduled = {};
  /// The typed data behind the reference-schema files (ReportData.h);
  /// null: none.
  const ReportData *Data = nullptr;
  /// Shared by the emitters (they may run on several threads).
  std::shared_ptr<ReportCache> Cache = makeReportCache();
  /// The directory the report will be in ("" = OutputDir).
  std::string ReportDir = {};

  llvm::StringRef reportDir() const {
    return ReportDir.empty() ? llvm::StringRef(OutputDir)
                             : llvm::StringRef(ReportDir);
  }
};

class Emitter {
public:
  virtual ~Emitter();
  /// Short name ("findings-json") for messages and --timing.
  virtual llvm::StringRef name() const = 0;
  virtual llvm::Error emit(const ReportContext &Ctx) = 0;
  /// False when emit() reads only the trace, the analyses and the context's
  /// paths, never the pass results (Findings, Failed, Runs, Artifacts):
  /// the driver may then run it next to the passes, with those empty.
  virtual bool needsPassResults() const { return true; }
};

/// Time one emitter took (for --timing), including analyses it computed.
struct EmitterTiming {
  std::string Name;
  double WallSeconds = 0;
  double CpuSeconds = 0;
};

/// How emitAll runs the emitters.
struct EmitOptions {
  /// Threads to run them on: 0 = one per core, 1 = in order on the caller.
  unsigned Threads = 1;
  /// Pool threads start their own --time-trace profiler.
  bool TimeTrace = false;
};

class EmitterRegistry {
public:
  EmitterRegistry();
  ~EmitterRegistry();
  void add(std::unique_ptr<Emitter> E);
  llvm::ArrayRef<std::unique_ptr<Emitter>> emitters() const {
    return Emitters;
  }
  /// Run every emitter; all run even when one fails, the errors are joined
  /// in registration order. With Opts.Threads != 1 they run concurrently:
  /// an emitter writes only its own files and reads Ctx (const) and the
  /// thread-safe AnalysisManager.
  /// Timings, when given, receives one entry per emitter in that order.
  /// Emitters that earlyJobs() ran are not run again; their errors and
  /// timings are reported here, in registration order with the others.
  llvm::Error emitAll(const ReportContext &Ctx,
                      std::vector<EmitterTiming> *Timings = nullptr,
                      const EmitOptions &Opts = {});
  /// One job per emitter that needs no pass results, running it with Ctx
  /// (which must outlive the jobs; its pass-result fields may be empty).
  /// The driver runs them on its pool next to the passes, before
  /// emitAll().
  std::vector<std::function<void()>> earlyJobs(const ReportContext &Ctx);

private:
  /// Run emitter I with Ctx, keeping its error and timing for emitAll().
  void runOne(size_t I, const ReportContext &Ctx, bool OnWorker,
              bool TimeTrace);

  std::vector<std::unique_ptr<Emitter>> Emitters;
  /// Per emitter: whether it ran, its error and timing.
  std::vector<char> Ran;
  std::vector<llvm::Error> Errors;
  std::vector<EmitterTiming> Times;
};

/// Register the report's emitters (defined in lib/Report/BuiltinEmitters.cpp).
void registerBuiltinEmitters(EmitterRegistry &Registry);

/// The minimal findings.json emitter (schema_version, tool, pipeline,
/// findings[], failed_passes[]).
std::unique_ptr<Emitter> createFindingsJsonEmitter();

/// Writes every pass artifact under the output directory.
std::unique_ptr<Emitter> createArtifactEmitter();

/// Write Dir/Name via a temporary file in Dir renamed into place, so readers
/// never see a half-written file.
llvm::Error writeFileAtomically(llvm::StringRef Dir, llvm::StringRef Name,
                                llvm::function_ref<void(llvm::raw_ostream &)>
                                    Write);
/// writeFileAtomically for writers that can fail: when Write returns an
/// error the temporary is removed, an earlier Dir/Name stays as it was and
/// the error is returned.
llvm::Error writeFileAtomicallyChecked(
    llvm::StringRef Dir, llvm::StringRef Name,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write);

} // namespace tl

#endif // TL_REPORT_EMITTER_H
