//===- PassManagerTest.cpp - Ordering, failures, threads ------------------===//
#include "TestPasses.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/PassInstrumentation.h"
#include "tl/Pass/PassManager.h"
#include "tl/Pass/PassRegistry.h"

#include "gtest/gtest.h"

#include <atomic>

using namespace tl;
using namespace tl::test;

namespace {

std::vector<std::string> titles(unsigned Threads) {
  PassRegistry R;
  R.registerPass<Emit>();
  auto P = buildPipeline(R, "emit{n=3,sleep-ms=40,tag=a}");
  EXPECT_EQ(errText(P), "");
  PassPipeline Pipe = std::move(*P);
  Trace T;
  AnalysisManager AM(T);
  PassManager PM(std::move(Pipe));
  PassManagerOptions O;
  O.Threads = Threads;
  auto Results = PM.run(T, AM, O);
  std::vector<Finding> F = collectFindings(Results);
  std::vector<std::string> Out;
  for (const Finding &X : F)
    Out.push_back(X.Title);
  return Out;
}

/// Counts the hooks (pass hooks may run concurrently).
struct CountingInstrumentation : PassInstrumentation {
  unsigned Pipelines = 0;
  size_t PipelineSize = 0, PipelineResults = 0;
  std::atomic<unsigned> Before{0}, After{0}, FailedAfter{0};
  void runBeforePipeline(llvm::ArrayRef<std::unique_ptr<Pass>> Passes,
                         const Trace &) override {
    ++Pipelines;
    PipelineSize = Passes.size();
  }
  void runAfterPipeline(llvm::ArrayRef<PassResult> Results,
                        const Trace &) override {
    PipelineResults = Results.size();
  }
  void runBeforePass(const Pass &, const Trace &) override { ++Before; }
  void runAfterPass(const Pass &, const Trace &,
                    const PassResult &R) override {
    ++After;
    if (R.Failed)
      ++FailedAfter;
  }
};

class EmitSlow : public PassBase<EmitSlow> {
public:
  static constexpr llvm::StringLiteral Argument = "emit-slow";
  static constexpr llvm::StringLiteral Description = "slow";
  llvm::Error run(const Trace &, AnalysisManager &, FindingSink &S) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    S.system("c", "slow");
    return llvm::Error::success();
  }
};

TEST(PassManager, PipelineOrderNotCompletionOrder) {
  for (unsigned Threads : {1u, 4u}) {
    PassRegistry R;
    R.registerPass<EmitSlow>();
    R.registerPass<Emit>();
    auto P = buildPipeline(R, "emit-slow,emit{n=2,fail=true}");
    ASSERT_EQ(errText(P), "");
    Trace T;
    AnalysisManager AM(T);
    PassManager PM(std::move(*P));
    PassManagerOptions O;
    O.Threads = Threads;
    CountingInstrumentation Counts;
    O.Instrumentation = &Counts;
    auto Results = PM.run(T, AM, O);
    // One pipeline of two passes: every pass hook fires once per pass.
    EXPECT_EQ(Counts.Pipelines, 1u);
    EXPECT_EQ(Counts.PipelineSize, 2u);
    EXPECT_EQ(Counts.Before.load(), 2u);
    EXPECT_EQ(Counts.After.load(), 2u);
    EXPECT_EQ(Counts.FailedAfter.load(), 1u);
    EXPECT_EQ(Counts.PipelineResults, 2u);
    ASSERT_EQ(Results.size(), 2u);
    EXPECT_FALSE(Results[0].Failed);
    EXPECT_TRUE(Results[1].Failed);
    EXPECT_EQ(Results[1].Message, "boom");
    std::vector<PassRunInfo> Runs = collectRunInfo(Results);
    EXPECT_EQ(Runs[1].NumFindings, 2u);
    auto Failures = collectFailures(Results);
    ASSERT_EQ(Failures.size(), 1u);
    EXPECT_EQ(Failures[0].Pass, "emit");
    std::vector<Finding> F = collectFindings(Results);
    ASSERT_EQ(F.size(), 3u);
    EXPECT_EQ(F[0].Title, "slow");
    EXPECT_EQ(F[1].Title, "e0");
    EXPECT_EQ(F[2].Title, "e1");
  }
}

/// Reports the scheduled claims it sees; declares a tier and a skill.
class SeesClaims : public PassBase<SeesClaims> {
public:
  static constexpr llvm::StringLiteral Argument = "sees-claims";
  static constexpr llvm::StringLiteral Description = "d";
  static constexpr Tier PassTier = Tier::Fusion;
  static constexpr llvm::StringLiteral SkillName = "sees-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {"reduce"};
  static constexpr bool TakesUnclaimed = true;
  llvm::Error run(const Trace &, AnalysisManager &, FindingSink &S) override {
    std::string Text;
    for (const std::string &C : scheduledClaims())
      Text += C + ";";
    S.system("c", Text);
    return llvm::Error::success();
  }
};

TEST(PassManager, ClaimsAreTheScheduledPassesOnly) {
  PassRegistry R;
  R.registerPass<SeesClaims>();
  R.registerPass<AllOptions>(); // claims GEMM, loaded in both runs
  for (llvm::StringRef Text : {"sees-claims", "all-options,sees-claims"}) {
    auto P = buildPipeline(R, Text);
    ASSERT_EQ(errText(P), "");
    std::vector<PassDescription> D = P->describe();
    const PassDescription &Last = D.back();
    EXPECT_EQ(Last.Pass, "sees-claims");
    EXPECT_EQ(Last.PassTier, Tier::Fusion);
    EXPECT_EQ(Last.Skill, "sees-analyzer");
    EXPECT_TRUE(Last.TakesUnclaimed);
    EXPECT_EQ(Last.Claims, std::vector<std::string>{"reduce"});
    Trace T;
    AnalysisManager AM(T);
    PassManager PM(std::move(*P));
    auto Results = PM.run(T, AM);
    EXPECT_EQ(collectRunInfo(Results).back().PassTier, Tier::Fusion);
    std::vector<Finding> F = collectFindings(Results);
    ASSERT_EQ(F.size(), 1u);
    // "GEMM" only when all-options is scheduled, though it is always loaded.
    EXPECT_EQ(F[0].Title, Text == "sees-claims" ? "reduce;" : "GEMM;reduce;");
  }
}

TEST(PassManager, StatisticsKeepTheirDescription) {
  PassRegistry R;
  R.registerPass<AllOptions>();
  auto P = buildPipeline(R, "all-options");
  ASSERT_EQ(errText(P), "");
  Trace T;
  AnalysisManager AM(T);
  PassManager PM(std::move(*P));
  auto Results = PM.run(T, AM);
  std::vector<PassRunInfo> Runs = collectRunInfo(Results);
  ASSERT_EQ(Runs[0].Statistics.size(), 1u);
  EXPECT_EQ(Runs[0].Statistics[0].Name, "st");
  EXPECT_EQ(Runs[0].Statistics[0].Description, "a statistic");
  // --pass-statistics prints it: test/Pass/timing.test.
}

TEST(PassManager, SameFindingsForAnyThreadCount) {
  EXPECT_EQ(titles(1), titles(3));
}

} // namespace
