//===- MemoryHog.cpp - an emitter that needs more memory than allowed ------===//
//
// test-memory-hog's emitter touches TL_TEST_HOG_MB megabytes while the
// report is written (plugin emitters run in tl-opt's own process), then
// frees them: the run-wide --max-memory budget must see that transient
// peak, fail the run with one line and keep the previous report.
//
//===----------------------------------------------------------------------===//
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/Emitter.h"

#include <cstdlib>
#include <cstring>
#include <memory>

using namespace tl;
using namespace llvm;

namespace {

class HogEmitter : public Emitter {
public:
  StringRef name() const override { return "test-memory-hog"; }
  Error emit(const ReportContext &) override {
    const char *MB = std::getenv("TL_TEST_HOG_MB");
    size_t Bytes = MB ? size_t(std::strtoul(MB, nullptr, 10)) << 20 : 0;
    if (!Bytes)
      return Error::success();
    std::unique_ptr<char[]> P(new char[Bytes]);
    // Every page written, so all of it is resident.
    std::memset(P.get(), 1, Bytes);
    volatile char Sink = P[Bytes - 1];
    (void)Sink;
    return Error::success();
  }
};

} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "MemoryHog", "1.0", [](PassRegistry &R) {
            R.registerEmitter([] { return std::make_unique<HogEmitter>(); });
          }};
}
