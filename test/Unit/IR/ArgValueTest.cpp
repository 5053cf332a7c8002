//===- ArgValueTest.cpp - Tests of the args arena -------------------------===//
#include "tl/IR/ArgStore.h"

#include "gtest/gtest.h"

#include <array>

using namespace tl;

namespace {
struct Fixture : ::testing::Test {
  StringPool P;
  ArgStore S{&P};
  ArgBuilder B{S};
};
} // namespace

TEST_F(Fixture, NodeIsSixteenBytes) { EXPECT_EQ(sizeof(ArgNode), 16u); }

TEST_F(Fixture, DefaultAndNullValues) {
  ArgValue V;
  EXPECT_TRUE(V.isNull());
  EXPECT_FALSE(bool(V));
  EXPECT_EQ(V.size(), 0u);
  EXPECT_TRUE(V.get("x").isNull());
  EXPECT_EQ(V.toJson(), "null");
  EXPECT_TRUE(S.value(0).isNull());
}

TEST_F(Fixture, ObjectWithNestedArrays) {
  // {"correlation": 7, "Input Dims": [[2, 3], []], "name": "x", "f": 1.5,
  //  "b": true, "n": null}
  B.startContainer(true);
  B.key(P.intern("correlation"));
  B.integer(7);
  B.key(P.intern("Input Dims"));
  B.startContainer(false);
  B.startContainer(false);
  B.integer(2);
  B.integer(3);
  B.endContainer();
  B.startContainer(false);
  B.endContainer();
  B.endContainer();
  B.key(P.intern("name"));
  B.string(P.intern("x"));
  B.key(P.intern("f"));
  B.real(1.5);
  B.key(P.intern("b"));
  B.boolean(true);
  B.key(P.intern("n"));
  B.null();
  B.endContainer();
  ArgValue V = S.value(B.finish());
  ASSERT_TRUE(V.isObject());
  EXPECT_EQ(V.size(), 6u);
  EXPECT_EQ(V.keyAt(0), "correlation");
  EXPECT_EQ(V.get("correlation").getInt(), 7);
  EXPECT_EQ(*V.get("correlation").asInt(), 7);
  ArgValue Dims = V.get("Input Dims");
  ASSERT_TRUE(Dims.isArray());
  EXPECT_EQ(Dims.size(), 2u);
  EXPECT_EQ(Dims[0][1].getInt(), 3);
  EXPECT_EQ(Dims[1].size(), 0u);
  EXPECT_TRUE(Dims[5].isNull());
  EXPECT_EQ(V.get("name").getString(), "x");
  EXPECT_EQ(V.get("f").getDouble(), 1.5);
  EXPECT_FALSE(V.get("f").asInt().has_value());
  EXPECT_TRUE(V.get("b").getBool());
  EXPECT_TRUE(V.get("n").isNull());
  EXPECT_TRUE(V.hasKey("n"));
  EXPECT_TRUE(V.has("n"));
  EXPECT_FALSE(V.has("missing"));
  EXPECT_EQ(V.toJson(), "{\"correlation\":7,\"Input Dims\":[[2,3],[]],"
                        "\"name\":\"x\",\"f\":1.5,\"b\":true,\"n\":null}");
}

TEST_F(Fixture, IntegralDoubleAsInt) {
  B.real(4.0);
  ArgValue V = S.value(B.finish());
  EXPECT_TRUE(V.isDouble());
  EXPECT_EQ(*V.asInt(), 4);
  EXPECT_EQ(V.toJson(), "4.0");
}

TEST_F(Fixture, IdenticalNestedRangesAreShared) {
  // Two args objects with the same nested shape list share its nodes.
  auto Build = [&](int64_t Id) {
    B.startContainer(true);
    B.key(P.intern("id"));
    B.integer(Id);
    B.key(P.intern("Input Dims"));
    B.startContainer(false);
    B.integer(128);
    B.integer(256);
    B.endContainer();
    B.endContainer();
    return S.value(B.finish());
  };
  ArgValue A = Build(1);
  size_t After1 = S.Nodes.size();
  uint64_t Words1 = S.Words.size();
  ArgValue C = Build(2);
  // Second object: one compact root node and 2 words (the id, the shape
  // list's node); the shape list itself is reused.
  EXPECT_EQ(S.Nodes.size(), After1 + 1);
  EXPECT_EQ(S.Words.size(), Words1 + 2);
  EXPECT_EQ(A.get("Input Dims").toJson(), "[128,256]");
  EXPECT_EQ(C.get("Input Dims").toJson(), "[128,256]");
  EXPECT_EQ(C.get("id").getInt(), 2);
}

TEST_F(Fixture, DeepNestingIsIterative) {
  // 100000 nested arrays: building and printing must not recurse.
  const int Depth = 100000;
  for (int I = 0; I < Depth; ++I)
    B.startContainer(false);
  for (int I = 0; I < Depth; ++I)
    B.endContainer();
  ArgValue V = S.value(B.finish());
  std::string J = V.toJson();
  EXPECT_EQ(J.size(), size_t(2 * Depth));
  EXPECT_EQ(J.front(), '[');
  EXPECT_EQ(J.back(), ']');
}

