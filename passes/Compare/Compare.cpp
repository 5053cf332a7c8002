//===- Compare.cpp - Regressions against a reference trace ----------------===//
//
// Comparative mode (tl-opt --compare, docs/Comparative.md). System tier,
// one finding per matched op (LCA group, see TraceDiff) whose GPU time in
// the analyzed trace exceeds the reference's by at least `min-gap-pct` of
// the trace's GPU event time, plus one for the whole run when it is slower.
// Impact = the gap as % of the trace's GPU event time (measured, not a
// model), so `--fail-on='impact>=N'` is a regression check. Without a
// reference the pass does nothing.
//
//===----------------------------------------------------------------------===//
#include "ComparePass.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"
#include "tl/Support/KernelName.h"
#include "tl/Support/PyFormat.h"

#include <fmt/format.h>

using namespace tl;

namespace {

class ComparePass : public PassBase<ComparePass> {
public:
  static constexpr llvm::StringLiteral Argument = "compare";
  static constexpr llvm::StringLiteral Description =
      "Ops slower than in the --compare reference trace (system tier)";
  static constexpr Tier PassTier = Tier::System;
  // What --compare adds to the pipeline.
  static constexpr PipelineMembership Pipelines[] = {{"comparative", 100}};
  static void prefetch(AnalysisPrefetch &P) { P.add<TraceDiff>(); }

  Option<double> minGapPct{*this, "min-gap-pct",
                           desc("Report an op whose gap to the reference is "
                                "at least this % of the trace's GPU time"),
                           init(1.0)};
  Option<unsigned> maxFindings{*this, "max-findings",
                               desc("Largest gaps reported"), init(20u)};

  llvm::Error run(const Trace &T, AnalysisManager &AM,
                  FindingSink &Sink) override;
};

EvidenceTable kernelTable(const Trace &T, const Trace &R, const LcaGroup &G) {
  EvidenceTable E;
  E.Title = "GPU events at this LCA";
  E.Columns = {"side", "kernel", "duration_us"};
  for (EventId K : G.Kernels1)
    E.Rows.push_back({std::string("trace"), T.name(K).str(), T.dur(K)});
  for (EventId K : G.Kernels2)
    E.Rows.push_back({std::string("reference"), R.name(K).str(), R.dur(K)});
  return E;
}

llvm::Error ComparePass::run(const Trace &T, AnalysisManager &AM,
                             FindingSink &Sink) {
  const TraceDiff &D = AM.get<TraceDiff>();
  if (!D.available())
    return llvm::Error::success();
  const Trace &R = *D.reference();
  double Total1 = D.totalTimeUs(false), Total2 = D.totalTimeUs(true);
  if (Total1 <= 0)
    return llvm::Error::success();
  auto PctOfTrace = [&](double Us) { return pyRound(Us / Total1 * 100, 2); };

  if (Total1 > Total2) {
    double Gap = Total1 - Total2;
    Sink.system("compare",
                fmt::format("Trace {:.1f}% slower than the reference "
                            "({:.3f} vs {:.3f} ms of GPU time)",
                            Total2 > 0 ? Gap / Total2 * 100 : 100.0,
                            Total1 / 1000, Total2 / 1000))
        .key("total")
        .metric("trace_gpu_time_ms", pyRound(Total1 / 1000, 3), "ms")
        .metric("reference_gpu_time_ms", pyRound(Total2 / 1000, 3), "ms")
        .metric("gap_ms", pyRound(Gap / 1000, 3), "ms")
        .metric("trace_kernels", uint64_t(D.numKernels(false)))
        .metric("reference_kernels", uint64_t(D.numKernels(true)))
        .impact(PctOfTrace(Gap), PctOfTrace(Gap), PctOfTrace(Gap),
                "measured gap to reference")
        .severity(Severity::Medium)
        .action("Start with the ops below: each is matched to the reference "
                "by its lowest common ancestor; diff.md lists all of them.")
        .mechanism("comparison with reference")
        .expect("GPU time at or below the reference's");
  }

  std::vector<const LcaGroup *> Slower;
  for (const LcaGroup &G : D.groups())
    if (G.Time1Us - G.Time2Us >= minGapPct / 100 * Total1 &&
        G.Time1Us > G.Time2Us)
      Slower.push_back(&G);
  std::stable_sort(Slower.begin(), Slower.end(),
                   [](const LcaGroup *A, const LcaGroup *B) {
                     return A->Time1Us - A->Time2Us > B->Time1Us - B->Time2Us;
                   });
  if (Slower.size() > maxFindings)
    Slower.resize(maxFindings);
  for (const LcaGroup *G : Slower) {
    double Gap = G->Time1Us - G->Time2Us;
    std::string What =
        G->Kernels2.empty()
            ? fmt::format("{} launches {} GPU event(s) the reference does not "
                          "have (+{:.3f} us)",
                          shortKernelName(G->Name), G->Kernels1.size(), Gap)
            : fmt::format("{} slower than the reference: {:.3f} vs {:.3f} us "
                          "({:+.3f} us, {} vs {} GPU events)",
                          shortKernelName(G->Name), G->Time1Us, G->Time2Us, Gap,
                          G->Kernels1.size(), G->Kernels2.size());
    FindingBuilder B = Sink.system("compare", What);
    B.key(fmt::format("lca-{}", G->Id))
        .metric("lca_id", int64_t(G->Id))
        .metric("trace_time_us", pyRound(G->Time1Us, 3), "us")
        .metric("reference_time_us", pyRound(G->Time2Us, 3), "us")
        .metric("gap_us", pyRound(Gap, 3), "us")
        .metric("trace_kernels", uint64_t(G->Kernels1.size()))
        .metric("reference_kernels", uint64_t(G->Kernels2.size()))
        .evidence(kernelTable(T, R, *G))
        .impact(PctOfTrace(Gap), PctOfTrace(Gap), PctOfTrace(Gap),
                "measured gap to reference")
        .severity(PctOfTrace(Gap) >= 5 ? Severity::High : Severity::Medium)
        .event(T.uid(G->Node1))
        .op(G->Name)
        .action(G->Kernels1.size() != G->Kernels2.size()
                    ? "Compare the kernel sequences: the trace launches a "
                      "different number of GPU events for this op than the "
                      "reference does."
                    : "Compare the kernels chosen for this op with the "
                      "reference's (library, tile shape, dtype).")
        .mechanism("comparison with reference")
        .expect("this op's GPU time at or below the reference's");
  }
  return llvm::Error::success();
}

} // namespace

void tl::registerComparePass(PassRegistry &R) { R.registerPass<ComparePass>(); }
