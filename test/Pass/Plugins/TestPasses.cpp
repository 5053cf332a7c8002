//===- TestPasses.cpp - Passes for the pass-infrastructure tests ----------===//
//
// test-emit-a/b/c emit findings whose content depends only on the trace and
// their options; they sleep different amounts so that with several threads
// they finish out of pipeline order (the report order must not change).
// test-fail fails after emitting one finding; test-options echoes every
// option type; test-analysis uses a cached analysis from two passes.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"

#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <stdexcept>
#include <chrono>
#include <thread>

using namespace tl;
using namespace llvm;

namespace {

/// Counts events by kind; counts how often it was constructed.
struct EventCount {
  static constexpr StringLiteral Name = "test-event-count";
  size_t Events = 0;
  EventCount(const Trace &T, AnalysisManager &) {
    Events = T.size();
    ++constructions();
  }
  static std::atomic<int> &constructions() {
    static std::atomic<int> N{0};
    return N;
  }
};

template <typename Derived> class EmitPass : public PassBase<Derived> {
public:
  using Base = PassBase<Derived>;
  typename Base::template Option<unsigned> count{
      *this, "count", Base::desc("Findings to emit"), Base::init(2u)};
  typename Base::template Option<unsigned> sleepMs{
      *this, "sleep-ms", Base::desc("Sleep before emitting (ms)"),
      Base::init(Derived::DefaultSleep)};
  typename Base::Statistic emitted{*this, "emitted", "Findings emitted"};

  Error run(const Trace &T, AnalysisManager &AM, FindingSink &Sink) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(*sleepMs));
    size_t Events = AM.get<EventCount>().Events;
    for (unsigned I = 0; I < count; ++I) {
      std::string Title = (Derived::Argument + " finding " + Twine(I)).str();
      Sink.finding(Derived::TierOf, "test", Title)
          .metric("index", static_cast<int64_t>(I))
          .metric("events", static_cast<int64_t>(Events))
          .metric("ratio", I / 4.0, "%")
          .impact(0.5 * I, 1.0 * I, 1.5 * I, "test")
          .severity(Severity::Low)
          .op("aten::mm")
          .event(I)
          .action("do nothing")
          .expect("no change");
      ++emitted;
    }
    return Error::success();
  }
};

class EmitA : public EmitPass<EmitA> {
public:
  static constexpr StringLiteral Argument = "test-emit-a";
  static constexpr StringLiteral Description = "Emits compute findings";
  static constexpr Tier TierOf = Tier::Compute;
  static constexpr unsigned DefaultSleep = 60;
  static constexpr StringLiteral ClaimedCategories[] = {"GEMM", "SDPA"};
};
class EmitB : public EmitPass<EmitB> {
public:
  static constexpr StringLiteral Argument = "test-emit-b";
  static constexpr StringLiteral Description = "Emits system findings";
  static constexpr Tier TierOf = Tier::System;
  static constexpr unsigned DefaultSleep = 30;
};
class EmitC : public EmitPass<EmitC> {
public:
  static constexpr StringLiteral Argument = "test-emit-c";
  static constexpr StringLiteral Description = "Emits fusion findings";
  static constexpr Tier TierOf = Tier::Fusion;
  static constexpr unsigned DefaultSleep = 0;
  static constexpr StringLiteral ClaimedCategories[] = {"NORM"};
};

class FailPass : public PassBase<FailPass> {
public:
  static constexpr StringLiteral Argument = "test-fail";
  static constexpr StringLiteral Description = "Emits one finding, then fails";
  Error run(const Trace &, AnalysisManager &, FindingSink &Sink) override {
    Sink.system("test", "finding before failure").nonQuantified();
    return createStringError(inconvertibleErrorCode(),
                             "deliberate failure for testing");
  }
};

/// A buggy third-party pass: throws a C++ exception out of run(). The pass
/// manager must record it as failed and keep the other passes' findings.
class ThrowPass : public PassBase<ThrowPass> {
public:
  static constexpr StringLiteral Argument = "test-throw";
  static constexpr StringLiteral Description =
      "Emits one finding, then throws a C++ exception";
  Option<bool> nonstd{*this, "nonstd", desc("Throw an int, not a "
                                             "std::exception"),
                      init(false)};
  Error run(const Trace &, AnalysisManager &, FindingSink &Sink) override {
    Sink.system("test", "finding before throw").nonQuantified();
    if (nonstd)
      throw 42;
    throw std::runtime_error("plugin blew up");
  }
};

/// Contributes one artifact whose relative path comes from an option (think:
/// a name taken from the trace); unsafe paths must be refused, not written.
class ArtifactPass : public PassBase<ArtifactPass> {
public:
  static constexpr StringLiteral Argument = "test-write-artifact";
  static constexpr StringLiteral Description =
      "Writes one artifact at a given relative path";
  Option<std::string> path{*this, "path", desc("Relative artifact path"),
                           init("art/a.txt")};
  Error run(const Trace &, AnalysisManager &, FindingSink &Sink) override {
    return Sink.artifact(*path, "artifact content\n");
  }
};

class OptionsPass : public PassBase<OptionsPass> {
public:
  static constexpr StringLiteral Argument = "test-options";
  static constexpr StringLiteral Description = "Reports its option values";
  Option<double> ratio{*this, "ratio", desc("A number"), init(0.5)};
  Option<int> delta{*this, "delta", desc("An integer"), init(-3)};
  Option<unsigned> limit{*this, "limit", desc("An unsigned"), init(10u)};
  Option<bool> flag{*this, "flag", desc("A bool"), init(false)};
  Option<std::string> label{*this, "label", desc("A string"), init("x")};
  Option<std::string> mode{*this, "mode", desc("An enum"), init("auto"),
                           values({"auto", "train", "infer"})};
  ListOption<int> ids{*this, "ids", desc("A list"), listInit({1, 2})};

  Error run(const Trace &, AnalysisManager &, FindingSink &Sink) override {
    std::string Ids;
    for (size_t I = 0; I < ids.size(); ++I)
      Ids += (I ? "," : "") + std::to_string(ids[I]);
    Sink.compute("test", "options")
        .metric("ratio", *ratio)
        .metric("delta", static_cast<int64_t>(*delta))
        .metric("limit", static_cast<int64_t>(*limit))
        .metric("flag", static_cast<bool>(flag))
        .metric("label", StringRef(*label))
        .metric("mode", StringRef(*mode))
        .metric("ids", StringRef(Ids));
    return Error::success();
  }
};

/// Reports the categories the scheduled passes claim (the `other` pattern).
class UnclaimedPass : public PassBase<UnclaimedPass> {
public:
  static constexpr StringLiteral Argument = "test-unclaimed";
  static constexpr StringLiteral Description =
      "Lists the claimed categories it can see";
  Error run(const Trace &, AnalysisManager &, FindingSink &Sink) override {
    std::string S;
    for (const std::string &C : scheduledClaims())
      S += (S.empty() ? "" : ",") + C;
    Sink.compute("test", "claimed " + S).nonQuantified();
    return Error::success();
  }
};

} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "TestPasses", "1.0", [](PassRegistry &R) {
            R.registerPass<EmitA>();
            R.registerPass<EmitB>();
            R.registerPass<EmitC>();
            R.registerPass<FailPass>();
            R.registerPass<ThrowPass>();
            R.registerPass<ArtifactPass>();
            R.registerPass<OptionsPass>();
            R.registerPass<UnclaimedPass>();
            R.registerPipeline("test-all", "Every emitting test pass",
                               "test-emit-a,test-emit-b,test-emit-c");
          }};
}
