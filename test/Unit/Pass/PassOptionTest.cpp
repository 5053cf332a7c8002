//===- PassOptionTest.cpp - Option parsing and printing ------------------===//
#include "TestPasses.h"

#include "gtest/gtest.h"

using namespace tl;
using namespace tl::test;

namespace {

std::string text(const PassOptionBase &O) { return O.valueString(); }

TEST(PassOption, DefaultsAndTypes) {
  AllOptions P;
  ASSERT_EQ(P.options().size(), 7u);
  EXPECT_EQ(*P.d, 0.1);
  EXPECT_EQ(*P.i, -1);
  EXPECT_EQ(*P.u, 7u);
  EXPECT_TRUE(*P.b);
  EXPECT_EQ(*P.s, "abc");
  EXPECT_EQ(P.l.size(), 2u);
  EXPECT_EQ(P.findOption("d")->typeName(), "number");
  EXPECT_EQ(P.findOption("i")->typeName(), "int");
  EXPECT_EQ(P.findOption("u")->typeName(), "unsigned");
  EXPECT_EQ(P.findOption("b")->typeName(), "bool");
  EXPECT_EQ(P.findOption("s")->typeName(), "string");
  EXPECT_EQ(P.findOption("e")->typeName(), "enum");
  EXPECT_EQ(P.findOption("l")->typeName(), "list<number>");
  // Shortest round-trip text for doubles.
  EXPECT_EQ(text(*P.findOption("d")), "0.1");
  EXPECT_EQ(text(*P.findOption("l")), "0.5,2");
}

TEST(PassOption, SetAndErrors) {
  AllOptions P;
  EXPECT_EQ(errText(P.setOption("d", " 1e-3 ")), "");
  EXPECT_EQ(*P.d, 0.001);
  EXPECT_EQ(errText(P.setOption("b", "no")), "");
  EXPECT_FALSE(*P.b);
  EXPECT_EQ(errText(P.setOption("l", "1, 2.5,3")), "");
  EXPECT_EQ(text(*P.findOption("l")), "1,2.5,3");
  EXPECT_EQ(errText(P.setOption("e", "y")), "");

  EXPECT_EQ(errText(P.setOption("u", "-1")), 
                        "pass 'all-options' option 'u' (unsigned): expected "
                        "an unsigned integer, got '-1'");
  EXPECT_NE(errText(P.setOption("d", "inf")), "");
  EXPECT_NE(errText(P.setOption("i", "2.5")), "");
  EXPECT_EQ(errText(P.setOption("e", "z")), 
                        "pass 'all-options' option 'e' (enum): expected one "
                        "of x|y, got 'z'");
  EXPECT_EQ(errText(P.setOption("dd", "1")), "pass 'all-options' has no option "
                                            "'dd'; did you mean 'd'?");
  // A failed set leaves the previous value.
  EXPECT_EQ(*P.e, "y");
}

TEST(PassOption, TextualPipelineRoundTrip) {
  AllOptions P;
  std::string S;
  llvm::raw_string_ostream OS(S);
  P.printAsTextualPipeline(OS);
  EXPECT_EQ(S, "all-options{d=0.1,i=-1,u=7,b=true,s=abc,e=x,l=0.5,2}");
}

TEST(PassOption, Statistic) {
  AllOptions P;
  ++P.st;
  P.st += 4;
  ASSERT_EQ(P.statistics().size(), 1u);
  EXPECT_EQ(P.statistics()[0]->getValue(), 5u);
}

} // namespace
