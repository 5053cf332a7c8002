//===- StringPoolTest.cpp - Tests of interned strings ---------------------===//
#include "tl/IR/StringPool.h"

#include "gtest/gtest.h"

#include <string>

using namespace tl;

TEST(StringPool, EmptyIsZero) {
  StringPool P;
  EXPECT_EQ(P.intern(""), 0u);
  EXPECT_EQ(P.lookup(""), 0u);
  EXPECT_EQ(P.get(0), "");
  EXPECT_EQ(P.size(), 1u);
}

TEST(StringPool, InternIsStableAndDeduplicates) {
  StringPool P;
  StrId A = P.intern("aten::mm");
  StrId B = P.intern("aten::addmm");
  EXPECT_NE(A, 0u);
  EXPECT_NE(A, B);
  std::string Copy = "aten::mm"; // different storage, same text
  EXPECT_EQ(P.intern(Copy), A);
  EXPECT_EQ(P.lookup("aten::mm"), A);
  EXPECT_EQ(P.lookup("missing"), 0u);
  EXPECT_EQ(P.get(A), "aten::mm");
  EXPECT_EQ(P.size(), 3u);
  // Returned StringRefs stay valid while more strings are added.
  llvm::StringRef Ref = P.get(A);
  for (int I = 0; I < 10000; ++I)
    P.intern("s" + std::to_string(I));
  EXPECT_EQ(Ref.data(), P.get(A).data());
  EXPECT_EQ(P.get(P.lookup("s9999")), "s9999");
}

TEST(StringPool, EmbeddedNulAndMove) {
  StringPool P;
  StrId A = P.intern(llvm::StringRef("a\0b", 3));
  StrId B = P.intern("a");
  EXPECT_NE(A, B);
  EXPECT_EQ(P.get(A).size(), 3u);
  StringPool Q = std::move(P);
  EXPECT_EQ(Q.get(A), llvm::StringRef("a\0b", 3));
  EXPECT_GT(Q.memoryBytes(), 0u);
  StringPool Fresh;
  EXPECT_EQ(Fresh.get(5), ""); // out of range id: empty
}
