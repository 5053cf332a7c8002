//===- TailParser.cpp - Parse traceEvents on a second thread ---------===//
#include "tl/Input/TailParser.h"
#include "tl/Input/InputStream.h"
#include "tl/Input/JsonReader.h"

#include <cstdlib>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace tl;

namespace tl {

/// JsonReader source over [Split, Size) of the input, reading a '[' in
/// place of the comma at Split. tellAt() is the offset in the whole input.
class LLVM_LIBRARY_VISIBILITY TailStream {
public:
  TailStream(TailParser &P, uint64_t Split) : P(P), Buf(BufBytes) {
    Buf.data()[0] = '[';
    Base = Split;
    Cur = Buf.data();
    Len = 1 + P.readAt(Split + 1, Buf.data() + 1, BufBytes - 1);
  }
  const char *ptr() const { return Cur + Pos; }
  const char *end() const { return Cur + Len; }
  void setPtr(const char *At) { Pos = size_t(At - Cur); }
  uint64_t tellAt(const char *At) const { return Base + uint64_t(At - Cur); }
  uint64_t Tell() const { return Base + Pos; }
  bool next() {
    if (Stopped || P.cancelled())
      return false;
    Base += Len;
    Pos = 0;
    Cur = P.viewAt(Base, Buf.data(), BufBytes, Len);
    return Len != 0;
  }
  /// A string past the limit ends the tail parse (the calling thread
  /// reports it).
  void stackLimit(const char *) { stop(); }
  /// End the input here (string limit or cancellation).
  void stop() {
    Stopped = true;
    Pos = Len = 0;
  }

private:
  static constexpr size_t BufBytes = 1 << 18;
  TailParser &P;
  PageBuffer Buf;
  const char *Cur = nullptr; // the window: Buf, or the input in memory
  uint64_t Base = 0;
  size_t Pos = 0, Len = 0;
  bool Stopped = false;
};

/// SAX handler writing tokens to the tape; hands over a chunk at
/// an event end once it is ChunkBytes long.
class LLVM_LIBRARY_VISIBILITY TapeWriter {
public:
  TapeWriter(TailParser &P, TailStream &In) : P(P), In(In) {
    C.Bytes = P.takeBuffer();
  }

  bool Null() { return Depth > 1 && tag(TapeTag::Null); }
  bool Bool(bool B) {
    return Depth > 1 && tag(B ? TapeTag::True : TapeTag::False);
  }
  bool Int(int V) { return integer(V); }
  bool Uint(unsigned V) { return integer(V); }
  bool Int64(int64_t V) { return integer(V); }
  bool Uint64(uint64_t V) {
    if (V <= uint64_t(INT64_MAX))
      return integer(int64_t(V));
    if (Depth <= 1)
      return false;
    tag(TapeTag::Uint64);
    return fixed8(V);
  }
  bool Double(double D) {
    uint64_t Bits;
    std::memcpy(&Bits, &D, 8);
    if (Depth <= 1)
      return false;
    tag(TapeTag::Double);
    return fixed8(Bits);
  }
  bool RawNumber(const char *, rapidjson::SizeType, bool) { return true; }
  bool String(const char *S, rapidjson::SizeType Len, bool) {
    return text(S, Len, false);
  }
  bool Key(const char *S, rapidjson::SizeType Len, bool) {
    return text(S, Len, true);
  }
  bool StartObject() {
    ++Depth;
    return tag(TapeTag::StartObject);
  }
  bool EndObject(rapidjson::SizeType) {
    tag(TapeTag::EndObject);
    if (--Depth == 1)
      return endEvent();
    return true;
  }
  bool StartArray() {
    if (Depth++ == 0)
      return true; // the '[' standing in for the split comma
    if (Depth == 2)
      return false; // not an event object: leave it to the calling thread
    return tag(TapeTag::StartArray);
  }
  bool EndArray(rapidjson::SizeType) {
    if (--Depth == 0)
      return true; // the end of traceEvents
    return tag(TapeTag::EndArray);
  }

