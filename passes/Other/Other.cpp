//===- Other.cpp - Every category no other compute pass claims ------------===//
//
// Compute tier, generic analyzer (tracelens-analysis §6.6): categories no
// registered pass claims (`other`, `multi_tensor_apply`, ...; a plugin that
// claims one takes it from here). Ops are sub-classified communication /
// graph / miscellaneous; in `other`, communication ops are pulled out before
// any metric and pointed to the multi-kernel pass.
//
//===----------------------------------------------------------------------===//
#include "OtherPass.h"
#include "tl/Compute/ComputePass.h"

using namespace tl;
using namespace tl::compute;
using llvm::StringRef;

namespace {

StringRef subCategory(StringRef Name) {
  if (containsAnyCI(Name, {"all_reduce", "collective", "ncclkernel", "rccl",
                           "broadcast", "allgather"}))
    return "communication";
  if (containsAnyCI(Name, {"graph", "hipgraph", "cudagraph"}))
    return "graph";
  return "miscellaneous";
}

class OtherPass : public ComputePass<OtherPass> {
public:
  static constexpr llvm::StringLiteral Argument = "other";
  static constexpr llvm::StringLiteral Description =
      "Every op category no other pass claims: communication pulled out, "
      "graph ops, unmodelled ops";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 900}};
  static constexpr llvm::StringLiteral SkillName = "generic-op-analyzer";
  static constexpr bool TakesUnclaimed = true;

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.ExtraFields = {"Input Dims", "Input type"};
    H.Exclude = [](const RowView &V) {
      return categoryKeyOf(V.text("op category")) == "other" &&
             subCategory(V.text("name")) == "communication";
    };
    H.Classify = [](const RowView &, const OpRecord &Op) {
      return std::optional<PyValue>(PyValue::dict(
          {{"sub_category", PyValue::str(subCategory(Op.Name))}}));
    };
    H.Specific = [](const CategoryResult &R, llvm::ArrayRef<RowView> Excl) {
      int64_t Graph = 0, Misc = 0;
      for (const OpRecord &Op : R.Ops) {
        if (subCategory(Op.Name) == "graph")
          ++Graph;
        else
          ++Misc;
      }
      // communication_count stays 0 as in the reference: communication ops
      // are reported under communication_ops_skipped instead.
      std::vector<std::pair<std::string, PyValue>> S = {
          {"communication_count", PyValue::integer(0)},
          {"graph_count", PyValue::integer(Graph)},
          {"miscellaneous_count", PyValue::integer(Misc)}};
      for (auto &KV : peakItems(R.In->peaks(), /*WithMaf=*/true))
        S.push_back(std::move(KV));
      if (!Excl.empty()) {
        std::vector<PyValue> Names;
        for (const RowView &V : Excl)
          Names.push_back(PyValue::str(V.text("name")));
        S.push_back(
            {"communication_ops_skipped",
             PyValue::dict(
                 {{"count", PyValue::integer(static_cast<int64_t>(Excl.size()))},
                  {"op_names", PyValue::list(std::move(Names))},
                  {"message",
                   PyValue::str("Communication kernels detected. Use "
                                "TraceLens's NCCL Analyzer for detailed "
                                "collective communication analysis (see "
                                "TraceLens/NcclAnalyser/).")}})});
      }
      return S;
    };
    H.Extensions = [](const CategoryResult &R) {
      std::vector<std::pair<std::string, PyValue>> E;
      if (R.Specific.kind() == PyValue::Kind::Dict)
        for (const auto &KV : R.Specific.items())
          if (KV.first == "communication_ops_skipped")
            E.push_back({"communication_ops_analyzed_by",
                         PyValue::str("multi-kernel (category_data/"
                                      "multi_kernel_metrics.json)")});
      return E;
    };
    H.Resolve = [](const CategoryResult &R, const CategoryFinding &F) {
      bool Graph = llvm::any_of(F.Members, [&](const ImpactEstimate &E) {
        return subCategory(E.Operation) == "graph";
      });
      if (Graph)
        return Resolution{
            "This is a graph replay: its kernels are the model's kernels "
            "launched from a captured graph. Profile the graph capture too "
            "(vLLM / SGLang capture_traces/ with execution_details.json, "
            "beside the trace or given with --capture-folder) so the "
            "replayed kernels get their ops, shapes and modules, or "
            "profile once without graph capture; then tune the GEMM, "
            "attention and elementwise kernels that show up.",
            "graph-op attribution", "time attributed to modelled categories"};
      return defaultResolution(R, F);
    };
    return H;
  }
};

} // namespace

void tl::registerOtherPass(PassRegistry &R) { R.registerPass<OtherPass>(); }
