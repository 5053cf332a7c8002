//===- Instrumentations.h - --timing, --time-trace, statistics --*- C++ -*-===//
//
// The driver's instrumentation, built on the pass hooks
// (tl/Pass/PassInstrumentation.h). A Session registers the ones its options
// ask for; a host can register its own (Session::addInstrumentation) and
// read the records as objects.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_INSTRUMENTATIONS_H
#define TL_DRIVER_INSTRUMENTATIONS_H

#include "tl/Pass/PassInstrumentation.h"
#include "tl/Report/Emitter.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace tl {

/// Wall and CPU time of one pass, analysis or emitter.
struct TimingRecord {
  std::string Name;
  double WallSeconds = 0;
  double CpuSeconds = 0;
  bool Failed = false;
};

/// What --timing prints for one trace.
struct TimingReport {
  /// The pass manager's run, start of the first pass to end of the last.
  double PipelineWallSeconds = 0;
  /// Pipeline order.
  std::vector<TimingRecord> Passes;
  /// Completion order; inclusive of the analyses each one computed (from
  /// the analysis hooks).
  std::vector<TimingRecord> Analyses;

  void print(llvm::raw_ostream &OS, bool Json,
             llvm::ArrayRef<EmitterTiming> Emitters = {}) const;
};

/// --timing: wall and thread-CPU time around the pipeline and every pass.
class TimingInstrumentation final : public PassInstrumentation {
public:
  /// The passes of the last pipeline run over T; forgets them.
  TimingReport take(const Trace &T);

  void runBeforePipeline(llvm::ArrayRef<std::unique_ptr<Pass>> Passes,
                         const Trace &T) override;
  void runAfterPipeline(llvm::ArrayRef<PassResult> Results,
                        const Trace &T) override;
  void runBeforePass(const Pass &P, const Trace &T) override;
  void runAfterPass(const Pass &P, const Trace &T,
                    const PassResult &R) override;
  void runAfterAnalysis(const AnalysisTiming &Timing,
                        const Trace &T) override;

private:
  struct Start {
    std::chrono::steady_clock::time_point Wall;
    double Cpu = 0;
  };
  std::mutex M;
  /// The running pass of each thread (a thread runs one pass at a time).
  std::map<std::thread::id, Start> Running;
  std::map<const Trace *, TimingReport> Reports;
  /// Kept apart from Reports: the quality gate's analyses come before the
  /// pipeline starts its report.
  std::map<const Trace *, std::vector<TimingRecord>> Analyses;
  std::map<const Pass *, size_t> PassIndex;
  std::map<const Trace *, std::chrono::steady_clock::time_point> PipelineStart;
};

/// One pass's --pass-statistics lines.
struct PassStatisticsRecord {
  std::string Pass;
  size_t NumFindings = 0;
  struct Counter {
    std::string Name;
    std::string Description;
    uint64_t Value = 0;
  };
  std::vector<Counter> Counters;
};

/// --pass-statistics: each pass's counters after it ran.
class StatisticsInstrumentation final : public PassInstrumentation {
public:
  /// The last pipeline run over T, in pipeline order; forgets it.
  std::vector<PassStatisticsRecord> take(const Trace &T);
  static void print(llvm::raw_ostream &OS,
                    llvm::ArrayRef<PassStatisticsRecord> Records);

  void runBeforePipeline(llvm::ArrayRef<std::unique_ptr<Pass>> Passes,
                         const Trace &T) override;
  void runAfterPass(const Pass &P, const Trace &T,
                    const PassResult &R) override;

private:
  std::mutex M;
  std::map<const Trace *, std::vector<PassStatisticsRecord>> Records;
  std::map<const Pass *, size_t> PassIndex;
};

/// --time-trace: a "pass" event around each pass, on threads that run
/// llvm::timeTraceProfiler.
class TimeTraceInstrumentation final : public PassInstrumentation {
public:
  void runBeforePass(const Pass &P, const Trace &T) override;
  void runAfterPass(const Pass &P, const Trace &T,
                    const PassResult &R) override;
  void runBeforeAnalysis(llvm::StringRef Name, const Trace &T) override;
  void runAfterAnalysis(const AnalysisTiming &Timing,
                        const Trace &T) override;
};

/// Progress on the diagnostics stream: import percent of the known input
/// size, then the phases (gate, analyses, passes, emit). On a terminal
/// (Interactive) one line overwritten in place, passes counted as they end;
/// otherwise whole lines for logs: every 10 % of the import, one per phase.
class ProgressInstrumentation final : public PassInstrumentation {
public:
  ProgressInstrumentation(llvm::raw_ostream &OS, std::string ToolName,
                          bool Interactive)
      : OS(OS), ToolName(std::move(ToolName)), Interactive(Interactive) {}
  /// Total: the JSON bytes expected (nullopt: unknown, bytes shown).
  void importStart(llvm::StringRef Path, std::optional<uint64_t> Total);
  /// Bytes of JSON read so far (called on the importing thread).
  void importBytes(uint64_t Bytes);
  void importDone();
  /// A phase of the run after the import begins ("gate", "emit", ...).
  void phase(const llvm::Twine &Name);
  /// Ends the overwritten line on a terminal.
  void finishLine();

  void runBeforePipeline(llvm::ArrayRef<std::unique_ptr<Pass>> Passes,
                         const Trace &T) override;
  void runAfterPipeline(llvm::ArrayRef<PassResult> Results,
                        const Trace &T) override;
  void runAfterPass(const Pass &P, const Trace &T,
                    const PassResult &R) override;

private:
  void line(const llvm::Twine &Text);

  llvm::raw_ostream &OS;
  std::string ToolName;
  bool Interactive;
  std::mutex M;
  std::string Path;
  std::optional<uint64_t> Total;
  /// Last percent printed (non-interactive: multiples of 10).
  int LastPct = -1;
  size_t Done = 0, NumPasses = 0;
};

} // namespace tl

#endif // TL_DRIVER_INSTRUMENTATIONS_H
