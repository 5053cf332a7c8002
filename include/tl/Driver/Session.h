//===- Session.h - The driver as a library ---------------------*- C++ -*-===//
//
// A Session is one configured analyzer: the passes (built-in and plugin),
// the expanded pipeline, the arch, the reference trace of comparative mode.
// It analyzes any number of traces, one TraceRun each, in four stages:
//
//   import   -> the trace's IR (and, first time, the reference's)
//   gate     -> fresh pass instances, the trace's arch and analyses, the
//               quality gate narrowing the pipeline to what the trace has
//   passes   -> the pipeline on a thread pool: findings, failures
//   report   -> the emitters into the output directory; --fail-on matches
//               and gates; the --junit / --sarif files
//
// run() chains them; tl-opt, multi-trace runs and bindings call the stages
// or run(). Errors come back as llvm::Error (the caller decides what they
// mean for the process); a failed pass is not an error but a result
// (TraceRun::failures()). Diagnostics a command line shows (notes, warnings,
// progress, --timing) go to the stream given to create().
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_SESSION_H
#define TL_DRIVER_SESSION_H

#include "tl/Analysis/ArchSpec.h"
#include "tl/Driver/SessionOptions.h"
#include "tl/Driver/TraceRun.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace tl {

class OutputTransaction;
class PassInstrumentation;
class PassRegistry;

/// The last stage a run goes through.
enum class Stage {
  Import,   ///< parse and link only
  Analyses, ///< also the gate and every analysis the pipeline and reports use
  Passes,   ///< also the passes; no report
  Report,   ///< everything
};

class Session {
public:
  /// Check the options and load the passes (built-in unless
  /// NoBuiltinPasses, then Plugins in order).
  static llvm::Expected<std::unique_ptr<Session>>
  create(SessionOptions Opts, llvm::raw_ostream &Diag = llvm::errs());
  ~Session();

  const SessionOptions &options() const;
  /// Hooks around the pipeline and every pass of every trace (after the
  /// ones the options ask for). Register before the first stage.
  void addInstrumentation(std::unique_ptr<PassInstrumentation> PI);
  const PassRegistry &registry() const;
  /// For hosts that register passes of their own (before the first stage).
  PassRegistry &registry();
  /// "tl-opt 0.1.0 (abc1234)", as the reports record it.
  std::string toolVersion() const;

  /// Expand the pipeline (comparative mode adds `compare`) and check the
  /// config's pass options against the registry. BuildPipeline=false checks
  /// the options only (a run that imports and stops needs no pipeline).
  /// Called by begin() when not called before.
  llvm::Error preparePipeline(bool BuildPipeline = true);
  /// The canonical, fully expanded pipeline (after preparePipeline).
  const std::string &canonicalPipeline() const;

  /// Resolve a fixed arch, start --time-trace and the reference import.
  /// Called by the first stage when not called before.
  llvm::Error begin();
  /// Write --time-trace's file. Call after the last trace.
  llvm::Error finish();

  /// Threads of each trace's stages from now on, instead of the options'
  /// (a job running several traces at once gives each a share).
  void setThreadsPerTrace(unsigned Threads);

  /// The stages; each checks that the one before it ran. TraceDiag: where
  /// this trace's notes and warnings go instead of the session's stream
  /// (traces analysed concurrently each buffer their own).
  llvm::Expected<std::unique_ptr<TraceRun>>
  importTrace(llvm::StringRef Path, Stage Last = Stage::Report,
              llvm::raw_ostream *TraceDiag = nullptr);
  llvm::Error gate(TraceRun &R);
  /// Stage::Analyses: compute the analyses the passes and reports would use.
  llvm::Error computeAnalyses(TraceRun &R);
  llvm::Error runPasses(TraceRun &R);
  llvm::Error emitReport(TraceRun &R);

  /// Every stage up to Last; with Out, the report goes into Out (its owner
  /// commits it), else the run commits its own (OutputTransaction.h).
  llvm::Expected<std::unique_ptr<TraceRun>>
  run(llvm::StringRef Path, Stage Last = Stage::Report,
      OutputTransaction *Out = nullptr);

private:
  struct Impl;
  explicit Session(std::unique_ptr<Impl> P);
  std::unique_ptr<Impl> P;
};

/// "PATH: no such file" / "PATH: is a directory, not a trace file".
llvm::Error checkTraceFile(llvm::StringRef Path);

/// Where a trace's report goes without -o: <trace dir>/analysis_output.
std::string defaultOutputDir(llvm::StringRef TracePath);

/// An output directory, checked before anything is imported: "PATH: ..."
/// when it exists and is not a directory, lies under a file, or cannot be
/// written. Writability is probed by creating the directory and a file in
/// it; what the probe created is removed again.
llvm::Error checkOutputDir(llvm::StringRef Path);

/// An output file (--junit, --sarif), checked the same way: not a
/// directory, and its directory writable.
llvm::Error checkOutputFile(llvm::StringRef Path);

/// <tool>/../share/tl: the shipped arch files are in its arch/.
std::string dataDir(llvm::StringRef ToolPath);
/// The arch a fixed --arch (a name or a file) names; nullopt for auto
/// (resolved per trace) and none.
llvm::Expected<std::optional<ArchSpec>>
fixedArchSpec(const SessionOptions &O);

} // namespace tl

#endif // TL_DRIVER_SESSION_H
