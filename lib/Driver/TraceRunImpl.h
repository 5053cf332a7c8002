//===- TraceRunImpl.h - What the stages keep per trace ----------*- C++ -*-===//
#ifndef TL_LIB_DRIVER_TRACERUNIMPL_H
#define TL_LIB_DRIVER_TRACERUNIMPL_H

#include "AnalysisPrefetch.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Driver/Session.h"
#include "tl/Driver/TraceRun.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/PassPipeline.h"
#include "tl/Report/Emitter.h"
#include "tl/Support/OutputTransaction.h"
#include "tl/Support/TerminalText.h"

#include <optional>

namespace tl {

struct TraceRun::Impl {
  std::string Path;
  /// The last stage this run goes through (the stages before it plan for
  /// it: what to prefetch, whether to start the report early).
  Stage Last = Stage::Report;
  /// The stages done so far.
  std::optional<Stage> Done;

  Trace T;
  /// Some graph launch got its capture context (evidence for --mode=auto).
  bool CaptureMerged = false;
  std::unique_ptr<AnalysisManager> AM;
  std::optional<PassPipeline> Pipeline;
  std::optional<PipelineChoice> Gate;
  std::vector<std::string> PassNames;
  /// What the requested passes declare (before the gate) and the analyses
  /// the gated pipeline's passes will ask for.
  std::vector<PassDescription> Scheduled;
  AnalysisPrefetch Prefetch;

  std::vector<PassRunInfo> Runs;
  std::vector<FailedPass> Failed;
  std::vector<Artifact> Artifacts;
  /// The passes' typed data behind the reference-schema files.
  ReportData Data;
  std::vector<Finding> Findings;
  /// The report directory as named, and where the files are written until
  /// the commit (a staging directory of Out).
  std::string Dir;
  std::string WriteDir;
  OutputTransaction *Out = nullptr;
  /// Out when this run began it (committed at the end of the report).
  std::unique_ptr<OutputTransaction> OwnedOut;
  EmitterRegistry Emitters;
  /// This trace's own message stream (importTrace's TraceDiag), else the
  /// session's.
  std::unique_ptr<TerminalSafeOStream> Diag;
  std::vector<FailOnMatch> Matches;
  std::vector<GateResult> Gates;

  /// Last member: joined before the analyses and the trace go away.
  EarlyAnalysis Early;

  Impl(std::string Path, Stage Last, Trace T)
      : Path(std::move(Path)), Last(Last), T(std::move(T)) {}
};

} // namespace tl

#endif // TL_LIB_DRIVER_TRACERUNIMPL_H
