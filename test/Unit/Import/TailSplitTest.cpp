//===- TailSplitTest.cpp - Two-thread import equals the one-thread import -===//
//
// The second import thread starts at a guessed event boundary. Whatever the
// guess (every byte offset of a small trace is tried, including offsets in
// strings full of braces, quotes and escapes, and in args holding arrays of
// objects), the IR, warnings and error messages must be those of the
// one-thread import.
//
//===----------------------------------------------------------------------===//
#include "GzipForTest.h"

#include "tl/IR/Printer.h"
#include "tl/IR/Verifier.h"
#include "tl/Import/Importer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>
#include <thread>

using namespace tl;
using tl::test::gzip;

namespace {

/// Everything an import yields that a consumer can see, as text.
std::string dump(llvm::Expected<Trace> T) {
  if (!T)
    return "error: " + llvm::toString(T.takeError());
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printTrace(*T, OS);
  printTraceSummary(*T, OS);
  for (EventId E = 0; E < T->size(); ++E)
    OS << T->args(E).toJson() << "\n";
  OS << T->topLevel().toJson() << "\n";
  for (const std::string &W : T->stats().Warnings)
    OS << "warning: " << W << "\n";
  return Out;
}

ImportOptions twoThreads(uint64_t SplitOffset, unsigned *Splices) {
  ImportOptions O;
  O.Threads = 2;
  O.SplitMinBytes = 0;
  O.SplitOffset = SplitOffset;
  O.OnSplice = [Splices](uint64_t) { ++*Splices; };
  return O;
}

/// The second thread runs only on machines with more than one core.
bool twoCores() { return std::thread::hardware_concurrency() > 1; }

ImportOptions oneThread() {
  ImportOptions O;
  O.Threads = 1;
  return O;
}

/// A trace whose bytes look like event boundaries in many wrong places.
std::string trickyTrace() {
  std::string J = "{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0},"
                  " {\"id\":1}],\n\"traceEvents\":[\n";
  const char *Names[] = {
      "plain",
      "brace }, {\\\"ph\\\": \\\"X\\\"} inside",
      "quote \\\" backslash \\\\ }, {\\\"",
      "escaped \\u007d, \\u007b\\\"name\\\"",
      "unicode \\u00e9\\ud83d\\ude00 caf\xC3\xA9",
      "tab\\tnewline\\n}\\r\\n,\\n{\\n\\\"",
  };
  for (int I = 0; I < 24; ++I) {
    if (I)
      J += (I % 3 == 0) ? ",\n  " : (I % 3 == 1 ? " , " : ",");
    std::string Id = std::to_string(I);
    switch (I % 6) {
    case 0:
      J += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" +
           std::string(Names[I / 6 % 6]) +
           "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(I * 10) +
           ",\"dur\":8,\"args\":{\"External id\":" + Id +
           ",\"Input Dims\":[[2,3],[]],\"list\":[{\"a\":\"}, {\\\"\"}, "
           "{\"b\":[1.5,-2,true,null]}],\"Sequence number\":" +
           Id + "}}";
      break;
    case 1:
      J += "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":"
           "\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":" +
           std::to_string(I * 10 - 8) +
           ".5,\"dur\":1,\"args\":"
           "{\"correlation\":" +
           Id + ",\"note\":\"}, {\\\"ph\\\":\"}}";
      break;
    case 2:
      J += "{\"ph\":\"s\",\"id\":" + Id +
           ",\"pid\":1,\"tid\":1,\"ts\":1,"
           "\"cat\":\"ac2g\",\"name\":\"ac2g\"},{\"ph\":\"f\",\"id\":" +
           Id +
           ",\"pid\":0,\"tid\":7,\"ts\":2,\"cat\":\"ac2g\",\"name\":\"ac2g\","
           "\"bp\":\"e\"}";
      break;
    case 3:
      J += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" +
           std::string(Names[(I / 6 + 1) % 6]) +
           "\",\"pid\":0,\"tid\":7,"
           "\"ts\":" +
           std::to_string(I * 10 - 7) +
           ",\"dur\":2,\"args\":"
           "{\"correlation\":" +
           std::to_string(I - 2) +
           ",\"stream\":7,"
           "\"grid\":[1,2,3],\"big\":18446744073709551615,"
           "\"neg\":-9007199254740993}}";
      break;
    case 4: // warnings: no ph, negative dur; a scalar args value
      J += "{\"name\":\"no ph }, {\"},{\"ph\":\"X\",\"name\":\"neg\","
           "\"ts\":5,\"dur\":-3,\"args\":\"scalar }, {\\\"\"}";
      break;
    case 5:
      J += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,"
           "\"args\":{\"name\":\"main } , { \\\"\"}} ,\n {\"ph\":\"i\","
           "\"name\":\"i\",\"ts\":1,\"unknown\":{\"x\":[{},{\"y\":{}}]}}";
      break;
    }
  }
  J += "\n],\"traceName\":\"}, {\\\"ph\\\"\",\"displayTimeUnit\":\"ms\"}\n";
  return J;
}

} // namespace

