//===- ImporterTest.cpp - Parsing edge cases of the Kineto importer -------===//
#include "GzipForTest.h"

#include "tl/Import/Importer.h"
#include "tl/IR/Printer.h"
#include "tl/IR/Verifier.h"

#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cstring>

using namespace tl;
using tl::test::gzip;

static std::string errorOf(llvm::StringRef Data) {
  auto T = importTraceFromBuffer(Data, "t.json");
  if (T)
    return "";
  return llvm::toString(T.takeError());
}

static Trace ok(llvm::StringRef Data) {
  auto T = importTraceFromBuffer(Data, "t.json");
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return Trace();
  }
  EXPECT_FALSE(bool(verifyTrace(*T)));
  return std::move(*T);
}

// Offsets: a container that is not allowed is reported at its opening
// bracket, a bad scalar or key just after it, a JSON syntax error where the
// parser stopped (RapidJSON's offset).
TEST(Importer, Errors) {
  EXPECT_EQ(errorOf(""), "t.json: offset 0: expected a JSON value (the "
                         "input is empty)");
  EXPECT_EQ(errorOf("[]"),
            "t.json: offset 0: expected a JSON object at the top level");
  EXPECT_EQ(errorOf("{}"), "t.json: offset 2: expected a \"traceEvents\" "
                           "array in the top-level object");
  EXPECT_EQ(errorOf("{\"traceEvents\":{}}"),
            "t.json: offset 15: expected an array for \"traceEvents\"");
  EXPECT_EQ(errorOf("{\"traceEvents\":[1]}"),
            "t.json: offset 17: expected an object for each entry of "
            "\"traceEvents\"");
  // 16 + 10 + 5 = 31 is where "1" starts; it ends at 34.
  EXPECT_EQ(errorOf("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":\"1\"}]}"),
            "t.json: offset 34: expected a number for \"ts\"");
  EXPECT_EQ(errorOf("{\"traceEvents\":[{\"ts\":1e400}]}"),
            "t.json: offset 22: expected a number within double range");
  EXPECT_EQ(errorOf("{\"traceEvents\":[]} x"),
            "t.json: offset 19: expected the end of the input after the "
            "top-level value");
  EXPECT_EQ(errorOf("{\"traceEvents\":[{\"ts\":NaN}]}"),
            "t.json: offset 22: expected a JSON value");
  EXPECT_EQ(errorOf("{\"traceEvents\":[{\"name\":\"\xff\"}]}"),
            "t.json: offset 25: expected valid UTF-8 text in the string");
  EXPECT_EQ(errorOf("{\"traceEvents\":[],\"traceEvents\":[]}"),
            "t.json: offset 31: expected a single \"traceEvents\" key "
            "(duplicate)");
}

TEST(Importer, GzipAndTruncatedGzip) {
  std::string Json =
      "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\","
      "\"pid\":1,\"tid\":1,\"ts\":1.5,\"dur\":2}]}";
  std::string Gz = gzip(Json);
  auto T = importTraceFromBuffer(Gz, "t.json.gz");
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->size(), 1u);
  EXPECT_EQ(T->stats().InputBytes, Json.size());
  std::string Cut = Gz.substr(0, Gz.size() / 2);
  auto U = importTraceFromBuffer(Cut, "t.json.gz");
  ASSERT_FALSE(bool(U));
  EXPECT_EQ(llvm::toString(U.takeError()),
            "t.json.gz: offset " + std::to_string(Cut.size()) +
                ": expected more compressed data (truncated gzip stream)");
  std::string Bad = Gz;
  Bad[12] ^= 0x55;
  Bad[13] ^= 0x55;
  auto V = importTraceFromBuffer(Bad, "t.json.gz");
  EXPECT_FALSE(bool(V));
  llvm::consumeError(V.takeError());
}

// Gzip input of many 256 KiB chunks: the background inflater (Threads = 0
// on a multi-core machine) and the serial path (Threads = 1) give the same
// IR, and the same error text and offset for a cut or corrupted stream.
TEST(Importer, BackgroundInflateMatchesSerial) {
  std::string Json = "{\"traceEvents\":[";
  for (int I = 0; I < 20000; ++I) {
    if (I)
      Json += ",";
    Json += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op" +
            std::to_string(I % 97) + "\",\"pid\":1,\"tid\":1,\"ts\":" +
            std::to_string(I * 10) + ",\"dur\":5,\"args\":{\"External id\":" +
            std::to_string(I) + ",\"Input Dims\":[[" + std::to_string(I) +
            ",2048]]}}";
  }
  Json += "]}";
  std::string Gz = gzip(Json);
  auto Run = [&](llvm::StringRef Data, unsigned Threads) {
    ImportOptions O;
    O.Threads = Threads;
    auto T = importTraceFromBuffer(Data, "t.json.gz", O);
    if (!T)
      return "error: " + llvm::toString(T.takeError());
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    printTrace(*T, OS);
    OS << T->args(T->size() - 1).toJson();
    return Out;
  };
  std::string Serial = Run(Gz, 1);
  ASSERT_EQ(Serial.rfind("error", 0), std::string::npos) << Serial;
  EXPECT_EQ(Run(Gz, 0), Serial);
  for (size_t Cut : {Gz.size() / 3, Gz.size() - 9}) {
    std::string C = Gz.substr(0, Cut);
    EXPECT_EQ(Run(C, 0), Run(C, 1));
    EXPECT_EQ(Run(C, 1).rfind("error", 0), 0u);
  }
  std::string Bad = Gz;
  for (size_t I = Gz.size() / 2; I < Gz.size() / 2 + 64; ++I)
    Bad[I] ^= 0x5a;
  EXPECT_EQ(Run(Bad, 0), Run(Bad, 1));
}

