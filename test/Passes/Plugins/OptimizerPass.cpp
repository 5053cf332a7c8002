//===- OptimizerPass.cpp - Test plugin claiming a new compute category ----===//
//
// Claims `multi_tensor_apply` (optimizer foreach kernels), which no builtin
// pass claims, so the `other` pass stops analyzing it once this plugin is
// loaded. Uses the shared compute core with its own category_specific.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ComputePass.h"
#include "tl/Pass/PassPlugin.h"

using namespace tl;
using namespace tl::compute;

namespace {

class OptimizerPass : public ComputePass<OptimizerPass> {
public:
  static constexpr llvm::StringLiteral Argument = "optimizer";
  static constexpr llvm::StringLiteral Description =
      "Optimizer foreach kernels (test plugin)";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {
      "multi_tensor_apply"};

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.ExtraFields = {"Input Dims", "Input type"};
    H.Specific = [](const CategoryResult &R, llvm::ArrayRef<RowView>) {
      int64_t Foreach = 0;
      for (const OpRecord &Op : R.Ops)
        Foreach += containsAnyCI(Op.Name, {"_foreach_"});
      return std::vector<std::pair<std::string, PyValue>>{
          {"foreach_op_count", PyValue::integer(Foreach)}};
    };
    return H;
  }
};

} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "TestOptimizer", "1.0",
          [](PassRegistry &R) { R.registerPass<OptimizerPass>(); }};
}
