//===- Norm.cpp - Normalization kernels against the HBM roofline ----------===//
//
// Compute tier, categories norm / norm_fwd / norm_bwd / rmsnorm
// (tracelens-analysis §6.0, §6.7). Normalizations are memory-bound
// reductions: the recommendation is a fused norm kernel (residual add +
// norm + cast in one pass).
//
//===----------------------------------------------------------------------===//
#include "NormPass.h"
#include "tl/Compute/ComputePass.h"

using namespace tl;
using namespace tl::compute;

namespace {

class NormPass : public ComputePass<NormPass> {
public:
  static constexpr llvm::StringLiteral Argument = "norm";
  static constexpr llvm::StringLiteral Description =
      "Normalization kernels (fwd/bwd, RMSNorm): gap to roofline and its "
      "E2E cost";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 400}};
  static constexpr llvm::StringLiteral SkillName = "norm-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {
      "norm", "norm_fwd", "norm_bwd", "rmsnorm"};

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.ExtraFields = {"Input Dims", "Input type"};
    H.Specific = peaksOnly(/*WithMaf=*/false);
    H.Resolve = [](const CategoryResult &R, const CategoryFinding &F) {
      if (!F.Quantified || F.BoundType != "memory")
        return defaultResolution(R, F);
      bool Bwd = llvm::StringRef(R.Key).ends_with("_bwd");
      return Resolution{
          std::string("Use a fused normalization kernel") +
              (Bwd ? " for the backward pass (one kernel computing the input "
                     "and weight gradients)"
                   : " (residual add, normalization and the output cast in "
                     "one pass over the activations)") +
              ", e.g. the vendor/Apex/Triton fused LayerNorm/RMSNorm; these "
              "kernels should stream at HBM bandwidth.",
          "fused kernel", "higher achieved TB/s, fewer passes over HBM"};
    };
    return H;
  }
};

} // namespace

void tl::registerNormPass(PassRegistry &R) { R.registerPass<NormPass>(); }
