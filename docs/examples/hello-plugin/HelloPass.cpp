//===- HelloPass.cpp - A minimal out-of-tree tl pass ------------------------===//
//
// Flags GPU kernels longer than a threshold. Everything a real pass needs:
// an option, a statistic, a finding with metrics, impact and locations.
//
//===----------------------------------------------------------------------===//
#include "tl/IR/Trace.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"

namespace {

class HelloPass : public tl::PassBase<HelloPass> {
public:
  static constexpr llvm::StringLiteral Argument = "hello";
  static constexpr llvm::StringLiteral Description =
      "Flags GPU kernels longer than min-us";

  Option<double> minUs{*this, "min-us", desc("Kernel duration threshold (us)"),
                       init(10.0)};
  Statistic kernelsSeen{*this, "kernels-seen", "GPU kernels looked at"};

  llvm::Error run(const tl::Trace &T, tl::AnalysisManager &,
                  tl::FindingSink &Sink) override {
    for (tl::EventId E : T.eventsOfKind(tl::EventKind::Kernel)) {
      ++kernelsSeen;
      if (T.dur(E) < minUs)
        continue;
      Sink.compute("hello", "Long kernel: " + T.name(E).str())
          .key(std::to_string(T.uid(E)))
          .metric("duration_us", T.dur(E), "us")
          .nonQuantified()
          .kernel(T.name(E))
          .event(T.uid(E))
          .action("Look at this kernel");
    }
    return llvm::Error::success();
  }
};

} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "HelloPlugin", "1.0",
          [](tl::PassRegistry &R) { R.registerPass<HelloPass>(); }};
}
