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

TEST_F(PipelineTest, RegistryDuplicates) {
  R.setOrigin("plugin X");
  R.registerPass<Emit>();
  R.registerPipeline("group", "again", "emit");
  EXPECT_EQ(errText(R.takeError()), 
                        "plugin X: pass 'emit' is already registered by "
                        "builtin\nplugin X: pipeline 'group' is already "
                        "registered");
  auto P = R.createPass("emit");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->getRegistry(), &R);
}

// Members of one pipeline, declared out of order: the registry sorts them by
// (Order, name) whatever the registration order.
// (A function, not an in-class array: clang rejects indexing a static
// constexpr member array of a class template in a constant expression.)
constexpr llvm::StringLiteral memberName(int N) {
  return N == 0 ? llvm::StringLiteral("m-zeta")
         : N == 1 ? llvm::StringLiteral("m-alpha")
         : N == 2 ? llvm::StringLiteral("m-beta")
                  : llvm::StringLiteral("m-late");
}

template <int N> struct Member : PassBase<Member<N>> {
  static constexpr llvm::StringLiteral Argument = memberName(N);
  static constexpr llvm::StringLiteral Description = "member";
  static constexpr PipelineMembership Pipelines[] = {
      {"grp", N == 3 ? 900 : 100}, {"other-grp", 1}};
  llvm::Error run(const Trace &, AnalysisManager &, FindingSink &) override {
    return llvm::Error::success();
  }
};

TEST(PipelineMembers, OrderIsDeclaredOrderThenName) {
  for (bool Reverse : {false, true}) {
    PassRegistry R;
    R.declarePipeline("grp", "a group");
    if (Reverse) {
      R.registerPass<Member<3>>();
      R.registerPass<Member<2>>();
      R.registerPass<Member<1>>();
      R.registerPass<Member<0>>();
    } else {
      R.registerPass<Member<0>>();
      R.registerPass<Member<1>>();
      R.registerPass<Member<2>>();
      R.registerPass<Member<3>>();
    }
    ASSERT_EQ(errText(R.takeError()), "");
    const PipelineInfo *G = R.lookupPipeline("grp");
    ASSERT_TRUE(G);
    EXPECT_EQ(G->Description, "a group");
    EXPECT_EQ(G->Text, "m-alpha,m-beta,m-zeta,m-late");
    // A pipeline nobody declared exists once a pass joins it.
    ASSERT_TRUE(R.lookupPipeline("other-grp"));
    EXPECT_EQ(R.lookupPipeline("other-grp")->Text,
              "m-alpha,m-beta,m-late,m-zeta");
    auto P = buildPipeline(R, "grp");
    ASSERT_EQ(errText(P), "");
    EXPECT_EQ(P->passNames(), (std::vector<std::string>{"m-alpha", "m-beta",
                                                       "m-zeta", "m-late"}));
  }
}

struct JoinsFixed : PassBase<JoinsFixed> {
  static constexpr llvm::StringLiteral Argument = "joins-fixed";
  static constexpr llvm::StringLiteral Description = "d";
  static constexpr PipelineMembership Pipelines[] = {{"fixed", 1}};
  llvm::Error run(const Trace &, AnalysisManager &, FindingSink &) override {
    return llvm::Error::success();
  }
};

TEST(PipelineMembers, Errors) {
  PassRegistry R;
  R.declarePipeline("empty", "nobody joins");
  R.registerPipeline("fixed", "by text", "m-zeta");
  R.setOrigin("plugin Y");
  R.registerPass<Member<0>>(); // m-zeta: joins grp and other-grp
  R.registerPass<Member<1>>(); // m-alpha: the same
  ASSERT_EQ(errText(R.takeError()), "");
  auto P = buildPipeline(R, "empty");
  EXPECT_EQ(errText(P), "invalid pass pipeline 'empty': pipeline 'empty' "
                        "has no passes: no loaded pass joins it (see "
                        "--list-passes)");
  // Joining a pipeline given by its text is refused.
  R.registerPass<JoinsFixed>();
  EXPECT_EQ(errText(R.takeError()),
            "plugin Y: pass 'joins-fixed' joins pipeline 'fixed', which is "
            "given by its text");
  EXPECT_FALSE(R.lookupPass("joins-fixed"));
  // --compare's helper: adds only the members not already scheduled.
  auto T = withPipelineMembers(R, "m-zeta", "other-grp");
  ASSERT_EQ(errText(T), "");
  EXPECT_EQ(*T, "m-zeta,m-alpha");
  auto U = withPipelineMembers(R, "fixed", "other-grp");
  ASSERT_EQ(errText(U), "");
  EXPECT_EQ(*U, "fixed,m-alpha");
  auto V = withPipelineMembers(R, "fixed", "not-registered");
  ASSERT_EQ(errText(V), "");
  EXPECT_EQ(*V, "fixed");
}

TEST(ClosestMatch, Bounds) {
  std::vector<std::string> C{"gemm", "sdpa", "multi-kernel"};
  EXPECT_EQ(closestMatch("gem", C), "gemm");
  EXPECT_EQ(closestMatch("multi-kernl", C), "multi-kernel");
  EXPECT_EQ(closestMatch("zzzzzz", C), "");
}

} // namespace
