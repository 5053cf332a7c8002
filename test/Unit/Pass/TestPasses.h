//===- TestPasses.h - Small passes for the Pass unit tests ------*- C++ -*-===//
#ifndef TL_UNITTEST_PASS_TESTPASSES_H
#define TL_UNITTEST_PASS_TESTPASSES_H

#include "tl/Pass/Pass.h"
#include "tl/Report/FindingSink.h"

#include <chrono>
#include <thread>

namespace tl::test {

/// Error text ("" on success); consumes the error.
inline std::string errText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}
/// Error text of an Expected ("" on success), leaving the value usable.
template <typename T> std::string errText(llvm::Expected<T> &E) {
  return E ? std::string() : llvm::toString(E.takeError());
}

class AllOptions : public PassBase<AllOptions> {
public:
  static constexpr llvm::StringLiteral Argument = "all-options";
  static constexpr llvm::StringLiteral Description = "Every option type";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {"GEMM"};
  Option<double> d{*this, "d", desc("double"), init(0.1)};
  Option<int> i{*this, "i", desc("int"), init(-1)};
  Option<unsigned> u{*this, "u", desc("unsigned"), init(7u)};
  Option<bool> b{*this, "b", desc("bool"), init(true)};
  Option<std::string> s{*this, "s", desc("string"), init("abc")};
  Option<std::string> e{*this, "e", desc("enum"), init("x"),
                        values({"x", "y"})};
  ListOption<double> l{*this, "l", desc("list"), listInit({0.5, 2.0})};
  Statistic st{*this, "st", "a statistic"};
  llvm::Error run(const Trace &, AnalysisManager &, FindingSink &) override {
    return llvm::Error::success();
  }
};

/// Emits N findings after sleeping; title depends only on options.
class Emit : public PassBase<Emit> {
public:
  static constexpr llvm::StringLiteral Argument = "emit";
  static constexpr llvm::StringLiteral Description = "Emits findings";
  Option<unsigned> n{*this, "n", desc("count"), init(3u)};
  Option<unsigned> sleepMs{*this, "sleep-ms", desc("sleep"), init(0u)};
  Option<std::string> tag{*this, "tag", desc("title prefix"), init("e")};
  Option<bool> fail{*this, "fail", desc("fail after emitting"), init(false)};
  llvm::Error run(const Trace &, AnalysisManager &, FindingSink &S) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(*sleepMs));
    for (unsigned I = 0; I < n; ++I)
      S.system("cat", *tag + std::to_string(I)).metric("i", int64_t(I));
    if (fail)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "boom");
    return llvm::Error::success();
  }
};

} // namespace tl::test

#endif