TEST(Importer, FullPrecisionAndEndInDouble) {
  // 1365627868527.828 is not exactly representable; ts + dur must be the
  // double sum of the two correctly rounded values.
  Trace T = ok("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":"
               "\"k\",\"pid\":0,\"tid\":7,\"ts\":1365627868527.828,\"dur\":"
               "0.031}]}");
  ASSERT_EQ(T.size(), 1u);
  EXPECT_EQ(T.ts(0), 1365627868527.828);
  EXPECT_EQ(T.dur(0), 0.031);
  double Sum = 1365627868527.828;
  Sum += 0.031;
  EXPECT_EQ(T.end(0), Sum);
}

TEST(Importer, BomCrlfEscapesStringPids) {
  std::string J = "\xEF\xBB\xBF{\r\n\"traceEvents\":[\r\n{\"ph\":\"X\","
                  "\"cat\":\"cpu_op\",\"name\":\"a\\u00e9\\n\\\"q\\\"\","
                  "\"pid\":\"Spans\",\"tid\":\"0\",\"ts\":1,\"dur\":2},\r\n"
                  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":0,"
                  "\"tid\":0,\"ts\":1,\"dur\":2}],\"schemaVersion\":1}\r\n";
  Trace T = ok(J);
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(T.name(0), "a\xC3\xA9\n\"q\"");
  const Track &A = T.trackInfo(T.track(0));
  const Track &B = T.trackInfo(T.track(1));
  EXPECT_TRUE(A.Pid.IsString);
  EXPECT_EQ(T.trackPartText(A.Pid), "Spans");
  EXPECT_TRUE(A.Tid.IsString);  // "0" the string ...
  EXPECT_FALSE(B.Tid.IsString); // ... differs from 0 the int
  EXPECT_NE(T.track(0), T.track(1));
  EXPECT_EQ(T.topLevel().get("schemaVersion").getInt(), 1);
}

TEST(Importer, WarningsNotErrors) {
  // Missing ph, missing ts, negative dur, zero events of interest.
  Trace T = ok("{\"traceEvents\":[{\"name\":\"x\"},{\"ph\":\"X\",\"name\":"
               "\"y\",\"dur\":1},{\"ph\":\"X\",\"name\":\"z\",\"ts\":5,"
               "\"dur\":-3},{\"ph\":\"i\",\"name\":\"i\",\"ts\":1}]}");
  EXPECT_EQ(T.stats().TotalEntries, 4u);
  EXPECT_EQ(T.size(), 1u);
  EXPECT_EQ(T.uid(0), 2u);
  EXPECT_EQ(T.dur(0), 0.0);
  EXPECT_EQ(T.stats().InstantEvents, 1u);
  EXPECT_EQ(T.stats().OtherPhases, 1u);
  EXPECT_EQ(T.stats().Warnings.size(), 3u);
  EXPECT_EQ(T.byUid(2), 0u);
  EXPECT_EQ(T.byUid(3), NoEvent);
}

TEST(Importer, MetadataNamesTracks) {
  Trace T =
      ok("{\"traceEvents\":["
         "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":5,\"tid\":0,"
         "\"args\":{\"name\":\"python3\"}},"
         "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":5,\"tid\":0,"
         "\"args\":{\"labels\":\"CPU\"}},"
         "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":5,\"tid\":9,"
         "\"args\":{\"name\":\"main\"}},"
         "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":5,\"tid\":9,"
         "\"args\":{\"sort_index\":3}},"
         "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":5,\"tid\":9,"
         "\"ts\":1,\"dur\":1}]}");
  const Track &Tr = T.trackInfo(T.track(0));
  EXPECT_EQ(T.strings().get(Tr.ProcessName), "python3");
  EXPECT_EQ(T.strings().get(Tr.ProcessLabel), "CPU");
  EXPECT_EQ(T.strings().get(Tr.ThreadName), "main");
  EXPECT_EQ(T.stats().MetadataEvents, 4u);
}

