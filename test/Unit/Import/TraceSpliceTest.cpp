//===- TraceSpliceTest.cpp - Copying a trace with events appended ---------===//
//
// spliceTraceEvents (lib/Input/TraceSplice.cpp): the output is the input
// byte for byte with the inserted text right before the `]` closing the
// top-level traceEvents, whatever strings, escapes, nested traceEvents keys
// or gzip/BOM/trailing bytes surround it; inputs it cannot place the text
// in are one-line errors naming the file. Expected outputs are written out
// by hand below.
//
//===----------------------------------------------------------------------===//
#include "tl/Input/TraceSplice.h"

#include "GzipForTest.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace tl;
using namespace llvm;

namespace {

/// A temporary file holding Bytes, removed with the object.
struct TempFile {
  SmallString<128> Path;
  explicit TempFile(StringRef Bytes) {
    int FD;
    EXPECT_FALSE(sys::fs::createTemporaryFile("splice", "json", FD, Path));
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Bytes;
  }
  ~TempFile() { sys::fs::remove(Path); }
};

/// The copy of Input with "<NEW comma=N>" inserted (or the error text).
std::string splice(StringRef Input, bool *Comma = nullptr) {
  TempFile F(Input);
  std::string Out;
  raw_string_ostream OS(Out);
  Error E = spliceTraceEvents(F.Path, OS, [&](raw_ostream &O, bool NeedComma) {
    if (Comma)
      *Comma = NeedComma;
    O << "<NEW comma=" << NeedComma << ">";
  });
  if (E) {
    std::string Msg = toString(std::move(E));
    // The temporary path varies: keep what follows it.
    return "error:" + Msg.substr(Msg.find(": ") + 1);
  }
  return Out;
}

TEST(TraceSplice, InsertsBeforeTopLevelTraceEventsEnd) {
  // A nested traceEvents key, brackets and escaped quotes inside strings,
  // and keys after traceEvents all stay as they are.
  EXPECT_EQ(splice(R"({"a": {"traceEvents": [1]}, "traceEvents": [{"x": "]\"[\\", "y": [2, {"z": "}"}]}], "b": "traceEvents"})"),
            R"({"a": {"traceEvents": [1]}, "traceEvents": [{"x": "]\"[\\", "y": [2, {"z": "}"}]}<NEW comma=1>], "b": "traceEvents"})"
            "\n");
}

TEST(TraceSplice, EmptyArrayNeedsNoComma) {
  bool Comma = true;
  EXPECT_EQ(splice("{\"traceEvents\": [ \n ]}", &Comma),
            "{\"traceEvents\": [ \n <NEW comma=0>]}\n");
  EXPECT_FALSE(Comma);
}

TEST(TraceSplice, EscapedKeyIsTraceEvents) {
  // The importer decodes keys: "trace\u0045vents" is traceEvents.
  EXPECT_EQ(splice(R"({"x": 1, "trace\u0045vents": [3]})"),
            R"({"x": 1, "trace\u0045vents": [3<NEW comma=1>]})"
            "\n");
  // "traceEvent\"s" is not.
  EXPECT_EQ(splice(R"({"traceEvent\"s": [3]})"),
            "error: expected a top-level traceEvents array");
}

TEST(TraceSplice, GzipBomAndTrailingBytesDropped) {
  // The importer's reader stops at a NUL after the top-level value; the
  // copy ends at the closing brace, without the BOM.
  std::string In = "\xEF\xBB\xBF{\"traceEvents\":[{}]}  \n";
  In += std::string(1, '\0') + "garbage";
  EXPECT_EQ(splice(test::gzip(In)), "{\"traceEvents\":[{}<NEW comma=1>]}\n");
  // Two gzip members read as one stream, split inside a string.
  std::string Two = test::gzip("{\"traceEvents\":[\"a]") +
                    test::gzip("b\"]}");
  EXPECT_EQ(splice(Two), "{\"traceEvents\":[\"a]b\"<NEW comma=1>]}\n");
}

TEST(TraceSplice, LargeInputCrossesChunks) {
  // Several of InputStream's 256 KiB chunks, a string split at every
  // offset class: the output is still the input plus the insertion.
  std::string Ev = R"({"name": "k\"]", "args": {"a": [1, 2]}})";
  std::string In = "{\"traceEvents\": [";
  for (int I = 0; I < 40000; ++I)
    In += (I ? ", " : "") + Ev;
  std::string Tail = "], \"z\": \"}\"}";
  std::string Want = In + "<NEW comma=1>" + Tail + "\n";
  In += Tail;
  EXPECT_EQ(splice(In), Want);
  EXPECT_EQ(splice(test::gzip(In)), Want);
}

TEST(TraceSplice, Errors) {
  EXPECT_EQ(splice("[1, 2]"), "error: expected a JSON object at the top level");
  EXPECT_EQ(splice(""), "error: expected a JSON object at the top level");
  EXPECT_EQ(splice("{\"traceEvents\": [1, "),
            "error: expected the end of the top-level object (the input "
            "ended early)");
  EXPECT_EQ(splice("{\"other\": [1]}"),
            "error: expected a top-level traceEvents array");
  std::string Bad = test::gzip("{\"traceEvents\": []}");
  Bad[Bad.size() / 2] ^= 0x55;
  EXPECT_EQ(splice(Bad).rfind("error: offset ", 0), 0u) << splice(Bad);

  std::string Out;
  raw_string_ostream OS(Out);
  Error E = spliceTraceEvents("/nonexistent/t.json", OS,
                              [](raw_ostream &, bool) {});
  EXPECT_EQ(toString(std::move(E)),
            "/nonexistent/t.json: expected a readable file (No such file or "
            "directory)");
}

} // namespace
