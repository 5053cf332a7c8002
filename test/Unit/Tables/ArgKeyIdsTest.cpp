//===- ArgKeyIdsTest.cpp - several args keys read in one walk -------------===//
//
// ArgValue::getByKeyIds is what the op table, the unified table and the
// perf sheets read an op's shape args with: it must give, key by key, what
// getByKeyId gives (same stored value, present-null vs absent), also when
// consecutive events change layout and the remembered places are stale.
//
//===----------------------------------------------------------------------===//
#include "tl/Import/Importer.h"

#include "gtest/gtest.h"

using namespace tl;

// Layouts a, b, then a again (the places remembered for b are stale), and
// an event without args. (Args objects of up to 1024 members are compact.)
static const char *TraceText = R"({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "a1", "pid": 1, "tid": 1, "ts": 0, "dur": 1,
   "args": {"Input Dims": [[2, 3]], "Input type": ["float"], "Output type": null, "x": 7}},
  {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1,
   "args": {"x": 1.5, "Concrete Inputs": ["", "4"], "Input Dims": [[5]]}},
  {"ph": "X", "cat": "cpu_op", "name": "a2", "pid": 1, "tid": 1, "ts": 4, "dur": 1,
   "args": {"Input Dims": [[2, 3]], "Input type": ["half"], "Output type": null, "x": 8}},
  {"ph": "X", "cat": "cpu_op", "name": "none", "pid": 1, "tid": 1, "ts": 6, "dur": 1}
]})";

TEST(ArgKeyIds, SameAsOneKeyAtATime) {
  auto TE = importTraceFromBuffer(TraceText, "unit.json");
  ASSERT_TRUE(bool(TE)) << llvm::toString(TE.takeError());
  const Trace &T = *TE;
  const char *Keys[6] = {"Input Dims",      "Input type", "Input Strides",
                         "Concrete Inputs", "Output type", "x"};
  uint32_t Ids[6];
  for (int J = 0; J < 6; ++J)
    Ids[J] = T.strings().lookup(Keys[J]);
  EXPECT_EQ(Ids[2], 0u); // no event has "Input Strides"
  ArgKeySlots Slots;
  int Compared = 0;
  for (EventId E = 0; E < T.size(); ++E) {
    ArgValue Out[6];
    bool Found[6];
    T.args(E).getByKeyIds(Ids, 6, Out, Slots, Found);
    for (int J = 0; J < 6; ++J) {
      bool F = false;
      ArgValue One = T.args(E).getByKeyId(Ids[J], &F);
      EXPECT_EQ(Found[J], F) << T.name(E).str() << " " << Keys[J];
      EXPECT_EQ(Out[J].identity(), One.identity())
          << T.name(E).str() << " " << Keys[J];
      EXPECT_EQ(Out[J].toJson(), One.toJson());
      ++Compared;
    }
  }
  EXPECT_EQ(Compared, 6 * int(T.size()));
  // Spot values from the text above.
  for (EventId E = 0; E < T.size(); ++E) {
    ArgValue Out[6];
    bool Found[6];
    T.args(E).getByKeyIds(Ids, 6, Out, Slots, Found);
    if (T.name(E) == "a2") {
      EXPECT_EQ(Out[1].toJson(), "[\"half\"]");
      EXPECT_TRUE(Found[4]);
      EXPECT_TRUE(Out[4].isNull()); // present null
      EXPECT_EQ(Out[5].getInt(), 8);
    } else if (T.name(E) == "b") {
      EXPECT_EQ(Out[3].toJson(), "[\"\",\"4\"]");
      EXPECT_FALSE(Found[4]); // absent
      EXPECT_EQ(Out[5].getDouble(), 1.5);
    } else if (T.name(E) == "none") {
      for (int J = 0; J < 6; ++J)
        EXPECT_FALSE(Found[J]);
    }
  }
}
