//===- RelativePathTest.cpp - Paths as the reports write them -------------===//
#include "tl/Support/RelativePath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

using namespace tl;

TEST(RelativePath, Absolute) {
  EXPECT_EQ(relativePath("/a/b/t.json.gz", "/a/c/out"), "../../b/t.json.gz");
  EXPECT_EQ(relativePath("/a/b/c/d", "/a/b"), "c/d");
  EXPECT_EQ(relativePath("/a/b", "/a/b"), ".");
  EXPECT_EQ(relativePath("/a", "/a/b/c"), "../..");
  EXPECT_EQ(relativePath("/x/t", "/y"), "../x/t");
  // Lexically normalized first.
  EXPECT_EQ(relativePath("/a/./b/../t", "/a//"), "t");
}

TEST(RelativePath, RelativeToWorkingDirectory) {
  EXPECT_EQ(relativePath("traces/t.json", "traces/out"), "../t.json");
  EXPECT_EQ(relativePath("t.json", "."), "t.json");
  // A relative path against an absolute directory: through the cwd.
  llvm::SmallString<256> Cwd;
  ASSERT_FALSE(llvm::sys::fs::current_path(Cwd));
  EXPECT_EQ(relativePath("t.json", Cwd), "t.json");
  EXPECT_EQ(relativePath(std::string(Cwd) + "/out/x", "out"), "x");
}
