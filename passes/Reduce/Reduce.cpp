//===- Reduce.cpp - Reductions and softmax against the roofline ------------===//
//
// Compute tier, category `reduce` (tracelens-analysis §6.0, §6.7): the
// shared core plus the softmax row count.
//
//===----------------------------------------------------------------------===//
#include "ReducePass.h"
#include "tl/Compute/ComputePass.h"

using namespace tl;
using namespace tl::compute;

namespace {

class ReducePass : public ComputePass<ReducePass> {
public:
  static constexpr llvm::StringLiteral Argument = "reduce";
  static constexpr llvm::StringLiteral Description =
      "Reductions (sum, mean, max, softmax): gap to roofline and its E2E cost";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 500}};
  static constexpr llvm::StringLiteral SkillName = "reduce-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {"reduce"};

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.ExtraFields = {"Input Dims", "Input type"};
    H.Specific = [](const CategoryResult &R, llvm::ArrayRef<RowView>) {
      int64_t Softmax = 0;
      for (const OpRecord &Op : R.Ops)
        Softmax += containsAnyCI(Op.Name, {"softmax"});
      std::vector<std::pair<std::string, PyValue>> S = {
          {"softmax_count", PyValue::integer(Softmax)}};
      for (auto &KV : peakItems(R.In->peaks(), /*WithMaf=*/false))
        S.push_back(std::move(KV));
      return S;
    };
    H.Resolve = [](const CategoryResult &R, const CategoryFinding &F) {
      if (!F.Quantified || F.BoundType != "memory")
        return defaultResolution(R, F);
      bool Softmax = llvm::any_of(F.Members, [&](const ImpactEstimate &E) {
        return containsAnyCI(E.Operation, {"softmax"});
      });
      if (Softmax)
        return Resolution{
            "Fold the softmax into the attention kernel (scaled_dot_product_"
            "attention / flash attention) or fuse it with its scale/mask "
            "producer, so the score matrix is not written to and re-read "
            "from HBM.",
            "fused kernel", "fewer passes over the score matrix"};
      return Resolution{
          "Use a single-pass reduction over contiguous data (reduce along "
          "the innermost dimension, or fuse the reduction into its "
          "producer) so the kernel streams at HBM bandwidth.",
          "layout change / fused kernel", "higher achieved TB/s"};
    };
    return H;
  }
};

} // namespace

void tl::registerReducePass(PassRegistry &R) { R.registerPass<ReducePass>(); }
