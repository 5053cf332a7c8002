//===- Collision.cpp - An analysis that reuses the core's "gpu-timeline" ---===//
//
// Before analyses were keyed by type, get<PluginTimeline>() returned the
// core's GpuTimeline cast to this type (garbage such as "label size
// 94315329066052"). Now the second type asking for the name stops the run.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"

#include <string>

namespace {
struct PluginTimeline {
  static constexpr llvm::StringLiteral Name = "gpu-timeline";
  std::string Label = "plugin";
  PluginTimeline(const tl::Trace &, tl::AnalysisManager &) {}
};

class CollidePass : public tl::PassBase<CollidePass> {
public:
  static constexpr llvm::StringLiteral Argument = "test-collide";
  static constexpr llvm::StringLiteral Description =
      "Asks for the core's GPU timeline, then for its own of the same name";
  llvm::Error run(const tl::Trace &, tl::AnalysisManager &AM,
                  tl::FindingSink &Sink) override {
    double Busy = AM.get<tl::GpuTimeline>().totalCommTime();
    const PluginTimeline &P = AM.get<PluginTimeline>();
    Sink.system("test", "label size " + std::to_string(P.Label.size()))
        .metric("comm", Busy);
    return llvm::Error::success();
  }
};
} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Collision", "1.0",
          [](tl::PassRegistry &R) { R.registerPass<CollidePass>(); }};
}
