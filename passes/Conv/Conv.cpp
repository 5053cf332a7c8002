//===- Conv.cpp - Convolutions against the roofline -----------------------===//
//
// Compute tier, categories convolution / conv_fwd / conv_bwd
// (tracelens-analysis §6.0, §6.4): the shared core plus the transpose
// overhead (time in ops whose name says transpose). Memory-bound groups get
// the channels-last layout when that overhead is high.
//
//===----------------------------------------------------------------------===//
#include "ConvPass.h"
#include "tl/Compute/ComputePass.h"
#include "tl/Compute/ConvHooks.h"

using namespace tl;
using namespace tl::compute;

namespace {

class ConvPass : public ComputePass<ConvPass> {
public:
  static constexpr llvm::StringLiteral Argument = "conv";
  static constexpr llvm::StringLiteral Description =
      "Convolutions (fwd/bwd): gap to roofline, transpose overhead";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 600}};
  static constexpr llvm::StringLiteral SkillName = "convolution-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {
      "convolution", "conv_fwd", "conv_bwd"};

  Option<double> channelsLastPct{
      *this, "channels-last-pct",
      desc("Transpose overhead (% of category time) that calls for "
           "channels-last"),
      init(10.0)};

  AnalyzerHooks hooks() const { return convHooks(channelsLastPct); }
};

} // namespace

void tl::registerConvPass(PassRegistry &R) { R.registerPass<ConvPass>(); }