  /// Hand over the complete events not yet published.
  void finish() {
    C.Bytes.shrinkTo(Committed);
    if (!C.Bytes.empty())
      P.publish(C);
  }

private:
  bool tag(TapeTag T) {
    C.Bytes.push(char(T));
    return true;
  }
  bool fixed8(uint64_t V) {
    char B[8];
    std::memcpy(B, &V, 8);
    C.Bytes.append(B, 8);
    return true;
  }
  /// V as a varint at W (at most 10 bytes); the bytes written.
  static size_t putVarint(char *W, uint64_t V) {
    size_t N = 0;
    while (V >= 0x80) {
      W[N++] = char(uint8_t(V) | 0x80);
      V >>= 7;
    }
    W[N++] = char(V);
    return N;
  }
  bool integer(int64_t V) {
    if (Depth <= 1)
      return false; // a scalar entry of traceEvents
    if (V >= 0 && V < 0x80) {
      C.Bytes.push(char(0x80 | V));
      return true;
    }
    char *W = C.Bytes.room(11);
    W[0] = char(TapeTag::IntVar);
    C.Bytes.advance(1 + putVarint(W + 1, uint64_t(V) << 1 ^ uint64_t(V >> 63)));
    return true;
  }
  bool text(const char *S, uint32_t Len, bool IsKey) {
    if (Depth <= 1)
      return false;
    if (Len <= TapeSlotMaxLen) {
      uint32_t Slot = tapeSlot(S, Len);
      std::string &Cached = Slots[Slot];
      // Tag, slot (a varint of at most two bytes: 12 bits), length, text.
      char *W = C.Bytes.room(4 + Len);
      if (Cached.size() == Len && tapeSameBytes(Cached.data(), S, Len)) {
        W[0] = char(IsKey ? TapeTag::KeyRef : TapeTag::StrRef);
        C.Bytes.advance(1 + putVarint(W + 1, Slot));
        return true;
      }
      Cached.assign(S, Len);
      W[0] = char(IsKey ? TapeTag::KeyNew : TapeTag::StrNew);
      size_t N = 1 + putVarint(W + 1, Slot);
      W[N++] = char(uint8_t(Len));
      std::memcpy(W + N, S, Len);
      C.Bytes.advance(N + Len);
      return true;
    }
    tag(IsKey ? TapeTag::KeyLong : TapeTag::StrLong);
    char B[4];
    std::memcpy(B, &Len, 4);
    C.Bytes.append(B, 4);
    C.Bytes.append(S, Len);
    return true;
  }
  bool endEvent() {
    Committed = C.Bytes.size();
    C.LastEventEnd = In.Tell();
    if (Committed < TailParser::ChunkBytes)
      return true;
    if (!P.publish(C))
      return false;
    C.Bytes = P.takeBuffer();
    Committed = 0;
    return true;
  }

  TailParser &P;
  TailStream &In;
  TailParser::Chunk C;
  size_t Committed = 0;
  unsigned Depth = 0;
  std::vector<std::string> Slots = std::vector<std::string>(TapeSlots);
};

} // namespace tl

TailParser::TailParser(std::string PathIn, llvm::StringRef Mem,
                       GrowingInput *Grow, uint64_t Size, uint64_t Hint,
                       uint64_t MaxStringBytes, bool AfterInflate)
    : Path(std::move(PathIn)), Mem(Mem), Grow(Grow), Size(Size), Hint(Hint),
      MaxStringBytes(MaxStringBytes), AfterInflate(AfterInflate),
      MaxBufferedBytes(size_t(std::max<uint64_t>(Size / 20 * 3, 8u << 20))) {
  if (!Path.empty())
    Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Path.empty() || Fd >= 0)
    T = std::thread([this] { run(); });
  else
    Decided.store(true);
}

TailParser::~TailParser() {
  Cancel.store(true);
  { std::lock_guard<std::mutex> L(M); }
  CV.notify_all();
  if (Grow) { // the tail thread may wait for inflated bytes
    { std::lock_guard<std::mutex> L(Grow->M); }
    Grow->CV.notify_all();
  }
  if (T.joinable())
    T.join();
  if (Fd >= 0)
    ::close(Fd);
}

