//===- PipelineTest.cpp - Pipeline parsing and the registry ---------------===//
#include "TestPasses.h"

#include "tl/Pass/PassPipeline.h"
#include "tl/Pass/PassRegistry.h"

#include "gtest/gtest.h"

using namespace tl;
using namespace tl::test;

namespace {

struct PipelineTest : ::testing::Test {
  PassRegistry R;
  void SetUp() override {
    R.registerPass<AllOptions>();
    R.registerPass<Emit>();
    R.registerPipeline("group", "both", "emit{n=1},all-options");
    ASSERT_EQ(errText(R.takeError()), "");
  }
  std::string build(llvm::StringRef Text) {
    auto P = buildPipeline(R, Text);
    if (!P)
      return "error: " + llvm::toString(P.takeError());
    return P->str();
  }
};

TEST_F(PipelineTest, Syntax) {
  auto Els = parsePipelineText(" a , b{x=1,2, y = z } ,c{}");
  ASSERT_EQ(errText(Els), "");
  ASSERT_EQ(Els->size(), 3u);
  EXPECT_EQ((*Els)[1].Name, "b");
  ASSERT_EQ((*Els)[1].Options.size(), 2u);
  EXPECT_EQ((*Els)[1].Options[0].second, "1,2");
  EXPECT_EQ((*Els)[1].Options[1].second, "z");
  EXPECT_TRUE((*Els)[2].Options.empty());
}

TEST_F(PipelineTest, ExpandsAndPrints) {
  EXPECT_EQ(build("group"),
            "emit{n=1,sleep-ms=0,tag=e,fail=false},"
            "all-options{d=0.1,i=-1,u=7,b=true,s=abc,e=x,l=0.5,2}");
  EXPECT_EQ(build("all-options{l=1,2,3,d=2}"),
            "all-options{d=2,i=-1,u=7,b=true,s=abc,e=x,l=1,2,3}");
}

TEST_F(PipelineTest, Errors) {
  EXPECT_EQ(build("emt"), "error: invalid pass pipeline 'emt': unknown pass "
                          "or pipeline 'emt'; did you mean 'emit'?");
  EXPECT_EQ(build("emit{n=1"), "error: invalid pass pipeline 'emit{n=1': "
                               "unbalanced '{' at column 5 (missing '}')");
  EXPECT_EQ(build("emit}"),
            "error: invalid pass pipeline 'emit}': unbalanced '}' at column 5");
  EXPECT_EQ(build(",emit"), "error: invalid pass pipeline ',emit': empty "
                            "pipeline element at column 1");
  EXPECT_EQ(build("emit{n=1,n=2}"), "error: invalid pass pipeline "
                                    "'emit{n=1,n=2}': duplicate option 'n' "
                                    "in 'emit'");
  EXPECT_EQ(build("emit,group"), "error: invalid pass pipeline 'emit,group': "
                                 "pass 'emit' appears more than once (in "
                                 "pipeline 'group')");
  EXPECT_EQ(build("emit emit"),
            "error: invalid pass pipeline 'emit emit': unexpected character "
            "'e' at column 6 (expected ',' or '{')");
}

TEST_F(PipelineTest, OverridesApplyBeforeText) {
  PassOptionOverrides O{{"emit", {{"n", "9"}, {"tag", "q"}}}};
  auto P = buildPipeline(R, "emit{n=2}", &O);
  ASSERT_EQ(errText(P), "");
  EXPECT_EQ(P->str(), "emit{n=2,sleep-ms=0,tag=q,fail=false}");
}

TEST_F(PipelineTest, RegistryDuplicatesAndClaims) {
  R.setOrigin("plugin X");
  R.registerPass<Emit>();
  R.registerPipeline("group", "again", "emit");
  EXPECT_EQ(errText(R.takeError()), 
                        "plugin X: pass 'emit' is already registered by "
                        "builtin\nplugin X: pipeline 'group' is already "
                        "registered");
  EXPECT_EQ(R.claimedCategories(), std::vector<std::string>{"GEMM"});
  EXPECT_EQ(R.passClaiming("GEMM"), "all-options");
  EXPECT_EQ(R.passClaiming("NORM"), "");
  auto P = R.createPass("emit");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->getRegistry(), &R);
}

TEST(ClosestMatch, Bounds) {
  std::vector<std::string> C{"gemm", "sdpa", "multi-kernel"};
  EXPECT_EQ(closestMatch("gem", C), "gemm");
  EXPECT_EQ(closestMatch("multi-kernl", C), "multi-kernel");
  EXPECT_EQ(closestMatch("zzzzzz", C), "");
}

} // namespace
