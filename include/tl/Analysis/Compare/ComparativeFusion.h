//===- ComparativeFusion.h - Fusion candidates vs a reference -*- C++ -*-===//
//
// tracelens-analysis §3.5 (comparative extraction) and §6.10 (comparative
// estimate). A host op of the analyzed trace (trace 1) whose kernels meet
// the reference's (trace 2) kernels at their LCAs is a candidate when trace
// 1 runs more kernels there than trace 2 (Case-A gates: n1 > n2, n1 - n2 <=
// 15, n1 <= 30, n2 >= 1, and the surplus kernels are not all copies /
// collectives or all layout transforms): the reference does the same work
// with fewer kernels, so it fused something trace 1 did not. Savings are
// measured (total time trace 1 - trace 2), not projected. The KernelFusion
// pass writes these to category_data/fusion_candidates.json in comparative
// mode, as TraceLens does.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_COMPARE_COMPARATIVEFUSION_H
#define TL_ANALYSIS_COMPARE_COMPARATIVEFUSION_H

#include "tl/Analysis/FusionCandidates.h"
#include "tl/Analysis/FusionEstimate.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

struct ComparativeFusionCandidate {
  /// Trace-1 side in the standalone shape: Kernels = trace 1's kernels of
  /// the first passing instance (with LcaId), TotalKernelTimeUs = the sum
  /// over all passing instances, TypeSignature/TypeSummary of trace 1.
  FusionCandidate Base;
  /// LCA id of each of Base.Kernels.
  std::vector<uint32_t> LcaIds1;
  /// Trace 2's kernels at the same LCAs (first-matched LCA order, file
  /// order inside one LCA).
  std::vector<FusionKernel> Kernels2;
  size_t N1 = 0, N2 = 0;
  double TotalTime2Us = 0;
};

class ComparativeFusionCandidates {
public:
  static constexpr llvm::StringLiteral Name = "comparative-fusion-candidates";
  /// Empty without a reference (AnalysisOptions::Reference).
  ComparativeFusionCandidates(const Trace &T, AnalysisManager &AM);

  /// Sorted by trace-1 total kernel time desc.
  llvm::ArrayRef<ComparativeFusionCandidate> candidates() const {
    return Cands;
  }
  /// The candidate whose Base is B (FusionEstimate::Candidate), if any.
  const ComparativeFusionCandidate *
  candidateOf(const FusionCandidate &B) const {
    for (const ComparativeFusionCandidate &C : Cands)
      if (&C.Base == &B)
        return &C;
    return nullptr;
  }
  /// Each candidate's fusion_candidates.json members in the reference's
  /// comparative schema, up to input_dims (Base.InputDimsJson).
  std::vector<PyValue> toDocs() const;

private:
  std::vector<ComparativeFusionCandidate> Cands;
};

/// §6.10 comparative estimate: pre-filter (kernel count, 2 % of E2E,
/// signature dedup), then gap = total t1 - total t2 > 0, savings_high =
/// gap / 1000 ms >= P.MinSavingsMs, impact_X = savings_X / baseline * 100
/// with low/mid = 0.75/0.875 of high, dropped below P.MinImpactPct.
/// FusionEstimate::Candidate points at the candidate's Base.
FusionResult
estimateComparativeFusion(llvm::ArrayRef<ComparativeFusionCandidate> Cands,
                          const FusionParams &P);

} // namespace tl

#endif // TL_ANALYSIS_COMPARE_COMPARATIVEFUSION_H