TEST_F(Fixture, StringEscapesInJson) {
  B.string(P.intern("a\"b\\c\n\x01"));
  EXPECT_EQ(S.value(B.finish()).toJson(), "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST_F(Fixture, CompactObjectKeepsEveryValue) {
  // Outermost objects are stored as (schema, words): check each width.
  auto Build = [&](int64_t Big) {
    B.startContainer(true);
    B.key(P.intern("small"));
    B.integer(-5);
    B.key(P.intern("big"));
    B.integer(Big);
    B.key(P.intern("d"));
    B.real(0.1);
    B.key(P.intern("s"));
    B.string(P.intern("str"));
    B.key(P.intern("t"));
    B.boolean(true);
    B.key(P.intern("n"));
    B.null();
    B.key(P.intern("grid"));
    B.startContainer(false);
    B.integer(1);
    B.endContainer();
    B.key(P.intern("o"));
    B.startContainer(true);
    B.key(P.intern("k"));
    B.integer(3);
    B.endContainer();
    B.endContainer();
    return S.value(B.finish());
  };
  ArgValue V = Build(int64_t(1) << 40);
  uint64_t Words1 = S.Words.size();
  ArgValue W = Build(-(int64_t(1) << 40));
  // 1 (small) + 2 (big) + 2 (d) + 1 (s) + 1 (t) + 0 (n) + 1 + 1 (nodes).
  EXPECT_EQ(S.Words.size() - Words1, 9u);
  ASSERT_TRUE(V.isObject());
  EXPECT_EQ(V.size(), 8u);
  EXPECT_EQ(V.keyAt(1), "big");
  EXPECT_EQ(V.get("small").getInt(), -5);
  EXPECT_EQ(*V.get("big").asInt(), int64_t(1) << 40);
  EXPECT_EQ(*W.get("big").asInt(), -(int64_t(1) << 40));
  EXPECT_EQ(V.get("d").getDouble(), 0.1);
  EXPECT_TRUE(V.get("d").isDouble());
  EXPECT_EQ(V.get("s").getString(), "str");
  EXPECT_TRUE(V.get("t").getBool());
  EXPECT_TRUE(V.get("n").isNull());
  EXPECT_TRUE(V.hasKey("n"));
  EXPECT_FALSE(V.hasKey("missing"));
  // By interned key id: the same views as get(), and present-null vs absent.
  bool Found = false;
  EXPECT_EQ(V.getByKeyId(P.lookup("big"), &Found).identity(),
            V.get("big").identity());
  EXPECT_TRUE(Found);
  EXPECT_EQ(V.getByKeyId(P.lookup("s")).getString(), "str");
  EXPECT_TRUE(V.getByKeyId(P.lookup("n"), &Found).isNull());
  EXPECT_TRUE(Found);
  EXPECT_TRUE(V.getByKeyId(P.lookup("missing"), &Found).isNull());
  EXPECT_FALSE(Found);
  EXPECT_FALSE(V.get("s").getByKeyId(P.lookup("s"), &Found));
  EXPECT_FALSE(Found);
  EXPECT_EQ(V.valueAt(6)[0].getInt(), 1);
  EXPECT_EQ(V.get("o").get("k").getInt(), 3);
  EXPECT_EQ(V.get("small").size(), 0u);
  EXPECT_EQ(V.toJson(),
            "{\"small\":-5,\"big\":1099511627776,\"d\":0.1,\"s\":\"str\","
            "\"t\":true,\"n\":null,\"grid\":[1],\"o\":{\"k\":3}}");
}

TEST_F(Fixture, TruncateDropsCompactObjects) {
  ArgStore::Mark M = S.mark();
  B.startContainer(true);
  B.key(P.intern("x"));
  B.integer(1);
  B.endContainer();
  B.finish();
  EXPECT_GT(S.Words.size(), M.Words);
  S.truncate(M);
  EXPECT_EQ(S.Nodes.size(), M.Nodes);
  EXPECT_EQ(S.Words.size(), M.Words);
}

TEST(NodeVector, TruncateForgetsSharedRanges) {
  // Range A is interned, dropped by truncate(), and its nodes overwritten
  // by range B: A interned again is new (nodes 2-3) and shared from then
  // on; B stays shared at 0.
  auto Ints = [](int64_t X, int64_t Y) {
    std::array<ArgNode, 2> R;
    R[0].Ty = R[1].Ty = ArgValue::Type::Int;
    R[0].I = X;
    R[1].I = Y;
    return R;
  };
  std::array<ArgNode, 2> A = Ints(1, 2), B = Ints(3, 4);
  NodeVector V;
  V.commit();
  EXPECT_EQ(V.internRange(A.data(), 2), 0u);
  EXPECT_EQ(V.internRange(A.data(), 2), 0u);
  V.truncate(0);
  EXPECT_EQ(V.internRange(B.data(), 2), 0u);
  V.commit();
  EXPECT_EQ(V.internRange(A.data(), 2), 2u);
  EXPECT_EQ(V.internRange(A.data(), 2), 2u);
  EXPECT_EQ(V.internRange(B.data(), 2), 0u);
  EXPECT_EQ(V.size(), 4u);
}
