//===- PyFormatTest.cpp - Python repr/round/str parity --------------------===//
// Expected strings were produced by python3 (CPython 3.11) on this machine.
#include "tl/Support/PyFormat.h"
#include "tl/Support/PyLiteral.h"
#include "tl/Support/PyValue.h"

#include "llvm/Support/JSON.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace tl;

TEST(PyFormat, FloatRepr) {
  EXPECT_EQ(pyRepr(1e-05), "1e-05");
  EXPECT_EQ(pyRepr(1.2e16), "1.2e+16");
  EXPECT_EQ(pyRepr(0.0001), "0.0001");
  EXPECT_EQ(pyRepr(123456789012345.6), "123456789012345.6");
  EXPECT_EQ(pyRepr(1e16), "1e+16");
  EXPECT_EQ(pyRepr(9999999999999998.0), "9999999999999998.0");
  EXPECT_EQ(pyRepr(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(pyRepr(-0.0), "-0.0");
  EXPECT_EQ(pyRepr(5e-324), "5e-324");
  EXPECT_EQ(pyRepr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(pyRepr(100.0), "100.0");
  EXPECT_EQ(pyRepr(692.7688414567059), "692.7688414567059");
  EXPECT_EQ(pyRepr(std::nan("")), "nan");
  EXPECT_EQ(pyRepr(-std::numeric_limits<double>::infinity()), "-inf");
}

// Boundaries of the fixed/exponent switch and of the exponent width
// (python3: repr(x) for each).
TEST(PyFormat, FloatReprBoundaries) {
  EXPECT_EQ(pyRepr(0.000123), "0.000123");
  EXPECT_EQ(pyRepr(-2.5e-05), "-2.5e-05");
  EXPECT_EQ(pyRepr(1.5e-07), "1.5e-07");
  EXPECT_EQ(pyRepr(1e15), "1000000000000000.0");
  EXPECT_EQ(pyRepr(-1234.5), "-1234.5");
  EXPECT_EQ(pyRepr(0.0), "0.0");
  EXPECT_EQ(pyRepr(1e22), "1e+22");
  EXPECT_EQ(pyRepr(1e100), "1e+100");
  EXPECT_EQ(pyRepr(-1.25e-100), "-1.25e-100");
  EXPECT_EQ(pyRepr(3.0), "3.0");
  EXPECT_EQ(pyRepr(12.5), "12.5");
}

TEST(PyFormat, Round) {
  // round(2.675, 2) == 2.67: 2.675 is 2.67499999... in binary.
  EXPECT_EQ(pyRound(2.675, 2), 2.67);
  // 0.125 and 0.375 are exact ties: half-to-even.
  EXPECT_EQ(pyRound(0.125, 2), 0.12);
  EXPECT_EQ(pyRound(0.375, 2), 0.38);
  EXPECT_EQ(pyRound(-0.125, 2), -0.12);
  EXPECT_EQ(pyRound(1234.5, -1), 1230.0);
  EXPECT_EQ(pyRound(1350.0, -2), 1400.0);
  EXPECT_EQ(pyRound(1250.0, -2), 1200.0);
  EXPECT_EQ(pyRound(0.0001234567, 6), 0.000123);
  EXPECT_EQ(pyRound(1.0000000000000002, 15), 1.0);
  EXPECT_EQ(pyRoundInt(2.5), 2.0);
  EXPECT_EQ(pyRoundInt(3.5), 4.0);
  EXPECT_TRUE(std::signbit(pyRound(-0.001, 2)));
}

TEST(PyFormat, StringRepr) {
  EXPECT_EQ(pyReprString("a'b"), "\"a'b\"");
  EXPECT_EQ(pyReprString("a\"b"), "'a\"b'");
  EXPECT_EQ(pyReprString("a'b\"c"), "'a\\'b\"c'");
  EXPECT_EQ(pyReprString("x\\y\n\t\r\x01"), "'x\\\\y\\n\\t\\r\\x01'");
  EXPECT_EQ(pyReprString("\xc2\xb5s"), "'\xc2\xb5s'"); // 'µs'
  EXPECT_EQ(pyReprString("\xc2\xa0"), "'\\xa0'");     // NBSP
  EXPECT_EQ(pyReprString("ab\x7f'c"), "\"ab\\x7f'c\"");
  EXPECT_EQ(pyReprString("a\\b c"), "'a\\\\b c'");
}

TEST(PyFormat, Containers) {
  EXPECT_EQ(pyRepr(PyValue::intTuple({5})), "(5,)");
  EXPECT_EQ(pyRepr(PyValue::tuple({})), "()");
  EXPECT_EQ(pyRepr(PyValue::intTuple({1, 2})), "(1, 2)");
  EXPECT_EQ(pyRepr(PyValue::list({PyValue::integer(1), PyValue::integer(2)})),
            "[1, 2]");
  PyValue D = PyValue::dict(
      {{"k", PyValue::tuple({PyValue::integer(1), PyValue::real(2.0)})},
       {"n", PyValue::none()},
       {"t", PyValue::boolean(true)}});
  EXPECT_EQ(pyRepr(D), "{'k': (1, 2.0), 'n': None, 't': True}");
  EXPECT_EQ(pyStr(PyValue::str("c10::BFloat16")), "c10::BFloat16");
  EXPECT_EQ(pyStr(PyValue::tuple({PyValue::str("c10::BFloat16"),
                                  PyValue::str("c10::BFloat16")})),
            "('c10::BFloat16', 'c10::BFloat16')");
  // Nested lists (Input Dims style).
  PyValue Dims = PyValue::list(
      {PyValue::list({PyValue::integer(8944), PyValue::integer(1024)}),
       PyValue::list({}), PyValue::list({PyValue::list({PyValue::integer(3)})})});
  EXPECT_EQ(pyRepr(Dims), "[[8944, 1024], [], [[3]]]");
}

TEST(PyFormat, DeepNestingDoesNotRecurse) {
  PyValue V = PyValue::integer(0);
  for (int I = 0; I < 1000; ++I)
    V = PyValue::list({std::move(V)});
  std::string S = pyRepr(V);
  EXPECT_EQ(S.size(), 1000u * 2 + 1);
}

TEST(PyFormat, Json) {
  // json.dumps([1.0, 1e-05, 3, nan, inf]) == '[1.0, 1e-05, 3, NaN, Infinity]'
  EXPECT_EQ(jsonNumber(1.0), "1.0");
  EXPECT_EQ(jsonNumber(1e-05), "1e-05");
  EXPECT_EQ(jsonNumber(int64_t(3)), "3");
  EXPECT_EQ(jsonNumber(std::nan("")), "NaN");
  EXPECT_EQ(jsonNumber(std::numeric_limits<double>::infinity()), "Infinity");
}

TEST(PyFormat, JsonDumps) {
  // json.dumps({'a': (1, 2.5, None), 'b': 'µs "q"\n\U0001F600', 'c': [],
  //             'd': {}, 'e': float('nan'), 't': True})
  PyValue V = PyValue::dict(
      {{"a", PyValue::tuple({PyValue::integer(1), PyValue::real(2.5),
                             PyValue::none()})},
       {"b", PyValue::str("\xc2\xb5s \"q\"\n\xf0\x9f\x98\x80")},
       {"c", PyValue::list({})},
       {"d", PyValue::dict({})},
       {"e", PyValue::real(std::nan(""))},
       {"t", PyValue::boolean(true)}});
  EXPECT_EQ(pyJsonDumps(V),
            "{\"a\": [1, 2.5, null], \"b\": \"\\u00b5s \\\"q\\\"\\n"
            "\\ud83d\\ude00\", \"c\": [], \"d\": {}, \"e\": NaN, \"t\": true}");
  // json.dumps({'a': [1, {'x': 1e-05}], 'b': []}, indent=2)
  PyValue W = PyValue::dict(
      {{"a", PyValue::list({PyValue::integer(1),
                            PyValue::dict({{"x", PyValue::real(1e-05)}})})},
       {"b", PyValue::list({})}});
  EXPECT_EQ(pyJsonDumps(W, 2), "{\n  \"a\": [\n    1,\n    {\n      \"x\": "
                               "1e-05\n    }\n  ],\n  \"b\": []\n}");
}

// pyJsonValue must equal what parsing pyJsonDumps' text gives, and refuse
// (nullopt) exactly where that parse fails or would change the value.
TEST(PyFormat, JsonValueMatchesParse) {
  PyValue V = PyValue::dict(
      {{"a", PyValue::tuple({PyValue::integer(-3), PyValue::real(2.5),
                             PyValue::real(-0.0), PyValue::none()})},
       {"b", PyValue::str("\xc2\xb5s \"q\"\n\xf0\x9f\x98\x80")},
       {"c", PyValue::list({PyValue::list({}), PyValue::dict({})})},
       {"d", PyValue::dict({{"x", PyValue::real(1e-05)},
                            {"y", PyValue::boolean(false)}})},
       {"t", PyValue::boolean(true)}});
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse(pyJsonDumps(V, 2));
  ASSERT_TRUE(bool(Parsed));
  std::optional<llvm::json::Value> Built = pyJsonValue(V);
  ASSERT_TRUE(Built.has_value());
  EXPECT_EQ(*Built, *Parsed);
  EXPECT_EQ(Built->getAsObject()->getArray("a")->front().getAsInteger(), -3);

  // json.dumps writes NaN, which json::parse rejects.
  EXPECT_FALSE(pyJsonValue(PyValue::list({PyValue::real(std::nan(""))})));
  // An invalid byte is escaped as \u00ff and parses back as U+00FF.
  EXPECT_FALSE(pyJsonValue(PyValue::str("a\xff")));
  EXPECT_FALSE(pyJsonValue(PyValue::dict(
      {{"k", PyValue::integer(1)}, {"k", PyValue::integer(2)}})));
  EXPECT_EQ(*pyJsonValue(PyValue::integer(7)), llvm::json::Value(7));
}

// String elements of a literal (call stacks): runs between escapes, escaped
// quotes and backslashes, \n, and an unterminated string. The literal is
// ['a\'b', "c\\d", 'x\ny', ''] (python3 evaluates it to the four strings
// checked below).
TEST(PyFormat, LiteralStrings) {
  llvm::Expected<PyValue> V =
      parsePyLiteral("['a\\'b', \"c\\\\d\", 'x\\ny', '']");
  ASSERT_TRUE(bool(V));
  ASSERT_EQ(V->elems().size(), 4u);
  EXPECT_EQ(V->elems()[0].getStr(), "a'b");
  EXPECT_EQ(V->elems()[1].getStr(), "c\\d");
  EXPECT_EQ(V->elems()[2].getStr(), "x\ny");
  EXPECT_EQ(V->elems()[3].getStr(), "");
  llvm::Expected<PyValue> Bad = parsePyLiteral("['ab\\");
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}
