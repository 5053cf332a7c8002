//===- PassManager.h - Running a pipeline over a trace ---------*- C++ -*-===//
//
// Passes run as independent tasks on a thread pool; each writes to its own
// FindingSink. Results come back in pipeline order whatever the thread count,
// so the report is byte-identical for --threads=1 and --threads=N. A failing
// pass is recorded and the others still run. Passes of plugins that are not
// built in run after the others, each in a child process
// (tl/Pass/PassIsolation.h): a crash, exit or hang fails that pass only.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASSMANAGER_H
#define TL_PASS_PASSMANAGER_H

#include "tl/Pass/PassPipeline.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/Finding.h"
#include "tl/Report/ReportData.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tl {

class Trace;
class AnalysisManager;
class PassInstrumentation;

struct PassResult {
  std::string Pass;
  bool Failed = false;
  std::string Message;
  std::vector<Finding> Findings;
  std::vector<Artifact> Artifacts;
  ReportData Data;
  double WallSeconds = 0;
  double CpuSeconds = 0;
  std::vector<StatisticValue> Statistics;
  /// The tier the pass declares (for the report of its failure).
  Tier PassTier = Tier::Compute;
};

struct PassManagerOptions {
  /// Worker threads; 0 = all cores, 1 = run serially on the calling thread.
  unsigned Threads = 0;
  /// Record llvm::timeTraceProfiler scopes on worker threads too.
  bool TimeTrace = false;
  /// Jobs (typically AM.get<X>() calls) queued on the pool before the
  /// passes when running on several threads, so independent analyses are
  /// computed concurrently; ignored on one thread (analyses stay lazy).
  /// They must only fill the AnalysisManager's cache: results are the
  /// same with or without them.
  std::vector<std::function<void()>> Prefetch;
  /// Hooks around the pipeline and every pass (--timing, --time-trace,
  /// --pass-statistics, progress); not owned, may be null.
  PassInstrumentation *Instrumentation = nullptr;
  /// Wall-clock limit of each isolated pass (one from a plugin that is not
  /// built in, run in a child process), seconds; 0 = none.
  unsigned PassTimeoutSeconds = 0;
  /// Called once before the first isolated pass starts, after the
  /// in-process passes and the prefetch jobs: the caller stops its own
  /// threads (fork copies only the forking thread, so a lock another thread
  /// holds would stay held in the child).
  std::function<void()> BeforeIsolated;
};

class PassManager {
public:
  explicit PassManager(PassPipeline Pipeline);
  ~PassManager();

  /// Run every pass once. Results are in pipeline order.
  std::vector<PassResult> run(const Trace &T, AnalysisManager &AM,
                              const PassManagerOptions &Opts = {});

  /// Union of the scheduled passes' claimed categories, sorted: what a
  /// pass taking unclaimed categories leaves out (Pass::scheduledClaims()).
  llvm::ArrayRef<std::string> scheduledClaims() const { return Claims; }

private:
  std::vector<std::unique_ptr<Pass>> Passes;
  std::vector<std::string> Claims;
};

/// Findings of all results in pipeline order, ids made unique (moves the
/// findings out of Results: call collectRunInfo first).
std::vector<Finding> collectFindings(std::vector<PassResult> &Results);
/// Artifacts of all results in pipeline order (moves them out).
std::vector<Artifact> collectArtifacts(std::vector<PassResult> &Results);
/// The typed report data of all results in pipeline order (moves it out).
ReportData collectReportData(std::vector<PassResult> &Results);
std::vector<FailedPass> collectFailures(llvm::ArrayRef<PassResult> Results);
std::vector<PassRunInfo> collectRunInfo(llvm::ArrayRef<PassResult> Results);

} // namespace tl

#endif // TL_PASS_PASSMANAGER_H
