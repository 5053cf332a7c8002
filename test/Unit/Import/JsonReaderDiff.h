//===- JsonReaderDiff.h - Run JsonReader and RapidJSON side by side -*- C++ -*-===//
//
// Shared by JsonReaderTest and the importer fuzzer: parse a document with
// RapidJSON's reader (the importer's former flags and capped stack) and
// with JsonReader (over InputStream, or over chunks of N bytes), recording
// every handler call with the stream offset at the call.
//
//===----------------------------------------------------------------------===//
#ifndef TL_TEST_UNIT_IMPORT_JSONREADERDIFF_H
#define TL_TEST_UNIT_IMPORT_JSONREADERDIFF_H

#include "tl/Input/InputSource.h"
#include "tl/Input/InputStream.h"
#include "tl/Input/JsonReader.h"

#include <rapidjson/reader.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace tl::test {
// (Internal linkage: InputStream is hidden in libTLCore.)
namespace {

/// Every call as text, with the stream offset at the call; fails the
/// FailAt-th call (0 = never).
class Recorder {
public:
  std::function<uint64_t()> Tell;
  std::vector<std::string> Calls;
  size_t FailAt = 0;

  bool Null() { return rec("null"); }
  bool Bool(bool B) { return rec(B ? "true" : "false"); }
  bool Int(int V) { return rec("int " + std::to_string(V)); }
  bool Uint(unsigned V) { return rec("uint " + std::to_string(V)); }
  bool Int64(int64_t V) { return rec("int64 " + std::to_string(V)); }
  bool Uint64(uint64_t V) { return rec("uint64 " + std::to_string(V)); }
  bool Double(double D) {
    uint64_t Bits;
    std::memcpy(&Bits, &D, 8);
    char B[64];
    std::snprintf(B, sizeof(B), "double %.17g %016" PRIx64, D, Bits);
    return rec(B);
  }
  bool RawNumber(const char *, rapidjson::SizeType, bool) {
    return rec("raw");
  }
  bool String(const char *S, rapidjson::SizeType L, bool) {
    return rec("string " + hex(S, L));
  }
  bool Key(const char *S, rapidjson::SizeType L, bool) {
    return rec("key " + hex(S, L));
  }
  bool StartObject() { return rec("{"); }
  bool EndObject(rapidjson::SizeType N) { return rec("} " + std::to_string(N)); }
  bool StartArray() { return rec("["); }
  bool EndArray(rapidjson::SizeType N) { return rec("] " + std::to_string(N)); }

private:
  static std::string hex(const char *S, size_t L) {
    std::string Out = std::to_string(L) + ":";
    for (size_t I = 0; I < L; ++I) {
      unsigned char C = static_cast<unsigned char>(S[I]);
      if (C >= 0x20 && C < 0x7f && C != '%') {
        Out += char(C);
      } else {
        char B[8];
        std::snprintf(B, sizeof(B), "%%%02x", C);
        Out += B;
      }
    }
    return Out;
  }
  bool rec(std::string S) {
    Calls.push_back(S + " @" + std::to_string(Tell()));
    return Calls.size() != FailAt;
  }
};

/// The importer's former RapidJSON stack allocator: capped, aborting the
/// stream at the cap.
class CappedAllocator {
public:
  [[maybe_unused]] static const bool kNeedFree = true;
  CappedAllocator() = default;
  CappedAllocator(InputStream &In, uint64_t Limit) : In(&In), Limit(Limit) {}
  void *Malloc(size_t Size) { return Realloc(nullptr, 0, Size); }
  void *Realloc(void *Orig, size_t, size_t NewSize) {
    if (In && Limit && NewSize > Limit && !In->hasError())
      In->abort("expected strings shorter than " + std::to_string(Limit) +
                " bytes and shallower nesting (string limit)");
    void *P = std::realloc(Orig, NewSize ? NewSize : 1);
    if (!P)
      std::abort();
    Bytes = NewSize;
    return P;
  }
  static void Free(void *P) { std::free(P); }
  uint64_t Bytes = 0;

private:
  InputStream *In = nullptr;
  uint64_t Limit = 0;
};

/// A source handing out the document N bytes at a time, each chunk in a
/// heap block of its own size (so reading past it shows under ASan).
class TinySource {
public:
  TinySource(const std::string &Doc, size_t N) : Doc(Doc), N(N) { load(); }
  const char *ptr() const { return Buf.data() + Pos; }
  const char *end() const { return Buf.data() + Len; }
  void setPtr(const char *P) { Pos = size_t(P - Buf.data()); }
  uint64_t tellAt(const char *P) const { return Base + uint64_t(P - Buf.data()); }
  bool next() {
    if (Stopped)
      return false;
    Base += Len;
    load();
    return Len != 0;
  }
  void stackLimit(const char *At) {
    if (Stopped)
      return;
    LimitAt = tellAt(At);
    Stopped = true;
    Pos = Len = 0;
  }
  uint64_t LimitAt = ~uint64_t(0);

private:
  void load() {
    Pos = 0;
    Len = std::min<uint64_t>(N, Doc.size() - Base);
    Buf.assign(Doc.data() + Base, Doc.data() + Base + Len);
  }
  const std::string &Doc;
  size_t N;
  std::vector<char> Buf;
  uint64_t Base = 0;
  size_t Pos = 0, Len = 0;
  bool Stopped = false;
};

/// What a parse yields.
struct Outcome {
  std::vector<std::string> Calls;
  int Code = 0;
  uint64_t Offset = 0;
  bool Limited = false; // the string limit ended the input
  uint64_t LimitAt = 0;
  uint64_t StackBytes = 0;
};

template <bool StopWhenDone>
Outcome rapid(const std::string &Doc, uint64_t Limit, size_t FailAt) {
  Outcome O;
  InputStream In(nullptr, Doc, 0, nullptr, false);
  if (!In.start()) { // (bad gzip: no parse)
    O.Code = -1;
    return O;
  }
  CappedAllocator A(In, Limit);
  Recorder R;
  R.FailAt = FailAt;
  R.Tell = [&] { return uint64_t(In.Tell()); };
  rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>,
                           CappedAllocator>
      Reader(&A);
  constexpr unsigned Flags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag |
      rapidjson::kParseValidateEncodingFlag |
      (StopWhenDone ? rapidjson::kParseStopWhenDoneFlag : 0);
  rapidjson::ParseResult Res = Reader.Parse<Flags>(In, R);
  O.Calls = R.Calls;
  O.Code = Res.Code();
  O.Offset = Res.Offset();
  O.Limited = In.hasError();
  O.LimitAt = In.errorOffset();
  O.StackBytes = A.Bytes;
  return O;
}

template <bool StopWhenDone>
Outcome ours(const std::string &Doc, uint64_t Limit, size_t FailAt) {
  Outcome O;
  InputStream In(nullptr, Doc, 0, nullptr, false);
  if (!In.start()) { // (bad gzip: no parse)
    O.Code = -1;
    return O;
  }
  InputSource Src(In, Limit);
  JsonStackModel Stack;
  Stack.Limit = Limit;
  Recorder R;
  R.FailAt = FailAt;
  R.Tell = [&] { return In.Tell(); };
  JsonReader<InputSource, Recorder> Reader(Src, R, Stack);
  JsonParseResult Res = Reader.template parse<StopWhenDone>();
  O.Calls = R.Calls;
  O.Code = Res.Code;
  O.Offset = Res.Offset;
  O.Limited = In.hasError();
  O.LimitAt = In.errorOffset();
  O.StackBytes = Stack.Cap;
  return O;
}

template <bool StopWhenDone>
Outcome oursTiny(const std::string &Doc, size_t N, uint64_t Limit,
                 size_t FailAt) {
  Outcome O;
  TinySource Src(Doc, N);
  JsonStackModel Stack;
  Stack.Limit = Limit;
  Recorder R;
  R.FailAt = FailAt;
  R.Tell = [&] { return Src.tellAt(Src.ptr()); };
  JsonReader<TinySource, Recorder> Reader(Src, R, Stack);
  JsonParseResult Res = Reader.template parse<StopWhenDone>();
  O.Calls = R.Calls;
  O.Code = Res.Code;
  O.Offset = Res.Offset;
  O.Limited = Src.LimitAt != ~uint64_t(0);
  O.LimitAt = O.Limited ? Src.LimitAt : 0;
  O.StackBytes = Stack.Cap;
  return O;
}

/// Same outcome. After the string limit the input ends: RapidJSON may make
/// calls past that point and then fails somehow; only the limit's offset
/// and the calls before it count (ours stop there).
bool sameOutcome(const Outcome &Ref, const Outcome &Got) {
  if (Ref.Limited != Got.Limited)
    return false;
  if (Ref.Limited)
    return Ref.LimitAt == Got.LimitAt &&
           Got.Calls.size() <= Ref.Calls.size() &&
           std::equal(Got.Calls.begin(), Got.Calls.end(), Ref.Calls.begin());
  return Ref.Calls == Got.Calls && Ref.Code == Got.Code &&
         Ref.Offset == Got.Offset && Ref.StackBytes == Got.StackBytes;
}

} // namespace
} // namespace tl::test

#endif // TL_TEST_UNIT_IMPORT_JSONREADERDIFF_H
