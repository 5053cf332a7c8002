//===- BoundedJsonTest.cpp - parseJsonBounded -----------------------------===//
#include "tl/Support/BoundedJson.h"

#include "gtest/gtest.h"

#include <string>

using namespace tl;

namespace {

std::string err(llvm::Expected<llvm::json::Value> V) {
  if (V)
    return "ok";
  return llvm::toString(V.takeError());
}

TEST(BoundedJson, DepthAtTheBoundParses) {
  // Three levels: [{"a":[1]}].
  EXPECT_EQ(err(parseJsonBounded("[{\"a\":[1]}]", 3)), "ok");
  // The fourth '[' is at offset 3.
  EXPECT_EQ(err(parseJsonBounded("[[[[1]]]]", 3)),
            "nesting deeper than 3 at offset 3");
}

TEST(BoundedJson, BracketsInStringsDoNotNest) {
  // "[[[\"[" holds an escaped quote: the string ends at the last quote only.
  EXPECT_EQ(err(parseJsonBounded("[\"[[[\\\"[{{\"]", 1)), "ok");
  // A backslash before the closing quote's own backslash.
  EXPECT_EQ(err(parseJsonBounded("[\"\\\\\",[1]]", 2)), "ok");
  // Text ["\\",[[1]]]: offsets 0 '[', 1-4 the string, 5 ',', 6 and 7 '['.
  EXPECT_EQ(err(parseJsonBounded("[\"\\\\\",[[1]]]", 2)),
            "nesting deeper than 2 at offset 7");
}

TEST(BoundedJson, ClosingBracketsLowerTheDepth) {
  // Siblings do not add up: [[1],[2],[3]] is two deep.
  EXPECT_EQ(err(parseJsonBounded("[[1],[2],[3]]", 2)), "ok");
}

TEST(BoundedJson, MalformedTextIsJsonParsesError) {
  std::string E = err(parseJsonBounded("[1,", 4));
  EXPECT_NE(E, "ok");
  EXPECT_EQ(E.find("nesting"), std::string::npos);
}

} // namespace
