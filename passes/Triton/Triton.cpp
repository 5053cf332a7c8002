//===- Triton.cpp - TorchInductor Triton kernels against the roofline -----===//
//
// Compute tier, category `triton` (tracelens-analysis §6.0, §6.5): kernels
// classified pointwise / reduction / persistent / other by their Inductor
// name prefix.
//
//===----------------------------------------------------------------------===//
#include "TritonPass.h"
#include "tl/Compute/ComputePass.h"

#include "llvm/ADT/StringExtras.h"

using namespace tl;
using namespace tl::compute;

namespace {

llvm::StringRef tritonKind(llvm::StringRef Name) {
  std::string L = Name.lower();
  llvm::StringRef S(L);
  if (S.starts_with("triton_poi_"))
    return "pointwise";
  if (S.starts_with("triton_red_"))
    return "reduction";
  if (S.starts_with("triton_per_"))
    return "persistent";
  return "other";
}

class TritonPass : public ComputePass<TritonPass> {
public:
  static constexpr llvm::StringLiteral Argument = "triton";
  static constexpr llvm::StringLiteral Description =
      "Triton (TorchInductor) kernels: pointwise/reduction/persistent, gap "
      "to roofline";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 800}};
  static constexpr llvm::StringLiteral SkillName = "triton-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {"triton"};

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.ExtraFields = {"Input Dims", "Input type"};
    H.Classify = [](const RowView &, const OpRecord &Op) {
      return std::optional<PyValue>(PyValue::dict(
          {{"kernel_type", PyValue::str(tritonKind(Op.Name))}}));
    };
    H.Specific = [](const CategoryResult &R, llvm::ArrayRef<RowView>) {
      int64_t Poi = 0, Red = 0, Per = 0, Other = 0;
      for (const OpRecord &Op : R.Ops) {
        llvm::StringRef K = tritonKind(Op.Name);
        (K == "pointwise"    ? Poi
         : K == "reduction"  ? Red
         : K == "persistent" ? Per
                             : Other)++;
      }
      std::vector<std::pair<std::string, PyValue>> S = {
          {"pointwise_count", PyValue::integer(Poi)},
          {"reduction_count", PyValue::integer(Red)},
          {"persistent_count", PyValue::integer(Per)},
          {"other_count", PyValue::integer(Other)}};
      for (auto &KV : peakItems(R.In->peaks(), /*WithMaf=*/true))
        S.push_back(std::move(KV));
      return S;
    };
    H.Resolve = [](const CategoryResult &R, const CategoryFinding &F) {
      if (!F.Quantified)
        return defaultResolution(R, F);
      bool Reduction = llvm::any_of(F.Members, [&](const ImpactEstimate &E) {
        return tritonKind(E.Operation) != "pointwise";
      });
      return Resolution{
          std::string("Re-tune these Inductor kernels: compile with "
                      "mode=\"max-autotune\" (coordinate-descent tuning of "
                      "block sizes, num_warps, num_stages)") +
              (Reduction ? "; for reductions try the persistent/split "
                           "reduction configs."
                         : "."),
          "tile/occupancy tuning", "higher achieved TB/s or TFLOP/s"};
    };
    return H;
  }
};

} // namespace

void tl::registerTritonPass(PassRegistry &R) { R.registerPass<TritonPass>(); }
