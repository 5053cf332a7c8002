//===- TraceRun.h - One trace's run through a Session ----------*- C++ -*-===//
//
// Holds what the stages produced for one trace: its IR, its analyses, the
// quality gate's choice, the pass results and the --fail-on matches, for
// callers that want objects rather than (or besides) report files. Valid
// while its Session lives (comparative runs share the session's reference).
// Destroying it frees the trace; a multi-trace loop keeps one at a time.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_TRACERUN_H
#define TL_DRIVER_TRACERUN_H

#include "tl/Report/Emitter.h"
#include "tl/Report/FailOn.h"
#include "tl/Report/Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace tl {

class AnalysisManager;
class OutputTransaction;
class Trace;
struct PipelineChoice;

/// A ranked finding that matched --fail-on.
struct FailOnMatch {
  std::string FindingId;
  unsigned Rank = 0;
  std::string Tier;
  /// The impact as the report prints it ("n/a" when unquantified).
  std::string Impact;
  /// The clause that matched, as written.
  std::string Clause;
};

class TraceRun {
public:
  ~TraceRun();
  TraceRun(const TraceRun &) = delete;
  TraceRun &operator=(const TraceRun &) = delete;

  llvm::StringRef path() const;
  const Trace &trace() const;
  /// After the gate stage.
  AnalysisManager &analyses();
  /// What the quality gate let run (null: gate off or not reached).
  const PipelineChoice *gate() const;
  /// The pipeline that ran, after the gate (pass names in order).
  llvm::ArrayRef<std::string> passes() const;
  /// After the passes stage.
  llvm::ArrayRef<Finding> findings() const;
  llvm::ArrayRef<FailedPass> failures() const;
  llvm::ArrayRef<PassRunInfo> passRuns() const;
  llvm::ArrayRef<Artifact> artifacts() const;
  /// Where the report goes (known after the passes stage).
  llvm::StringRef outputDir() const;
  /// Before the passes stage: write this trace's report into Dir instead
  /// of the session's output directory. The run commits it alone at the
  /// end of the report stage.
  void setOutputDir(llvm::StringRef Dir);
  /// Before the passes stage: write the report into Out's staging
  /// directory (its SubDir, a job's rank<N>), named as Out.dir()/SubDir;
  /// whoever owns Out commits it.
  void setOutput(OutputTransaction &Out, llvm::StringRef SubDir = "");
  /// Before the passes stage: write the report into WriteDir, named as
  /// Dir, with no transaction of its own: the caller commits WriteDir's
  /// tree (an MPI process writing into process 0's staging directory).
  void setOutputDirs(llvm::StringRef Dir, llvm::StringRef WriteDir);
  /// After the report stage.
  llvm::ArrayRef<FailOnMatch> failOnMatches() const;
  /// Every --fail-on clause and whether it tripped (report stage).
  llvm::ArrayRef<GateResult> gates() const;
  /// A finding or a report-level clause matched --fail-on (exit 3).
  bool failOnTripped() const;

private:
  friend class Session;
  struct Impl;
  explicit TraceRun(std::unique_ptr<Impl> P);
  std::unique_ptr<Impl> P;
};

} // namespace tl

#endif // TL_DRIVER_TRACERUN_H