const char *TailParser::viewAt(uint64_t Off, char *Dst, size_t N,
                              size_t &Got) {
  if (Grow) {
    Got = size_t(Grow->waitFor(Off, N, &Cancel));
    return Grow->Data + Off;
  }
  Got = Off < Size ? size_t(std::min<uint64_t>(N, Size - Off)) : 0;
  if (Fd < 0)
    return Mem.data() + std::min<uint64_t>(Off, Mem.size());
  size_t Read = 0;
  while (Read < Got) {
    ssize_t R = ::pread(Fd, Dst + Read, Got - Read, off_t(Off + Read));
    if (R <= 0)
      break; // a read error ends the tail; the calling thread reports it
    Read += size_t(R);
  }
  Got = Read;
  return Dst;
}

size_t TailParser::readAt(uint64_t Off, char *Dst, size_t N) {
  size_t Got;
  const char *At = viewAt(Off, Dst, N, Got);
  if (At != Dst)
    std::memcpy(Dst, At, Got);
  return Got;
}

static bool isJsonSpace(char C) {
  return C == ' ' || C == '\n' || C == '\r' || C == '\t';
}

bool TailParser::findSplit(uint64_t &Comma) {
  constexpr size_t Window = 1 << 20, Slack = 256;
  constexpr unsigned MaxWindows = 16;
  PageBuffer Mapped(Window + Slack);
  const char *Buf = Mapped.data();
  uint64_t Off = Hint;
  for (unsigned W = 0; W < MaxWindows && Off < Size && !cancelled(); ++W) {
    size_t N = readAt(Off, Mapped.data(), Window + Slack);
    size_t Scan = std::min(N, Window);
    for (size_t I = 0; I < Scan; ++I) {
      if (Buf[I] != '}')
        continue;
      size_t J = I + 1;
      while (J < N && isJsonSpace(Buf[J]))
        ++J;
      if (J >= N || Buf[J] != ',')
        continue;
      size_t K = J + 1;
      while (K < N && isJsonSpace(Buf[K]))
        ++K;
      if (K >= N || Buf[K] != '{')
        continue;
      ++K;
      while (K < N && isJsonSpace(Buf[K]))
        ++K;
      if (K >= N || Buf[K] != '"')
        continue;
      Comma = Off + J;
      SplitEnd.store(Off + I, std::memory_order_release);
      return true;
    }
    Off += Scan;
  }
  return false;
}

PageBuffer TailParser::takeBuffer() {
  PageBuffer B;
  {
    std::lock_guard<std::mutex> L(M);
    if (!Free.empty()) {
      B = std::move(Free.back());
      Free.pop_back();
    }
  }
  B.reserve(ChunkBytes + (ChunkBytes >> 2));
  return B;
}

bool TailParser::publish(Chunk &C) {
  std::unique_lock<std::mutex> L(M);
  size_t Bytes = C.Bytes.capacity();
  CV.wait(L, [&] {
    return cancelled() || Buffered == 0 || Buffered + Bytes <= MaxBufferedBytes;
  });
  if (cancelled())
    return false;
  Buffered += Bytes;
  Full.push_back(std::move(C));
  L.unlock();
  CV.notify_all();
  return true;
}

void TailParser::run() {
  uint64_t Comma;
  if (Grow && AfterInflate) // until the inflater is done (or we are cancelled)
    Grow->waitFor(UINT64_MAX / 2, 1, &Cancel);
  bool Found = findSplit(Comma);
  {
    std::lock_guard<std::mutex> L(M);
    Decided.store(true, std::memory_order_release);
  }
  CV.notify_all();
  if (Found) {
    TailStream In(*this, Comma);
    TapeWriter W(*this, In);
    // RapidJSON's parser stack, capped like the importer's.
    JsonStackModel Stack;
    Stack.Limit = MaxStringBytes;
    JsonReader<TailStream, TapeWriter> R(In, W, Stack);
    R.parse</*StopWhenDone=*/true>();
    if (!cancelled())
      W.finish();
  }
  {
    std::lock_guard<std::mutex> L(M);
    Done = true;
  }
  CV.notify_all();
}
