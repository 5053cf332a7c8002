//===- AnalysisPrefetch.cpp - Analyses computed ahead of their users ------===//
#include "AnalysisPrefetch.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CollectiveSummary.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/KernelSummary.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Analysis/PerfSheets.h"
#include "tl/Analysis/Recompute.h"
#include "tl/Analysis/ShortKernels.h"
#include "tl/Analysis/TraceFileHash.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/Support/ThreadCount.h"
#include "tl/Support/ThreadTiming.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ThreadPool.h"

using namespace llvm;

namespace tl {

std::vector<std::function<void()>> analysisJobs(AnalysisManager &AMRef,
                                                const AnalysisPrefetch &Plan) {
  AnalysisManager *AM = &AMRef;
  std::vector<std::function<void()>> Jobs;
  auto Need = [&](auto Get) { Jobs.push_back(Get); };
  auto Passes = [&](AnalysisPrefetch::Phase When) {
    for (const AnalysisPrefetch::Job &J : Plan.jobs())
      if (J.When == When)
        Jobs.push_back([AM, Run = J.Run] { Run(*AM); });
  };
  // Reports (analysis.md, perf_report_csvs, findings.json). The unified
  // table is the longest job and its temporaries peak near its end; the
  // perf sheets run next to it. Analyses only passes need come last, so
  // that their results and temporaries are not yet alive at that peak.
  Need([AM] { AM->get<UnifiedPerfTable>(); });
  Need([AM] { AM->get<GpuTimeline>(); });
  Need([AM] { AM->get<PerfSheets>(); });
  // Long chains the passes wait for (e.g. fusion candidates) start next.
  Passes(AnalysisPrefetch::Early);
  Need([AM] { AM->get<WorkloadInfo>(); });
  Need([AM] { AM->get<CollectiveSummary>(); });
  Need([AM] { AM->get<RecomputeMarks>(); });
  Need([AM] { AM->get<OpTable>(); });
  Need([AM] { AM->get<KernelSummary>(); });
  Need([AM] { AM->get<ShortKernels>(); });
  // findings.json's file hash: reading the whole file, off the report's
  // serial path.
  Need([AM] { AM->get<TraceFileHash>(); });
  Passes(AnalysisPrefetch::Late);
  return Jobs;
}

void computeAnalyses(AnalysisManager &AM, const AnalysisPrefetch &Plan,
                     unsigned Threads) {
  std::vector<std::function<void()>> Jobs = analysisJobs(AM, Plan);
  Threads = effectiveThreads(Threads);
  if (Threads <= 1) {
    for (auto &J : Jobs)
      J();
    return;
  }
  DefaultThreadPool Pool(hardware_concurrency(Threads));
  for (auto &J : Jobs)
    Pool.async(J);
  Pool.wait();
}

void EarlyAnalysis::start(std::function<void()> Job, bool TimeTrace) {
  Worker = std::thread([Job = std::move(Job), TimeTrace] {
    TimeTraceThreadScope TTS(TimeTrace);
    Job();
  });
}

} // namespace tl
