//===- HostilePasses.cpp - Plugin passes that misbehave --------------------===//
//
// test-hostile{how=...} emits one finding, then dies the way a buggy
// third-party pass can: a segfault, abort, std::terminate, an exception
// thrown on a thread of its own, exit(0), exit(3), or a loop that never ends.
// Each must fail that pass only (docs/Robustness.md, plugin isolation).
// test-rich produces one of everything a pass can produce (a finding with
// every field, an artifact, a statistic) to check what comes back from the
// child process.
//
//===----------------------------------------------------------------------===//
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <thread>

using namespace tl;
using namespace llvm;

namespace {

class HostilePass : public PassBase<HostilePass> {
public:
  static constexpr StringLiteral Argument = "test-hostile";
  static constexpr StringLiteral Description =
      "Emits one finding, then crashes, exits or hangs";
  Option<std::string> how{
      *this, "how", desc("How to misbehave"), init("segv"),
      values({"segv", "abort", "terminate", "thread-throw", "exit0", "exit3",
              "hang", "none"})};
  // An address the compiler cannot prove null (a plain null store may be
  // compiled into a trap instruction, another signal).
  Option<unsigned> address{*this, "address", desc("Where segv writes"),
                           init(0u)};

  Error run(const Trace &, AnalysisManager &, FindingSink &Sink) override {
    Sink.system("test", "finding before misbehaving").nonQuantified();
    if (*how == "segv")
      *reinterpret_cast<volatile int *>(static_cast<uintptr_t>(*address)) = 1;
    else if (*how == "abort")
      std::abort();
    else if (*how == "terminate")
      std::terminate();
    else if (*how == "thread-throw")
      std::thread([] { throw std::runtime_error("thrown on a thread"); })
          .join();
    else if (*how == "exit0")
      std::exit(0);
    else if (*how == "exit3")
      std::exit(3);
    else if (*how == "hang")
      for (;;)
        std::this_thread::sleep_for(std::chrono::seconds(1));
    return Error::success();
  }
};

class RichPass : public PassBase<RichPass> {
public:
  static constexpr StringLiteral Argument = "test-rich";
  static constexpr StringLiteral Description =
      "One finding with every field, an artifact and a statistic";
  Statistic made{*this, "made", "Things made"};

  Error run(const Trace &, AnalysisManager &, FindingSink &Sink) override {
    EvidenceTable E;
    E.Title = "evidence";
    E.Columns = {"name", "value"};
    E.Rows = {{std::string("row-a"), 1.5}, {int64_t(-3), false}};
    Sink.compute("rich", "rich finding")
        .key("rich-key")
        .metric("ms", 2.5, "ms")
        .metric("count", int64_t(-7))
        .metric("flag", true)
        .metric("label", StringRef("a \"quoted\" label"))
        .evidence(std::move(E))
        .impact(1.25, 2.5, 5.0, "roofline")
        .severity(Severity::High)
        .event(42)
        .op("aten::mm")
        .kernel("sm90_gemm")
        .timeRange(10.0, 20.5)
        .insight("the insight")
        .action("the action")
        .mechanism("the mechanism")
        .expect("the expectation")
        .note("the note");
    if (Error E = Sink.artifact("rich/artifact.txt", "rich artifact\n"))
      return E;
    made = 5;
    return Error::success();
  }
};

} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "HostilePasses", "1.0", [](PassRegistry &R) {
            R.registerPass<HostilePass>();
            R.registerPass<RichPass>();
          }};
}
