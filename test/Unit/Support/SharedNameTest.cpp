//===- SharedNameTest.cpp - Interned names and 8-byte optionals ------------===//
#include "tl/Support/OptionalInt.h"
#include "tl/Support/SharedName.h"

#include "gtest/gtest.h"

#include <string>
#include <thread>
#include <vector>

using namespace tl;

TEST(SharedName, OneCopyPerText) {
  std::string A = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", B = A;
  SharedName X(A), Y(B);
  // Equal texts share one copy, wherever they came from.
  EXPECT_EQ(X.ref().data(), Y.ref().data());
  EXPECT_NE(X.ref().data(), A.data());
  EXPECT_TRUE(X == Y);
  EXPECT_TRUE(X == "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  EXPECT_TRUE(X != SharedName("ncclKernel"));
  EXPECT_EQ(X.str(), A);
  EXPECT_EQ(sizeof(SharedName), sizeof(void *));
}

TEST(SharedName, EmptyIsDefault) {
  SharedName E(""), D;
  EXPECT_TRUE(E.empty());
  EXPECT_TRUE(E == D);
  EXPECT_TRUE(D == "");
  EXPECT_EQ(D.size(), 0u);
  EXPECT_FALSE(SharedName("0").empty());
}

TEST(SharedName, ThreadsAgree) {
  // Workers of a job intern the same names at once.
  std::vector<const char *> Seen(4);
  std::vector<std::thread> Ts;
  for (size_t I = 0; I < Seen.size(); ++I)
    Ts.emplace_back([&, I] {
      for (int N = 0; N < 1000; ++N)
        SharedName("pg" + std::to_string(N));
      Seen[I] = SharedName("pg_threads").ref().data();
    });
  for (std::thread &T : Ts)
    T.join();
  for (const char *P : Seen)
    EXPECT_EQ(P, Seen[0]);
}

TEST(OptionalInt, ActsAsOptional) {
  OptionalInt None, Zero(int64_t(0)), Seven(std::optional<int64_t>(7));
  EXPECT_FALSE(None.has_value());
  EXPECT_FALSE(bool(None));
  EXPECT_TRUE(Zero.has_value());
  EXPECT_EQ(*Zero, 0);
  EXPECT_EQ(*Seven, 7);
  EXPECT_EQ(None.value_or(-1), -1);
  EXPECT_EQ(std::optional<int64_t>(None), std::nullopt);
  EXPECT_EQ(std::optional<int64_t>(Seven), std::optional<int64_t>(7));
  EXPECT_TRUE(None == OptionalInt(std::nullopt));
  EXPECT_TRUE(Zero != None);
  EXPECT_EQ(*OptionalInt(int64_t(-5)), -5);
  EXPECT_EQ(sizeof(OptionalInt), sizeof(int64_t));
}