TEST(TailSplit, EverySplitOffsetGivesTheOneThreadImport) {
  std::string J = trickyTrace();
  std::string Serial = dump(importTraceFromBuffer(J, "t.json", oneThread()));
  ASSERT_EQ(Serial.rfind("error", 0), std::string::npos) << Serial;
  unsigned Splices = 0;
  for (uint64_t Off = 1; Off < J.size(); ++Off)
    ASSERT_EQ(
        dump(importTraceFromBuffer(J, "t.json", twoThreads(Off, &Splices))),
        Serial)
        << "split offset " << Off;
  // Most offsets find a real boundary later on: the tail was really used.
  if (twoCores()) {
    EXPECT_GT(Splices, J.size() / 2);
  }
}

TEST(TailSplit, ErrorsInTheTailKeepTheirOffsets) {
  std::string J = trickyTrace();
  size_t Half = J.size() / 2;
  size_t Late = J.find("{\"ph\":\"X\",\"cat\":\"kernel\"", Half);
  ASSERT_NE(Late, std::string::npos);
  std::vector<std::string> Bad;
  // JSON errors: truncation, a bad escape, invalid UTF-8, a missing comma.
  for (size_t Cut : {Half + 7, J.size() - 40, J.size() - 3})
    Bad.push_back(J.substr(0, Cut));
  Bad.push_back(J.substr(0, Late) + "{\"name\":\"\\q\"}," + J.substr(Late));
  Bad.push_back(J.substr(0, Late) + "{\"name\":\"\xC3\x28\"}," +
                J.substr(Late));
  Bad.push_back(J.substr(0, Late) + "{\"ph\":\"X\"} {}," + J.substr(Late));
  // Importer errors inside an event of the tail: a wrong type, a scalar
  // entry of traceEvents, a second traceEvents key after the array.
  Bad.push_back(J.substr(0, Late) + "{\"ph\":\"X\",\"ts\":{}}," +
                J.substr(Late));
  Bad.push_back(J.substr(0, Late) + "{\"ph\":\"X\",\"dur\":\"1\"}," +
                J.substr(Late));
  Bad.push_back(J.substr(0, Late) + "17," + J.substr(Late));
  Bad.push_back(J.substr(0, J.size() - 2) + ",\"traceEvents\":[]}\n");
  unsigned Splices = 0;
  for (const std::string &B : Bad) {
    std::string Serial = dump(importTraceFromBuffer(B, "t.json", oneThread()));
    ASSERT_EQ(Serial.rfind("error: t.json: offset ", 0), 0u) << Serial;
    for (uint64_t Off = 1; Off < B.size(); Off += 3)
      ASSERT_EQ(
          dump(importTraceFromBuffer(B, "t.json", twoThreads(Off, &Splices))),
          Serial)
          << "split offset " << Off << " of\n"
          << B;
  }
  if (twoCores()) {
    EXPECT_GT(Splices, 0u);
  }
}

TEST(TailSplit, FileInputMatchesAndLimitsHold) {
  // Large enough for a default split (30 % in) on a file: pread + seek.
  std::string J = "{\"traceEvents\":[";
  for (int I = 0; I < 30000; ++I) {
    if (I)
      J += ",\n";
    J += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op" +
         std::to_string(I % 97) +
         "\",\"pid\":1,\"tid\":" + std::to_string(I % 3) +
         ",\"ts\":" + std::to_string(I * 10) +
         ",\"dur\":5,\"args\":{\"External id\":" + std::to_string(I) +
         ",\"Input Dims\":[[" + std::to_string(I) + ",2048]]}}";
  }
  J += "]}";
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tail", "json", Path));
  {
    std::FILE *F = std::fopen(Path.c_str(), "wb");
    ASSERT_TRUE(F);
    std::fwrite(J.data(), 1, J.size(), F);
    std::fclose(F);
  }
  std::string Serial = dump(importTrace(Path, oneThread()));
  ASSERT_EQ(Serial.rfind("error", 0), std::string::npos) << Serial;
  unsigned Splices = 0;
  EXPECT_EQ(dump(importTrace(Path, twoThreads(0, &Splices))), Serial);
  EXPECT_EQ(Splices, twoCores() ? 1u : 0u);
  // The event limit counts the tail's events too.
  ImportOptions Few = oneThread();
  Few.MaxEvents = 20000;
  ImportOptions FewTwo = twoThreads(0, &Splices);
  FewTwo.MaxEvents = 20000;
  std::string LimitSerial = dump(importTrace(Path, Few));
  EXPECT_EQ(LimitSerial.rfind("error: ", 0), 0u);
  EXPECT_EQ(dump(importTrace(Path, FewTwo)), LimitSerial);
  llvm::sys::fs::remove(Path);
}

