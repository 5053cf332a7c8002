//===- tl-floor.cpp - gunzip + JSON parse floor for the benchmark ----------===//
//
// The least work any trace importer must do: stream-decompress the file and
// SAX-parse it with RapidJSON (full-precision numbers, iterative parser) into
// a handler that only counts values. bench/run.sh compares tl-opt's stages
// against this floor.
//
//===----------------------------------------------------------------------===//

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// RapidJSON input stream over gzread (which also reads plain files).
class GzStream {
public:
  using Ch = char;
  explicit GzStream(gzFile F) : File(F), Buf(1 << 20) { refill(); }
  Ch Peek() const { return Cur < End ? *Cur : '\0'; }
  Ch Take() {
    if (Cur == End)
      return '\0';
    Ch C = *Cur++;
    if (Cur == End)
      refill();
    return C;
  }
  size_t Tell() const { return Count + size_t(Cur - Buf.data()); }
  // Write-side members required by the concept; never used for reading.
  Ch *PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  size_t PutEnd(Ch *) { return 0; }
  bool failed() const { return Failed; }

private:
  void refill() {
    if (End)
      Count += size_t(End - Buf.data());
    int N = gzread(File, Buf.data(), unsigned(Buf.size()));
    if (N < 0) {
      Failed = true;
      N = 0;
    }
    Cur = Buf.data();
    End = Buf.data() + N;
  }
  gzFile File;
  std::vector<char> Buf;
  char *Cur = nullptr, *End = nullptr;
  size_t Count = 0;
  bool Failed = false;
};

/// Counts values and traceEvents entries so the parse cannot be optimised
/// away; does nothing else.
struct CountingHandler
    : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, CountingHandler> {
  uint64_t Values = 0, Events = 0;
  unsigned Depth = 0;
  bool InEvents = false, LastKeyIsEvents = false;
  bool Default() {
    ++Values;
    countEntry();
    return true;
  }
  bool Key(const char *S, rapidjson::SizeType N, bool) {
    if (Depth == 1)
      LastKeyIsEvents = N == 11 && std::memcmp(S, "traceEvents", 11) == 0;
    return true;
  }
  bool StartObject() {
    countEntry();
    ++Depth;
    return true;
  }
  bool EndObject(rapidjson::SizeType) {
    --Depth;
    return true;
  }
  bool StartArray() {
    countEntry();
    if (Depth == 1 && LastKeyIsEvents)
      InEvents = true;
    ++Depth;
    return true;
  }
  bool EndArray(rapidjson::SizeType) {
    if (--Depth == 1)
      InEvents = false;
    return true;
  }
  void countEntry() {
    if (InEvents && Depth == 2)
      ++Events;
  }
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2 || !std::strcmp(argv[1], "--help")) {
    std::fprintf(stderr, "usage: tl-floor <trace.json[.gz]>\n"
                         "Streams gunzip + RapidJSON SAX parse (full "
                         "precision, iterative) and prints the time.\n");
    return argc == 2 ? 0 : 1;
  }
  auto T0 = std::chrono::steady_clock::now();
  gzFile F = gzopen(argv[1], "rb");
  if (!F) {
    std::fprintf(stderr, "tl-floor: error: %s: cannot open\n", argv[1]);
    return 1;
  }
  gzbuffer(F, 1 << 20);
  GzStream S(F);
  CountingHandler H;
  rapidjson::Reader R;
  rapidjson::ParseResult Res =
      R.Parse<rapidjson::kParseFullPrecisionFlag |
              rapidjson::kParseIterativeFlag>(S, H);
  size_t Bytes = S.Tell();
  gzclose(F);
  if (S.failed()) {
    std::fprintf(stderr, "tl-floor: error: %s: decompression failed\n", argv[1]);
    return 1;
  }
  if (!Res) {
    std::fprintf(stderr, "tl-floor: error: %s: offset %zu: %s\n", argv[1],
                 Res.Offset(), rapidjson::GetParseError_En(Res.Code()));
    return 1;
  }
  double Secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
          .count();
  std::printf("tl-floor: %zu bytes, %llu events, %llu values, %.3f s, %.1f "
              "MB/s\n",
              Bytes, (unsigned long long)H.Events,
              (unsigned long long)H.Values, Secs, double(Bytes) / 1e6 / Secs);
  return 0;
}
