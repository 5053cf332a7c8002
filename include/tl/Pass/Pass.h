//===- Pass.h - The analysis pass contract ---------------------*- C++ -*-===//
//
// A pass reads the Trace (and cached analyses) and writes findings into its
// FindingSink. It must not modify shared state: the pass manager creates one
// fresh instance per run from the pass's registration and may run several
// passes at the same time on different threads.
//
// Write passes with the CRTP helper:
//
//   class MyPass : public tl::PassBase<MyPass> {
//   public:
//     static constexpr llvm::StringLiteral Argument = "my-pass";
//     static constexpr llvm::StringLiteral Description = "What it flags";
//     Option<double> minPct{*this, "min-pct", desc("Gate, % of E2E"),
//                           init(5.0)};
//     llvm::Error run(const tl::Trace &T, tl::AnalysisManager &AM,
//                     tl::FindingSink &Sink) override;
//   };
//
// and register it from a plugin: `Registry.registerPass<MyPass>();`.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASS_H
#define TL_PASS_PASS_H

#include "tl/Pass/PassOption.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace tl {

class Trace;
class AnalysisManager;
class FindingSink;
class PassRegistry;

class Pass {
public:
  virtual ~Pass();
  Pass(const Pass &) = delete;
  Pass &operator=(const Pass &) = delete;

  /// Pipeline name ("cpu-idle").
  virtual llvm::StringRef getArgument() const = 0;
  /// One-line summary for --list-passes.
  virtual llvm::StringRef getDescription() const = 0;
  /// Op categories this pass analyzes (compute tier). The `other` pass takes
  /// every category that no registered pass claims (see
  /// PassRegistry::claimedCategories()).
  virtual llvm::ArrayRef<llvm::StringLiteral> claimedCategories() const {
    return {};
  }

  /// Analyze the trace. Findings go to Sink; an error marks the pass failed
  /// (reported, other passes still run).
  virtual llvm::Error run(const Trace &T, AnalysisManager &AM,
                          FindingSink &Sink) = 0;

  llvm::ArrayRef<PassOptionBase *> options() const { return Options; }
  llvm::ArrayRef<PassStatistic *> statistics() const { return Statistics; }
  PassOptionBase *findOption(llvm::StringRef Name) const;
  /// Set option Name from text; errors name the pass, the option and the
  /// closest existing option for a typo.
  llvm::Error setOption(llvm::StringRef Name, llvm::StringRef Value);
  /// `arg{opt=v,...}` with every option's current value, options in
  /// declaration order (re-parses to the same pass).
  void printAsTextualPipeline(llvm::raw_ostream &OS) const;

  /// The registry this instance was created from (for passes that must ask
  /// about other passes, e.g. claimed categories). Null when constructed
  /// directly.
  const PassRegistry *getRegistry() const { return Registry; }

  template <typename T> using Option = PassOption<T>;
  template <typename T> using ListOption = PassListOption<T>;
  using Statistic = PassStatistic;

  // Option modifiers, usable unqualified inside pass classes.
  static OptDesc desc(llvm::StringRef Text) { return {Text}; }
  template <typename T> static OptInit<T> init(T V) { return {V}; }
  template <typename T>
  static OptListInit<T> listInit(std::initializer_list<T> Vs) {
    return {std::vector<T>(Vs)};
  }
  static OptValues values(std::initializer_list<const char *> Vs) {
    OptValues R;
    for (const char *V : Vs)
      R.Allowed.emplace_back(V);
    return R;
  }

protected:
  Pass() = default;

private:
  friend class PassOptionBase;
  friend class PassStatistic;
  friend class PassRegistry;
  std::vector<PassOptionBase *> Options;
  std::vector<PassStatistic *> Statistics;
  const PassRegistry *Registry = nullptr;
};

/// CRTP helper: supplies getArgument/getDescription from the static members
/// Derived::Argument and Derived::Description, and claimedCategories from an
/// optional `static constexpr llvm::StringLiteral ClaimedCategories[]`.
template <typename Derived> class PassBase : public Pass {
public:
  llvm::StringRef getArgument() const override { return Derived::Argument; }
  llvm::StringRef getDescription() const override {
    return Derived::Description;
  }
  llvm::ArrayRef<llvm::StringLiteral> claimedCategories() const override {
    if constexpr (requires { Derived::ClaimedCategories; })
      return Derived::ClaimedCategories;
    else
      return {};
  }
};

} // namespace tl

#endif // TL_PASS_PASS_H
