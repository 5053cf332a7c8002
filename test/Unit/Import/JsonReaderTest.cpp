//===- JsonReaderTest.cpp - JsonReader against RapidJSON's reader ---------===//
//
// JsonReader must make the handler calls RapidJSON's
// Parse<kParseIterativeFlag | kParseFullPrecisionFlag |
// kParseValidateEncodingFlag> makes (same order, values, stream offsets at
// each call) and fail with the same code at the same offset, including the
// string limit of the capped parser stack. Both readers run here over the
// same documents; ours also over sources that hand out 1..7 bytes at a time
// so that every token crosses a chunk end somewhere.
//
//===----------------------------------------------------------------------===//
#include "JsonReaderDiff.h"

#include "gtest/gtest.h"

#include <random>

using namespace tl;
using namespace tl::test;

namespace {

std::string show(const std::string &Doc) {
  std::string S;
  for (unsigned char C : Doc.substr(0, 200)) {
    if (C >= 0x20 && C < 0x7f) {
      S += char(C);
    } else {
      char B[8];
      std::snprintf(B, sizeof(B), "\\x%02x", C);
      S += B;
    }
  }
  return S;
}

/// Same outcome. After the string limit the input ends: RapidJSON may make
/// calls past that point and then fails somehow; only the limit's offset
/// and the calls before it count (ours stop there).
void expectSame(const Outcome &Ref, const Outcome &Got, const std::string &Doc,
                const std::string &What) {
  SCOPED_TRACE(What + " on '" + show(Doc) + "' (" +
               std::to_string(Doc.size()) + " bytes)");
  EXPECT_TRUE(sameOutcome(Ref, Got)); // (what the fuzzer checks)
  ASSERT_EQ(Ref.Limited, Got.Limited);
  if (Ref.Limited) {
    EXPECT_EQ(Ref.LimitAt, Got.LimitAt);
    ASSERT_LE(Got.Calls.size(), Ref.Calls.size());
    for (size_t I = 0; I < Got.Calls.size(); ++I)
      ASSERT_EQ(Ref.Calls[I], Got.Calls[I]) << "call " << I;
    return;
  }
  ASSERT_EQ(Ref.Calls.size(), Got.Calls.size());
  for (size_t I = 0; I < Got.Calls.size(); ++I)
    ASSERT_EQ(Ref.Calls[I], Got.Calls[I]) << "call " << I;
  EXPECT_EQ(Ref.Code, Got.Code);
  EXPECT_EQ(Ref.Offset, Got.Offset);
  EXPECT_EQ(Ref.StackBytes, Got.StackBytes);
}

/// Compare on Doc: the importer's source and 1..7-byte chunks; with
/// FailAll, also with the handler failing at each call in turn.
template <bool StopWhenDone = false>
void check(const std::string &Doc, uint64_t Limit = 0, bool FailAll = false) {
  Outcome Ref = rapid<StopWhenDone>(Doc, Limit, 0);
  expectSame(Ref, ours<StopWhenDone>(Doc, Limit, 0), Doc, "InputStream");
  // (The tiny source does not skip a byte order mark as InputStream does.)
  bool Bom = Doc.compare(0, 3, "\xEF\xBB\xBF") == 0;
  for (size_t N = 1; N <= 7 && !Bom; ++N)
    expectSame(Ref, oursTiny<StopWhenDone>(Doc, N, Limit, 0), Doc,
               "chunks of " + std::to_string(N));
  if (!FailAll)
    return;
  for (size_t K = 1; K <= Ref.Calls.size(); ++K) {
    Outcome RefK = rapid<StopWhenDone>(Doc, Limit, K);
    std::string What = "failing call " + std::to_string(K);
    expectSame(RefK, ours<StopWhenDone>(Doc, Limit, K), Doc, What);
    if (!Bom)
      expectSame(RefK, oursTiny<StopWhenDone>(Doc, 3, Limit, K), Doc, What);
  }
}

TEST(JsonReader, Structure) {
  for (const char *D :
       {"", " ", "{}", "[]", " { } ", "[1,2,3]", "{\"a\":1,\"b\":[true,false,null]}",
        "[[[]]]", "[{}]", "{\"a\":{\"b\":{}}}", "1", "\"s\"", "true", "null",
        "false", "{}x", "{} {}", "[]]", "{,}", "{\"a\"}", "{\"a\":}", "{\"a\" 1}",
        "{\"a\":1,}", "[1,]", "[,1]", "[1 2]", "{\"a\":1 \"b\":2}", "{1:2}",
        "{]", "[}", "]", "}", ",", ":", "[:]", "{\"a\"::1}", "{\"a\":1}}",
        "[1]]", "{\"a\":[1,{\"b\":null}],\"c\":\"d\"}", "\t\r\n[ 1 ,\n2 ]\n",
        "{\"a\":1}\0garbage", "[1,\0]", "[\"a\0b\"]", "[nul]", "[nulll]",
        "[tru]", "[fals]", "[falsey]", "[n]", "[t", "[f", "[x]", "{\"a\":x}",
        "[-]", "[-x]", "[+1]", "[.5]", "[--1]", "\xEF\xBB\xBF{}", "{}\xEF"}) {
    std::string Doc(D);
    check(Doc, 0, true);
  }
  // Embedded NUL bytes.
  check(std::string("[1,\0 2]", 7));
  check(std::string("{\"a\":\"x\0y\"}", 11));
  check(std::string("[1]\0[", 5));
}

TEST(JsonReader, Strings) {
  for (const char *D :
       {"[\"\"]", "[\"abc\"]", "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", "[\"\\x\"]",
        "[\"\\", "[\"\\u\"]", "[\"\\u12\"]", "[\"\\u12g4\"]", "[\"\\u0041\"]",
        "[\"\\u00e9\\u20AC\\uFFFF\\u0000\"]", "[\"\\ud83d\\ude00\"]",
        "[\"\\uD83D\\uDE00\"]", "[\"\\ud83d\"]", "[\"\\ud83dx\"]",
        "[\"\\ud83d\\\"]", "[\"\\ud83d\\u0041\"]", "[\"\\ude00\"]",
        "[\"\\ud83d\\ud83d\"]", "[\"\\ud83d\\uzzzz\"]", "[\"\\ud83d\\", "[\"\\ud83d\\u",
        "[\"abc", "[\"abc\\", "\"", "[\"a\x01\"]", "[\"a\x1f\"]", "[\"a\x7f\"]",
        "[\"\xc3\xa9\"]", "[\"\xe2\x82\xac\"]", "[\"\xf0\x9f\x98\x80\"]",
        "[\"\xc3\"]", "[\"\xc3", "[\"\xc3\xc3\"]", "[\"\x80\"]", "[\"\xbf\"]",
        "[\"\xc0\x80\"]", "[\"\xc1\xbf\"]", "[\"\xe0\x80\x80\"]",
        "[\"\xe0\xa0\x80\"]", "[\"\xed\xa0\x80\"]", "[\"\xed\x9f\xbf\"]",
        "[\"\xef\xbf\xbf\"]", "[\"\xf0\x80\x80\x80\"]", "[\"\xf0\x90\x80\x80\"]",
        "[\"\xf4\x8f\xbf\xbf\"]", "[\"\xf4\x90\x80\x80\"]", "[\"\xf5\x80\x80\x80\"]",
        "[\"\xff\"]", "[\"\xe2\x82\"]", "[\"\xe2\x82", "[\"\xf0\x9f\x98\"]",
        "[\"\xe2\"\"]", "{\"k\xc3\xa9y\":\"v\\n\"}", "{\"\\u0000\":1}",
        "[\"0123456789abcdef0123456789abcdef\"]",
        "[\"0123456789abcdef0123456789abcde\\n\"]",
        "[\"0123456789abcdef\xc3\xa9" "0123456789abcdef\"]"}) {
    std::string Doc(D);
    check(Doc, 0, true);
  }
  // Long strings of every kind (SIMD blocks, slow path, crossing chunks).
  std::string Long(1000, 'x');
  check("[\"" + Long + "\"]");
  check("[\"" + Long + "\\n" + Long + "\"]");
  check("[\"" + Long + "\xc3\xa9" + Long + "\"]");
  check("[\"" + Long + "\x01\"]");
  check("[\"" + Long);
}

TEST(JsonReader, Numbers) {
  for (const char *N :
       {"0", "-0", "1", "-1", "01", "-01", "00", "1.", "1.e5", "1e", "1e+", "1e-",
        "1E5", "1e+5", "1e-5", ".", "-", "-.5", "0.1", "0.5", "1.5e3", "-0.0",
        "2147483647", "2147483648", "-2147483647", "-2147483648", "-2147483649",
        "4294967295", "4294967296", "4294967294", "9223372036854775807",
        "9223372036854775808", "-9223372036854775807", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "18446744073709551614", "-18446744073709551616",
        "99999999999999999999999", "123456789012345678901234567890",
        "1e308", "1e309", "-1e309", "1.7976931348623157e308",
        "1.7976931348623159e308", "1e-400", "-1e-400", "5e-324", "4.9e-324",
        "2.4703282292062327e-324", "2.2250738585072014e-308",
        "2.2250738585072011e-308", "0.30000000000000004", "1700000003893.547",
        "900719925474099.3", "-900719925474099.1", "900719925474099.1",
        "0.000000000000001", "9999999999999999", "-9999999999999999",
        "999999999999999.9", "12345678.12345678", "1234567812345678",
        "123456789012345.6", "1234567890123456.7", "9007199254740993",
        "9007199254740993.0", "0.1e1", "1e22", "1e23", "1.5e37", "1e-22",
        "1e-23", "123.456e-7", "1e2147483647", "1e-2147483648",
        "1e-9999999999", "0e99999", "0.0000000000000000000000000000001e300",
        "1e0000000000000000000000000000000000001", "3.14159265358979323846",
        "-1.5", "100000000000000000000", "1.00000000000000011102230246251565404",
        "7e-10", "1.5e+300", "8.98846567431158e307", "1.797693134862315e307",
        "17976931348623158079372897140530341507993413271003782693617377898044"
        "49682927647509466490179775872070963302864166928879109465555478519404"
        "02630657488671505820681908902000708383676273854845817711531764475730"
        "27006985099187669331463209624209932007406474880346993254802087432716"
        "7997999946262560325"}) {
    for (const char *Wrap : {"[%]", "%", "{\"a\":%}", "[%,1]", "[% ]", "[%x]",
                             "[%-]", "[%.]", "[%e]"}) {
      std::string W(Wrap), Doc = W.substr(0, W.find('%')) + N +
                                 W.substr(W.find('%') + 1);
      check(Doc, 0, W == "[%]");
    }
  }
  // 800-digit mantissas, before and after the point.
  std::string Digits;
  for (int I = 0; I < 800; ++I)
    Digits += char('0' + (I * 7 + 3) % 10);
  check("[" + Digits + "]");
  check("[0." + Digits + "]");
  check("[" + Digits + "." + Digits + "e-900]");
  check("[1." + Digits + "e5]");
  check("[0.000000000000000000000000000000000000000000" + Digits + "]");
  check("[2.4703282292062327208828439643411068618252990130716238221279284125"
        "033775363510437593264991818081799618989828234772285886546332835517"
        "796989819938739800539093906315035659515570226392290858392449105184"
        "435931802849936536152500319370457678249219365623669863658480757001"
        "585769269903706311928279558551332927834338409351978015531246597263"
        "579574622766465272827220056374006485499977096599470454020828166226"
        "237857393450736339007967761930577506740176324673600968951340535537"
        "458516661134223766678604162159680461914467291840300530057530849048"
        "765391711386591646239524912623653881879636239373280423891018672348"
        "497668235089863388587925628302755995657524455507255189313690836254"
        "779186948667994968324049705821028513185451396213837722826145437693"
        "412532098591327667236328125e-324]");
}

TEST(JsonReader, NumbersInLongDocuments) {
  // The fast number path reads digits in place when 40 bytes of the chunk
  // follow the number (the short documents above mostly miss it): numbers
  // with 1-19 integer and 0-18 fraction digits, signs, leading zeros and
  // exponents, each followed by padding, in a member and in an array.
  std::mt19937_64 Rng(20261130);
  auto Digits = [&](unsigned N) {
    std::string S;
    for (unsigned I = 0; I < N; ++I)
      S += char('0' + Rng() % 10);
    return S;
  };
  const std::string Pad = ", \"pad\": \"" + std::string(48, 'x') + "\"";
  for (int I = 0; I < 3000; ++I) {
    std::string N = Rng() % 4 == 0 ? "-" : "";
    N += Digits(1 + unsigned(Rng() % 19));
    if (Rng() % 2)
      N += "." + Digits(unsigned(Rng() % 19)); // (no digit: an error)
    if (Rng() % 8 == 0)
      N += "e" + std::to_string(int(Rng() % 50) - 25);
    check("{\"k\": " + N + Pad + "}");
    check("[" + N + ", " + N + Pad.substr(2) + "]");
    if (HasFatalFailure())
      return;
  }
  // Kineto's timestamps and durations (microseconds with three decimals)
  // and ids, many to a document, pretty-printed as traces are: every value
  // must be the double or integer RapidJSON gives.
  for (int Doc = 0; Doc < 40; ++Doc) {
    std::string S = "{\n  \"traceEvents\": [";
    for (int I = 0; I < 500; ++I) {
      unsigned IntDigits = 1 + unsigned(Rng() % 16);
      std::string Int = std::to_string(1 + Rng() % 9) + Digits(IntDigits - 1);
      std::string Frac = Digits(unsigned(Rng() % 4)); // 0-3 decimals
      std::string Ts = Frac.empty() ? Int : Int + "." + Frac;
      S += std::string(I ? "," : "") + "\n    {\n      \"ts\": " + Ts +
           ",\n      \"dur\": " + std::to_string(Rng() % 1000) + "." +
           Digits(3) + ",\n      \"id\": -" +
           std::to_string(Rng() % 10000000000ull) + ",\n      \"dims\": [" +
           Digits(1) + ", " + std::to_string(Rng() % 1000) + ", " +
           std::to_string(Rng() % 100000) + "]\n    }";
    }
    S += "\n  ]\n}";
    check(S);
    if (HasFatalFailure())
      return;
  }
}

TEST(JsonReader, Truncations) {
  std::string Doc =
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\\u00e9\\n\xc3\xa9\","
      "\"ts\":1700000003893.547,\"dur\":-1.5e-3,\"pid\":-7,\"tid\":\"t\","
      "\"args\":{\"x\":[1,2.5,true,false,null,{}],\"y\":18446744073709551616}"
      "}],\"z\":[]}";
  check(Doc, 0, true);
  for (size_t N = 0; N < Doc.size(); ++N)
    check(Doc.substr(0, N));
  // Every byte replaced by a few others.
  for (size_t N = 0; N < Doc.size(); ++N)
    for (char C : {'"', '\\', ',', '}', '0', '\x80', ' '}) {
      std::string D = Doc;
      D[N] = C;
      check(D);
    }
}

TEST(JsonReader, Nesting) {
  for (size_t Depth : {1, 31, 32, 33, 63, 64, 200, 5000}) {
    std::string A(Depth, '['), B(Depth, ']');
    check(A + B);
    check(A + B.substr(1));
    std::string O;
    for (size_t I = 0; I < Depth; ++I)
      O += "{\"k\":";
    check(O + "1" + std::string(Depth, '}'));
  }
}

TEST(JsonReader, StackLimit) {
  std::string Long(3000, 'y');
  // (The cases below reach the limits: a 3000-byte string grows the
  // stack 256, 384, ..., 2916, 4374 bytes.)
  EXPECT_TRUE(rapid<false>("[\"" + Long + "\"]", 2047, 0).Limited);
  EXPECT_FALSE(rapid<false>("[\"" + Long + "\"]", 4374, 0).Limited);
  for (uint64_t Limit : {1, 255, 256, 257, 383, 384, 385, 1000, 2047, 4096}) {
    check("[\"" + Long + "\"]", Limit);
    check("{\"" + Long + "\":1}", Limit);
    check("[\"" + Long.substr(0, 370) + "\"]", Limit);
    check("[\"" + Long.substr(0, 370) + "\\u00e9\\n\xc3\xa9" +
              Long.substr(0, 700) + "\"]",
          Limit);
    check("[" + std::string(900, '7') + "]", Limit);
    check("[1." + std::string(900, '7') + "e5]", Limit);
    check(std::string(200, '[') + "\"" + Long.substr(0, 400) + "\"" +
              std::string(200, ']'),
          Limit);
    check(std::string(600, '[') + std::string(600, ']'), Limit);
  }
}

TEST(JsonReader, StopWhenDone) {
  for (const char *D : {"[{\"a\":1},{\"b\":[2]}]garbage", "[1,2", "[1]]", "[]",
                        "1 2", "{\"a\":\"b\"} x"})
    check<true>(D, 0, true);
}

TEST(JsonReader, RandomDocuments) {
  // Documents stitched from JSON fragments, valid or not.
  const char *Parts[] = {"{", "}", "[", "]", ",", ":", "\"k\"", "\"v\\n\"",
                         "\"\xc3\xa9\"", "1", "-2.5e3", "0", "true", "null",
                         " ", "\n", "\"\\ud83d\\ude00\"", "1e400", "\xff",
                         "18446744073709551616", "\"a", "\\", "0.1"};
  std::mt19937 Rng(12345);
  for (int I = 0; I < 3000; ++I) {
    std::string Doc;
    unsigned N = 1 + Rng() % 24;
    for (unsigned J = 0; J < N; ++J)
      Doc += Parts[Rng() % (sizeof(Parts) / sizeof(Parts[0]))];
    check(Doc, Rng() % 4 == 0 ? 256 + Rng() % 64 : 0);
    if (HasFatalFailure())
      return;
  }
}

} // namespace
