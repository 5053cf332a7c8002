//===- ComputePass.h - Base of the compute-tier passes ----------*- C++ -*-===//
//
// A compute pass is its AnalyzerHooks plus the category keys it claims:
//
//   class GemmPass : public tl::compute::ComputePass<GemmPass> {
//   public:
//     static constexpr llvm::StringLiteral Argument = "gemm";
//     static constexpr llvm::StringLiteral Description = "...";
//     static constexpr llvm::StringLiteral ClaimedCategories[] = {"gemm"};
//     tl::compute::AnalyzerHooks hooks() const;
//   };
//
// Claimed categories are category keys (§3.6: `GroupedGEMM_fwd` ->
// `groupedgemm_fwd`). A pass with `static constexpr bool TakesUnclaimed =
// true` (the `other` pass) analyzes every category no scheduled pass
// claims instead (Pass::scheduledClaims()).
//
//===----------------------------------------------------------------------===//
#ifndef TL_COMPUTE_COMPUTEPASS_H
#define TL_COMPUTE_COMPUTEPASS_H

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Compute/ComputeFindings.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"

namespace tl::compute {

/// Category keys the `other` pass takes: present in the input and not in
/// Claimed (the scheduled passes' claims).
std::vector<std::string> unclaimedCategories(const ComputeInput &In,
                                             llvm::ArrayRef<std::string> Claimed);

template <typename Derived> class ComputePass : public PassBase<Derived> {
public:
  /// MIN_PITEM_IMPACT_SCORE (§5.8): a P-item group whose summed mid impact
  /// is below this is dropped, from category_findings and from findings.
  Pass::Option<double> minImpact{
      *this, "min-impact",
      Pass::desc("Minimum summed mid impact (% of E2E) of a finding group"),
      Pass::init(MinPItemImpact)};

  /// Every compute pass starts from the per-category op records.
  static void prefetch(AnalysisPrefetch &P) { P.add<ComputeInput>(); }

  llvm::Error run(const Trace &T, AnalysisManager &AM,
                  FindingSink &Sink) override {
    const ComputeInput &In = AM.get<ComputeInput>();
    std::vector<std::string> Keys;
    if (this->takesUnclaimedCategories()) {
      Keys = unclaimedCategories(In, this->scheduledClaims());
    } else {
      for (llvm::StringLiteral C : this->claimedCategories())
        Keys.push_back(C.str());
    }
    AnalyzerHooks H = static_cast<const Derived *>(this)->hooks();
    H.MinImpact = minImpact;
    runCategories(In, Keys, H, &T, Sink);
    return llvm::Error::success();
  }
};

/// peak_maf_tflops / peak_hbm_bw_tbs items of category_specific.
std::vector<std::pair<std::string, PyValue>> peakItems(const Peaks &P,
                                                       bool WithMaf);

/// A Specific hook whose category_specific is the peak items alone.
inline decltype(AnalyzerHooks::Specific) peaksOnly(bool WithMaf) {
  return [WithMaf](const CategoryResult &R, llvm::ArrayRef<RowView>) {
    return peakItems(R.In->peaks(), WithMaf);
  };
}

} // namespace tl::compute

#endif // TL_COMPUTE_COMPUTEPASS_H
