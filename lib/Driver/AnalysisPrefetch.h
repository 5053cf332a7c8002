//===- AnalysisPrefetch.h - Analyses computed ahead of their users -*- C++ -*-===//
#ifndef TL_LIB_DRIVER_ANALYSISPREFETCH_H
#define TL_LIB_DRIVER_ANALYSISPREFETCH_H

#include "tl/Pass/Pass.h"

#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace tl {

class AnalysisManager;

/// Jobs computing what the passes declare they will ask for (Plan,
/// PassPipeline::prefetch()) and what the report emitters would ask the
/// AnalysisManager for (each analysis pulls its own dependencies). Long
/// dependency chains come first, analyses that wait for another one last,
/// so a pool running them in order rarely blocks.
std::vector<std::function<void()>> analysisJobs(AnalysisManager &AM,
                                                const AnalysisPrefetch &Plan);

/// --stop-after=analyses: run analysisJobs on up to Threads threads.
void computeAnalyses(AnalysisManager &AM, const AnalysisPrefetch &Plan,
                     unsigned Threads);

/// One analysis computed on a thread of its own, joined on destruction (so
/// every early return waits for it before the trace goes away).
class EarlyAnalysis {
public:
  EarlyAnalysis() = default;
  EarlyAnalysis(const EarlyAnalysis &) = delete;
  EarlyAnalysis &operator=(const EarlyAnalysis &) = delete;
  ~EarlyAnalysis() { join(); }
  void start(std::function<void()> Job, bool TimeTrace);
  void join() {
    if (Worker.joinable())
      Worker.join();
  }

private:
  std::thread Worker;
};

} // namespace tl

#endif // TL_LIB_DRIVER_ANALYSISPREFETCH_H
