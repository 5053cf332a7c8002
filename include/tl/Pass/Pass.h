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
//     // Optional self-description (defaults in brackets):
//     static constexpr tl::Tier PassTier = tl::Tier::System;   [Compute]
//     static constexpr tl::Capability RequiredCapabilities[] = {
//         tl::Capability::GpuTimeline};                   [OpAttribution]
//     static constexpr tl::PipelineMembership Pipelines[] = {
//         {"system", 400}};                                      [none]
//     static constexpr llvm::StringLiteral SkillName = "my-analyzer"; [""]
//     static constexpr llvm::StringLiteral ClaimedCategories[] = {"gemm"};
//     static void prefetch(tl::AnalysisPrefetch &P) { P.add<LaunchStats>(); }
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

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Pass/PassOption.h"
#include "tl/Report/Finding.h"

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
class PassManager;

/// A named pipeline a pass joins and its place in it: the registry orders a
/// pipeline's members by Order, then by pass name (docs/WritingAPass.md).
struct PipelineMembership {
  llvm::StringLiteral Pipeline;
  int Order = 0;
};

/// Analyses a pass will ask for. With several threads the driver computes
/// them on its pool ahead of the passes; results are the same without.
class AnalysisPrefetch {
public:
  /// Early: started right after the report's largest tables (long chains
  /// the pass would wait for). Late: after the report's analyses.
  enum Phase { Early, Late };
  struct Job {
    std::string Key;     // AnalysisManager::keyOf<A>(): one job per type
    llvm::StringRef Name; // A::Name, for messages
    Phase When;
    void (*Run)(AnalysisManager &);
  };
  template <typename A> void add(Phase When = Late) {
    Job J{AnalysisManager::keyOf<A>().str(), A::Name, When,
          [](AnalysisManager &AM) { AM.get<A>(); }};
    for (const Job &Old : Jobs)
      if (Old.Key == J.Key)
        return;
    Jobs.push_back(std::move(J));
  }
  /// Add Other's jobs not already here (a pipeline merges its passes').
  void merge(const AnalysisPrefetch &Other);
  llvm::ArrayRef<Job> jobs() const { return Jobs; }

private:
  std::vector<Job> Jobs;
};

class Pass {
public:
  virtual ~Pass();
  Pass(const Pass &) = delete;
  Pass &operator=(const Pass &) = delete;

  /// Pipeline name ("my-pass").
  virtual llvm::StringRef getArgument() const = 0;
  /// One-line summary for --list-passes.
  virtual llvm::StringRef getDescription() const = 0;
  /// The report tier of the pass's findings (and of its failure).
  virtual Tier getTier() const { return Tier::Compute; }
  /// What the trace must support for the pass to run: the quality gate
  /// skips the pass when one of these is unavailable.
  virtual llvm::ArrayRef<Capability> requiredCapabilities() const;
  /// The named pipelines the pass joins (the registry builds them).
  virtual llvm::ArrayRef<PipelineMembership> pipelines() const { return {}; }
  /// Analyses to compute ahead of the pass.
  virtual void getPrefetch(AnalysisPrefetch &) const {}
  /// The reference's skill name for the categories it claims
  /// (manifest.json), "" for none.
  virtual llvm::StringRef getSkillName() const { return ""; }
  /// Op category keys this pass analyzes (compute tier).
  virtual llvm::ArrayRef<llvm::StringLiteral> claimedCategories() const {
    return {};
  }
  /// True for a pass that analyzes every category no *scheduled* pass
  /// claims (the `other` pattern; see scheduledClaims()).
  virtual bool takesUnclaimedCategories() const { return false; }

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
  /// Union of claimedCategories() over the passes scheduled with this one
  /// (sorted). Set by the PassManager; empty before it runs the pass. Passes
  /// that are loaded but not scheduled never count.
  llvm::ArrayRef<std::string> scheduledClaims() const;

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
  friend class PassManager;
  std::vector<PassOptionBase *> Options;
  std::vector<PassStatistic *> Statistics;
  const PassRegistry *Registry = nullptr;
  const std::vector<std::string> *ScheduledClaims = nullptr;
};

/// CRTP helper: supplies the virtuals from static members of Derived
/// (Argument and Description required; the rest optional, see the top of
/// this file).
template <typename Derived> class PassBase : public Pass {
public:
  llvm::StringRef getArgument() const override { return Derived::Argument; }
  llvm::StringRef getDescription() const override {
    return Derived::Description;
  }
  Tier getTier() const override {
    if constexpr (requires { Derived::PassTier; })
      return Derived::PassTier;
    else
      return Pass::getTier();
  }
  llvm::ArrayRef<Capability> requiredCapabilities() const override {
    if constexpr (requires { Derived::RequiredCapabilities; })
      return Derived::RequiredCapabilities;
    else
      return Pass::requiredCapabilities();
  }
  llvm::ArrayRef<PipelineMembership> pipelines() const override {
    if constexpr (requires { Derived::Pipelines; })
      return Derived::Pipelines;
    else
      return {};
  }
  void getPrefetch(AnalysisPrefetch &P) const override {
    if constexpr (requires { Derived::prefetch(P); })
      Derived::prefetch(P);
  }
  llvm::StringRef getSkillName() const override {
    if constexpr (requires { Derived::SkillName; })
      return Derived::SkillName;
    else
      return "";
  }
  llvm::ArrayRef<llvm::StringLiteral> claimedCategories() const override {
    if constexpr (requires { Derived::ClaimedCategories; })
      return Derived::ClaimedCategories;
    else
      return {};
  }
  bool takesUnclaimedCategories() const override {
    if constexpr (requires { Derived::TakesUnclaimed; })
      return Derived::TakesUnclaimed;
    else
      return false;
  }
};

} // namespace tl

#endif // TL_PASS_PASS_H
