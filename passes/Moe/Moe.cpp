//===- Moe.cpp - Mixture-of-experts kernels against the roofline ----------===//
//
// Compute tier, categories moe_fused / moe_unfused (tracelens-analysis
// §6.0, §6.9). Memory-bound expert GEMMs mean too few tokens per expert:
// batch more tokens; compute-bound ones get tile tuning, and no "lower
// precision" advice when they already run FP4.
//
//===----------------------------------------------------------------------===//
#include "MoePass.h"
#include "tl/Compute/ComputePass.h"

using namespace tl;
using namespace tl::compute;

namespace {

class MoePass : public ComputePass<MoePass> {
public:
  static constexpr llvm::StringLiteral Argument = "moe";
  static constexpr llvm::StringLiteral Description =
      "Mixture-of-experts kernels (fused/unfused): gap to roofline and its "
      "E2E cost";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 700}};
  static constexpr llvm::StringLiteral SkillName = "moe-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {"moe_fused",
                                                             "moe_unfused"};

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.ExtraFields = {"Input Dims", "Input type"};
    H.Specific = peaksOnly(/*WithMaf=*/true);
    // moe_analysis.py writes NO_DATA when its bucket has no ops (§6.9).
    H.NoDataMessage = [](llvm::StringRef Key) {
      return ("No MoE operations detected in this trace (" + Key +
              " bucket)")
          .str();
    };
    H.Resolve = [](const CategoryResult &R, const CategoryFinding &F) {
      if (!F.Quantified)
        return defaultResolution(R, F);
      bool Fp4 = llvm::any_of(F.Members, [&](const ImpactEstimate &E) {
        const OpRecord &Op = R.Ops[E.Op];
        return Op.Args && llvm::StringRef(*Op.Args).contains("fp4");
      });
      if (F.BoundType == "memory")
        return Resolution{
            "Route more tokens to each expert per launch (larger batch or "
            "token grouping across micro-batches) so the expert weights are "
            "read once for more rows.",
            "larger token batches per expert", "higher FLOPS/byte"};
      return Resolution{
          std::string("Tune the grouped expert GEMM's tiles for these "
                      "token counts") +
              (Fp4 ? " (already FP4: no narrower precision available)."
                   : " and use a narrower precision (FP8) if the model "
                     "tolerates it."),
          "tile/occupancy tuning", "higher TFLOP/s"};
    };
    return H;
  }
};

} // namespace

void tl::registerMoePass(PassRegistry &R) { R.registerPass<MoePass>(); }
