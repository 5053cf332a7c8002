//===- YamlSyntaxTest.cpp - the YAML gate in front of yaml-cpp -----------===//
#include "tl/Support/YamlSyntax.h"

#include "gtest/gtest.h"

#include <string>

using namespace tl;

namespace {
std::string errorOf(llvm::StringRef Text) {
  llvm::Error E = checkYamlSyntax(Text);
  return E ? llvm::toString(std::move(E)) : std::string();
}
std::string repeat(llvm::StringRef S, size_t N) {
  std::string Out;
  for (size_t I = 0; I < N; ++I)
    Out += S;
  return Out;
}
} // namespace

TEST(YamlSyntax, WellFormedPasses) {
  EXPECT_EQ(errorOf(""), "");
  EXPECT_EQ(errorOf("threads: 4\npasses:\n  compute:\n    top: 5\n"), "");
  EXPECT_EQ(errorOf("a: &x [1, 2]\nb: *x\n"), "");
  EXPECT_EQ(errorOf("--- \nname: H100\n...\n"), "");
}

TEST(YamlSyntax, SecondDocumentRefused) {
  EXPECT_EQ(errorOf("--- \nname: H100\n...\n---\nname: B\n"),
            "line 5, column 1: a second YAML document; only one is read");
  // A `%` line starts a document the parser cannot root (found by the
  // config fuzzer: a null root, then a null dereference).
  EXPECT_EQ(errorOf("a: 1\nb: 2\n%x\n"),
            "a second YAML document after line 2; only one is read");
}

TEST(YamlSyntax, FlowEntryAloneIsAnError) {
  // yaml-cpp 0.7 reads ",i" as an empty document.
  EXPECT_EQ(errorOf(",i"), "line 1, column 1: Unexpected token");
}

TEST(YamlSyntax, UnclosedFlowSequenceNamesItsPosition) {
  // LLVM's parser names the last entry read (the "2" in column 14).
  EXPECT_EQ(errorOf("threads: [1, 2"),
            "line 1, column 14: Could not find closing ]!");
}

TEST(YamlSyntax, DepthIsBounded) {
  // 256 levels pass, the 257th is refused where it opens (column 257).
  EXPECT_EQ(errorOf(repeat("[", 256) + repeat("]", 256)), "");
  EXPECT_EQ(errorOf(repeat("[", 257) + repeat("]", 257)),
            "line 1, column 257: nested more than 256 levels deep");
  // A million levels: no stack overflow, the same error.
  EXPECT_EQ(errorOf(repeat("[", 1000000)),
            "line 1, column 257: nested more than 256 levels deep");
  EXPECT_EQ(errorOf(repeat("- ", 100000) + "x\n"),
            "line 1, column 513: nested more than 256 levels deep");
  EXPECT_EQ(errorOf(repeat("{a: ", 100000)),
            "line 1, column 1025: nested more than 256 levels deep");
}

TEST(YamlSyntax, CollectionKeysRefused) {
  EXPECT_EQ(errorOf("? [a, b]\n: 1\n"),
            "line 1, column 3: a mapping key must be a scalar");
  // The bracket is named across blanks and line breaks.
  EXPECT_EQ(errorOf("? [\n  a]\n: 1\n"),
            "line 1, column 3: a mapping key must be a scalar");
}