TEST(TailSplit, GzipInputInflatedIntoOneBuffer) {
  std::string J = trickyTrace();
  std::string Gz = gzip(J);
  std::string Serial =
      dump(importTraceFromBuffer(Gz, "t.json.gz", oneThread()));
  ASSERT_EQ(Serial.rfind("error", 0), std::string::npos) << Serial;
  unsigned Splices = 0;
  for (uint64_t Off = 1; Off < J.size(); Off += 7)
    ASSERT_EQ(
        dump(importTraceFromBuffer(Gz, "t.json.gz", twoThreads(Off, &Splices))),
        Serial)
        << "split offset " << Off;
  if (twoCores()) {
    EXPECT_GT(Splices, J.size() / 7 / 2);
  }
  // Truncated and corrupt gzip: the same error at the same offset.
  std::vector<std::string> Bad = {Gz.substr(0, Gz.size() * 2 / 3),
                                  Gz.substr(0, Gz.size() - 9), Gz};
  for (size_t I = Gz.size() * 3 / 4; I < Gz.size() * 3 / 4 + 16; ++I)
    Bad.back()[I] ^= 0x5a;
  for (const std::string &B : Bad) {
    std::string One = dump(importTraceFromBuffer(B, "t.json.gz", oneThread()));
    ASSERT_EQ(One.rfind("error: t.json.gz: offset ", 0), 0u) << One;
    for (uint64_t Off : {uint64_t(1), uint64_t(J.size() / 3),
                         uint64_t(J.size() / 2), uint64_t(J.size() - 50)})
      EXPECT_EQ(dump(importTraceFromBuffer(B, "t.json.gz",
                                           twoThreads(Off, &Splices))),
                One);
  }
  // Two gzip members (whitespace between two events makes them long): the
  // trailer gives the second one's size only, so the one buffer overflows
  // and the import runs again on one thread.
  size_t Mid = J.find(",\n  ", J.size() / 3) + 1;
  std::string Two = gzip(J.substr(0, Mid) + std::string(10000, ' ')) +
                    gzip(std::string(50000, ' ') + J.substr(Mid));
  std::string TwoSerial =
      dump(importTraceFromBuffer(Two, "t.json.gz", oneThread()));
  ASSERT_EQ(TwoSerial.rfind("error", 0), std::string::npos) << TwoSerial;
  EXPECT_EQ(dump(importTraceFromBuffer(Two, "t.json.gz",
                                       twoThreads(J.size() / 3, &Splices))),
            TwoSerial);
}

TEST(TailSplit, StringLimitInTheTail) {
  // RapidJSON's stack holds a whole string: a name past the limit in the
  // second half stops the tail parser, and the calling thread reports it
  // at the same offset as the one-thread import.
  std::string J = trickyTrace();
  size_t At = J.find("\"name\":\"", J.size() * 2 / 3) + 8;
  ASSERT_NE(At, std::string::npos + 8);
  J.insert(At, std::string(5000, 'x'));
  ImportOptions One = oneThread();
  One.MaxStringBytes = 4096;
  std::string Serial = dump(importTraceFromBuffer(J, "t.json", One));
  ASSERT_NE(Serial.find("string limit"), std::string::npos) << Serial;
  unsigned Splices = 0;
  for (uint64_t Off = 1; Off < J.size(); Off += 97) {
    ImportOptions Two = twoThreads(Off, &Splices);
    Two.MaxStringBytes = 4096;
    ASSERT_EQ(dump(importTraceFromBuffer(J, "t.json", Two)), Serial)
        << "split offset " << Off;
  }
  if (twoCores()) {
    EXPECT_GT(Splices, 0u);
  }
}
