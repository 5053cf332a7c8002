//===- Duplicate.cpp - Registers a name TestPasses already uses -----------===//
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"

namespace {
class Dup : public tl::PassBase<Dup> {
public:
  static constexpr llvm::StringLiteral Argument = "test-emit-a";
  static constexpr llvm::StringLiteral Description = "Same name as TestPasses";
  llvm::Error run(const tl::Trace &, tl::AnalysisManager &,
                  tl::FindingSink &) override {
    return llvm::Error::success();
  }
};
} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Duplicate", "1.0",
          [](tl::PassRegistry &R) { R.registerPass<Dup>(); }};
}
