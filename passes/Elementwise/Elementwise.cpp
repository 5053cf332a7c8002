//===- Elementwise.cpp - Elementwise kernels against the HBM roofline -----===//
//
// Compute tier, category `elementwise` (tracelens-analysis §6.0, §6.7): the
// shared core plus FLOPS/Byte per op and the platform's HBM peak. Memory-
// bound groups get a fusion recommendation when the ops are short and
// numerous (launch-bound chains), a vectorisation one otherwise.
//
//===----------------------------------------------------------------------===//
#include "ElementwisePass.h"
#include "tl/Compute/ComputePass.h"

using namespace tl;
using namespace tl::compute;

namespace {

class ElementwisePass : public ComputePass<ElementwisePass> {
public:
  static constexpr llvm::StringLiteral Argument = "elementwise";
  static constexpr llvm::StringLiteral Description =
      "Elementwise kernels: gap to the HBM roofline and its E2E cost";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 300}};
  static constexpr llvm::StringLiteral SkillName = "elementwise-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {"elementwise"};

  Option<unsigned> launchCount{
      *this, "launch-count",
      desc("Invocations above which a group counts as launch-bound"),
      init(1000u)};

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.ExtraFields = {"Input Dims", "Input type", "FLOPS/Byte"};
    H.Specific = peaksOnly(/*WithMaf=*/false);
    unsigned Launch = launchCount;
    H.Resolve = [Launch](const CategoryResult &R, const CategoryFinding &F) {
      if (!F.Quantified || F.BoundType != "memory")
        return defaultResolution(R, F);
      int64_t Calls = 0;
      for (const ImpactEstimate &E : F.Members)
        Calls += R.Ops[E.Op].Count;
      if (Calls > Launch)
        return Resolution{
            "These elementwise ops run " + std::to_string(Calls) +
                " times: fuse the chain they belong to into one kernel "
                "(torch.compile or a hand-written fused kernel) so the "
                "intermediate tensors never reach HBM and the launches "
                "collapse.",
            "fused kernel", "fewer launches and bytes moved"};
      // Near the roof already: only moving fewer bytes helps.
      if (F.EffBucket == "60-100")
        return Resolution{
            "These ops already stream near HBM bandwidth: only moving fewer "
            "bytes helps — fuse each op into its producer or consumer so its "
            "tensors are not written to and re-read from HBM.",
            "fused kernel", "fewer bytes moved"};
      return Resolution{
          "Each op reads and writes its tensors once but stays far below "
          "HBM bandwidth: use the vectorised (contiguous, aligned) path — "
          "make inputs contiguous and avoid broadcasting/strided views — or "
          "fuse the op into its producer.",
          "layout change / vectorised access", "higher achieved TB/s"};
    };
    return H;
  }
};

} // namespace

void tl::registerElementwisePass(PassRegistry &R) { R.registerPass<ElementwisePass>(); }
