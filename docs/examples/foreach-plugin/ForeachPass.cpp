//===- ForeachPass.cpp - A complete third-party tl pass -------------------===//
//
// Flags optimizer foreach kernels (op category multi_tensor_apply) and adds a
// report file. It declares everything a first-class pass does: its tier, the
// capability it needs, the pipeline it joins, an analysis to prefetch, the
// category it claims (so `other` leaves it alone), its insight prose, its
// category's metrics (typed, through the sink), and an emitter of its own.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/KernelSummary.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <vector>

namespace {
constexpr llvm::StringLiteral Category = "multi_tensor_apply";

class ForeachPass : public tl::PassBase<ForeachPass> {
public:
  static constexpr llvm::StringLiteral Argument = "foreach-kernels";
  static constexpr llvm::StringLiteral Description =
      "Optimizer foreach kernels that a fused optimizer would replace";
  static constexpr tl::Tier PassTier = tl::Tier::Compute;
  static constexpr tl::Capability RequiredCapabilities[] = {
      tl::Capability::OpAttribution};
  // `--pass-pipeline=compute` (the default) runs it, after triton.
  static constexpr tl::PipelineMembership Pipelines[] = {{"compute", 850}};
  static constexpr llvm::StringLiteral ClaimedCategories[] = {Category};
  static void prefetch(tl::AnalysisPrefetch &P) { P.add<tl::KernelSummary>(); }

  Option<double> minPct{*this, "min-pct",
                        desc("Least share of all kernel time (%)"), init(1.0)};

  llvm::Error run(const tl::Trace &, tl::AnalysisManager &AM,
                  tl::FindingSink &Sink) override {
    std::vector<tl::PyValue> Ops;
    double TotalUs = 0;
    for (const tl::KernelGroupRow &G : AM.get<tl::KernelSummary>().groups()) {
      if (G.Category.value_or("") != Category || G.PercentOfKernels < minPct)
        continue;
      TotalUs += G.SumUs;
      Ops.push_back(tl::PyValue::dict(
          {{"name", tl::PyValue::str(G.KernelName)},
           {"count", tl::PyValue::integer(static_cast<int64_t>(G.Count))},
           {"time_ms", tl::PyValue::real(G.SumUs / 1000)},
           {"percent_of_kernels",
            tl::PyValue::real(std::round(G.PercentOfKernels * 100) / 100)}}));
      Sink.compute(Category, "Optimizer foreach kernel " + G.KernelName)
          .key(G.KernelName)
          // Typed: the report reads the time (ms) it covers.
          .time(G.SumUs / 1000)
          // The pass's own extras, for findings.json.
          .metric("percent_of_kernels", G.PercentOfKernels, "%")
          .nonQuantified()
          .kernel(G.KernelName)
          .insight(llvm::formatv("{0} launch(es) of {1} take {2:F1} us, "
                                 "{3:F1}% of all kernel time",
                                 G.Count, G.KernelName, G.SumUs,
                                 G.PercentOfKernels)
                       .str())
          .action("Use the fused optimizer (fused=True): one kernel then "
                  "updates every parameter");
    }
    // The category's data, in the reference's metrics schema: the report
    // writes category_data/multi_tensor_apply_metrics.json from it (a pass
    // writes no category_data/ file itself).
    if (!Ops.empty()) {
      int64_t N = static_cast<int64_t>(Ops.size());
      Sink.categoryMetrics(
          Category,
          tl::PyValue::dict({{"category", tl::PyValue::str(Category)},
                             {"status", tl::PyValue::str("OK")},
                             {"total_time_ms", tl::PyValue::real(TotalUs / 1000)},
                             {"operation_count", tl::PyValue::integer(N)},
                             {"operations", tl::PyValue::list(std::move(Ops))}}));
    }
    return llvm::Error::success();
  }
};

/// foreach_kernels.md: the pass's findings, one line each.
class ForeachEmitter : public tl::Emitter {
public:
  llvm::StringRef name() const override { return "foreach-summary"; }
  llvm::Error emit(const tl::ReportContext &Ctx) override {
    return tl::writeFileAtomically(
        Ctx.OutputDir, "foreach_kernels.md", [&](llvm::raw_ostream &OS) {
          OS << "# Optimizer foreach kernels\n\n";
          for (const tl::Finding &F : Ctx.Findings)
            if (F.Pass == ForeachPass::Argument)
              OS << "- " << F.Title << " (" << F.Id << ")\n";
        });
  }
};
} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Foreach", "1.0", [](tl::PassRegistry &R) {
            R.registerPass<ForeachPass>();
            R.registerEmitter([] { return std::make_unique<ForeachEmitter>(); });
          }};
}