TEST(Importer, IntegersFloatsAndLimits) {
  std::string J = "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\","
                  "\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":3,"
                  "\"args\":{\"correlation\":9007199254740993,"
                  "\"big\":18446744073709551615,\"stream\":7.0,"
                  "\"Comms Id\":18446744073709551557}}]}";
  Trace T = ok(J);
  EXPECT_EQ(*T.correlation(0), 9007199254740993); // kept as an integer
  EXPECT_TRUE(T.args(0).get("big").isDouble());
  // c10d's Comms Id above INT64_MAX keeps its digits (a double is 2^64).
  EXPECT_EQ(T.args(0).get("Comms Id").getString(), "18446744073709551557");
  EXPECT_EQ(*T.stream(0), 7);
  ImportOptions O;
  O.MaxBytes = 10;
  auto U = importTraceFromBuffer(J, "t.json", O);
  EXPECT_FALSE(bool(U));
  llvm::consumeError(U.takeError());
  ImportOptions P;
  P.MaxEvents = 0;
  uint64_t Seen = 0;
  P.Progress = [&](uint64_t B) { Seen = B; };
  auto V = importTraceFromBuffer(J, "t.json", P);
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(Seen, J.size());
}

TEST(Importer, DeepArgsDoNotRecurse) {
  std::string J = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,"
                  "\"dur\":1,\"args\":{\"deep\":";
  J += std::string(100000, '[') + std::string(100000, ']');
  J += ",\"skip\":" + std::string(1000, '[') + std::string(1000, ']');
  J += "},\"unknown\":" + std::string(100000, '{').substr(0, 0) + "[[[]]]}]}";
  Trace T = ok(J);
  ASSERT_EQ(T.size(), 1u);
  EXPECT_EQ(T.args(0).get("deep")[0][0].size(), 1u);
}

TEST(Importer, MissingFile) {
  auto T = importTrace("/nonexistent/dir/x.json");
  ASSERT_FALSE(bool(T));
  std::string E = llvm::toString(T.takeError());
  EXPECT_EQ(E.rfind("/nonexistent/dir/x.json: offset 0: expected a readable "
                    "file",
                    0),
            0u)
      << E;
}

TEST(Importer, MutatedInputsNeverCrash) {
  // Deterministic byte mutations (flip, delete, insert, truncate) of a small
  // valid trace, plain and gzip: each import either fails with an error or
  // yields an IR that verifies.
  std::string Base =
      "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op\","
      "\"pid\":1,\"tid\":1,\"ts\":1.5,\"dur\":20,\"args\":{\"External id\":1,"
      "\"Input Dims\":[[2,3],[]],\"Sequence number\":4}},"
      "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
      "\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3,\"args\":{\"correlation\":7}},"
      "{\"ph\":\"s\",\"cat\":\"ac2g\",\"id\":7,\"pid\":1,\"tid\":1,\"ts\":2},"
      "{\"ph\":\"f\",\"cat\":\"ac2g\",\"id\":7,\"pid\":0,\"tid\":7,\"ts\":9},"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
      "\"ts\":9,\"dur\":1,\"args\":{\"correlation\":7,\"stream\":7}},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,"
      "\"args\":{\"name\":\"main\"}}],\"schemaVersion\":1}";
  ASSERT_EQ(errorOf(Base), "");
  uint64_t Seed = 12345;
  auto Next = [&] {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(Seed >> 33);
  };
  const char Alphabet[] = "{}[]\":,0123456789.eE-+ \\uXsfM\xff\x00";
  unsigned Ok = 0, Failed = 0;
  for (int Iter = 0; Iter < 3000; ++Iter) {
    std::string S = Base;
    unsigned Edits = 1 + Next() % 4;
    for (unsigned I = 0; I < Edits && !S.empty(); ++I) {
      size_t At = Next() % S.size();
      char C = Alphabet[Next() % (sizeof(Alphabet) - 1)];
      switch (Next() % 4) {
      case 0:
        S[At] = C;
        break;
      case 1:
        S.erase(At, 1 + Next() % 8);
        break;
      case 2:
        S.insert(At, 1, C);
        break;
      case 3:
        S.resize(At);
        break;
      }
    }
    if (Iter % 3 == 0)
      S = gzip(S);
    if (Iter % 7 == 0 && S.size() > 4)
      S[S.size() / 2] ^= 0x20; // damage the deflate stream too
    auto T = importTraceFromBuffer(S, "m.json");
    if (!T) {
      std::string E = llvm::toString(T.takeError());
      EXPECT_EQ(E.rfind("m.json: offset ", 0), 0u) << E;
      ++Failed;
      continue;
    }
    ++Ok;
    EXPECT_FALSE(bool(verifyTrace(*T)));
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    printTrace(*T, OS);
    printTraceSummary(*T, OS);
  }
  EXPECT_GT(Ok, 0u);
  EXPECT_GT(Failed, 0u);
}
