//===- AnalysisPrefetch.cpp - Analyses computed ahead of their users ------===//
#include "AnalysisPrefetch.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CollectiveSummary.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/Compute/CategoryAnalyzer.h"
#include "tl/Analysis/FusionCandidates.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/KernelSummary.h"
#include "tl/Analysis/LaunchStats.h"
#include "tl/Analysis/MultiKernelData.h"
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

std::vector<std::function<void()>>
analysisJobs(AnalysisManager &AMRef, ArrayRef<std::string> Passes) {
  AnalysisManager *AM = &AMRef;
  std::vector<std::function<void()>> Jobs;
  auto Need = [&](auto Get) { Jobs.push_back(Get); };
  auto Has = [&](StringRef N) { return llvm::is_contained(Passes, N); };
  // Reports (analysis.md, perf_report_csvs, findings.json). The unified
  // table is the longest job and its temporaries peak near its end; the
  // perf sheets run next to it. Analyses only passes need (launch stats,
  // multi-kernel data) come last, so that their results and temporaries
  // are not yet alive at that peak.
  Need([AM] { AM->get<UnifiedPerfTable>(); });
  Need([AM] { AM->get<GpuTimeline>(); });
  Need([AM] { AM->get<PerfSheets>(); });
  // Fusion candidates start next: their module pass needs no other
  // analysis, and the compute passes wait for them.
  if (Has("kernel-fusion"))
    Need([AM] { AM->get<FusionCandidates>(); });
  Need([AM] { AM->get<WorkloadInfo>(); });
  Need([AM] { AM->get<CollectiveSummary>(); });
  Need([AM] { AM->get<RecomputeMarks>(); });
  Need([AM] { AM->get<OpTable>(); });
  Need([AM] { AM->get<KernelSummary>(); });
  Need([AM] { AM->get<ShortKernels>(); });
  // findings.json's file hash: reading the whole file, off the report's
  // serial path.
  Need([AM] { AM->get<TraceFileHash>(); });
  if (Has("cpu-idle"))
    Need([AM] { AM->get<LaunchStats>(); });
  if (Has("multi-kernel"))
    Need([AM] { AM->get<MultiKernelData>(); });
  if (Has("compare"))
    Need([AM] { AM->get<TraceDiff>(); });
  for (StringRef C : {"gemm", "sdpa", "elementwise", "norm", "reduce", "conv",
                      "moe", "triton", "other"})
    if (Has(C)) {
      Need([AM] { AM->get<compute::ComputeInput>(); });
      break;
    }
  return Jobs;
}

void computeAnalyses(AnalysisManager &AM, ArrayRef<std::string> Passes,
                     unsigned Threads) {
  std::vector<std::function<void()>> Jobs = analysisJobs(AM, Passes);
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
