//===- TailParser.h - Parse traceEvents on a second thread --*- C++ -*-===//
//
// The SAX parse alone is slower than the import target, so a large input
// is parsed by two threads: a plain file or buffer is read again by the tail
// thread; gzip input is first inflated into one growing buffer
// (GrowingInput) that both threads read. The calling thread parses from
// the start as always; a TailParser thread guesses an event boundary further
// in (a '}' , '{' '"' pattern: end of one object, start of the next) and
// parses from there, as if a '[' replaced that comma, into a compact tape of
// SAX tokens, complete events only.
//
// The guess is speculative: it may lie inside a string or inside args. The
// calling thread checks it: when its own parse ends an event of traceEvents
// exactly where the guess said one ends, the parser states of both threads
// are the same from there on, so it replays the tape through its handler (the
// same calls in the same order as its own parse would make: the IR, ids and
// warnings are identical) and then continues its own parse after the last
// replayed event (the closing ']' and the rest when the tail parse succeeded;
// the error, found again by the calling thread with its exact offset, when it
// failed). When the check never succeeds the tape is dropped.
//
// The tape of events beyond the calling thread's position is held until it
// gets there: at most 15 % of the input size (the tail thread then waits),
// less than the IR still to be built, so the import's peak stays at its end.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_TAILPARSER_H
#define TL_INPUT_TAILPARSER_H

#include "tl/Input/PageBuffer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tl {

struct GrowingInput;

/// Token tags of the tape. Tags >= 0x80 are small non-negative integers
/// (the low 7 bits are the value).
enum class TapeTag : uint8_t {
  Null,
  False,
  True,
  IntVar,  // zigzag varint
  Uint64,  // 8 bytes, above INT64_MAX
  Double,  // 8 bytes
  StrNew,  // varint slot, u8 length, bytes: the string, now in that slot
  StrRef,  // varint slot: the string in that slot
  StrLong, // u32 length + bytes (longer than TapeSlotMaxLen)
  KeyNew,
  KeyRef,
  KeyLong,
  StartObject,
  EndObject,
  StartArray,
  EndArray,
};

/// Both sides of the tape keep the same direct-mapped table of recent
/// strings (names, categories, args keys repeat a lot), so a repeated string
/// costs a slot number. The slot is a cheap hash of the text.
inline constexpr uint32_t TapeSlots = 4096;
inline constexpr uint32_t TapeSlotMaxLen = 255;
inline uint32_t tapeSlot(const char *S, uint32_t Len) {
  // Fixed-size loads only (a variable-size copy into a word is a store
  // forwarding stall): two overlapping words, or three bytes.
  uint64_t A = 0, B = 0;
  if (Len >= 8) {
    std::memcpy(&A, S, 8);
    std::memcpy(&B, S + Len - 8, 8);
  } else if (Len >= 4) {
    uint32_t X, Y;
    std::memcpy(&X, S, 4);
    std::memcpy(&Y, S + Len - 4, 4);
    A = X;
    B = Y;
  } else if (Len) {
    A = uint64_t(uint8_t(S[0])) | uint64_t(uint8_t(S[Len / 2])) << 8 |
        uint64_t(uint8_t(S[Len - 1])) << 16;
  }
  uint64_t H = (A ^ Len * 0x9E3779B97F4A7C15ull) * 0xC2B2AE3D27D4EB4Full;
  H = (H ^ B) * 0x9E3779B97F4A7C15ull;
  if (Len > 16) {
    uint64_t W;
    std::memcpy(&W, S + Len / 2 - 4, 8);
    H = (H ^ W) * 0xC2B2AE3D27D4EB4Full;
  }
  return uint32_t(H >> 52); // 12 bits: TapeSlots
}
/// memcmp(A, B, N) == 0 without a call for the short strings of the tape
/// slots (overlapping fixed-size loads).
inline bool tapeSameBytes(const char *A, const char *B, size_t N) {
  if (N > 16)
    return std::memcmp(A, B, N) == 0;
  uint64_t X, Y, Z, W;
  if (N >= 8) {
    std::memcpy(&X, A, 8);
    std::memcpy(&Y, B, 8);
    std::memcpy(&Z, A + N - 8, 8);
    std::memcpy(&W, B + N - 8, 8);
    return ((X ^ Y) | (Z ^ W)) == 0;
  }
  if (N >= 4) {
    uint32_t X4, Y4, Z4, W4;
    std::memcpy(&X4, A, 4);
    std::memcpy(&Y4, B, 4);
    std::memcpy(&Z4, A + N - 4, 4);
    std::memcpy(&W4, B + N - 4, 4);
    return ((X4 ^ Y4) | (Z4 ^ W4)) == 0;
  }
  for (size_t I = 0; I < N; ++I)
    if (A[I] != B[I])
      return false;
  return true;
}
static_assert(TapeSlots == 1u << 12, "tapeSlot returns 12 bits");

class LLVM_LIBRARY_VISIBILITY TailParser {
public:
  /// Parse Path (opened again), or else the growing buffer Grow, or else
  /// Mem, of Size bytes from the first event boundary at or after Hint.
  /// With AfterInflate, the tail thread starts on Grow only once it is
  /// complete (for when the inflater and this thread share the cores).
  TailParser(std::string Path, llvm::StringRef Mem, GrowingInput *Grow,
             uint64_t Size, uint64_t Hint, uint64_t MaxStringBytes,
             bool AfterInflate = false);
  ~TailParser();
  TailParser(const TailParser &) = delete;
  TailParser &operator=(const TailParser &) = delete;

  /// Offset of the '}' that ends the event before the split (~0 until the
  /// tail thread has found one, or when it found none). JsonReader calls
  /// EndObject before it takes the '}', so Tell() is this offset then.
  uint64_t splitEventEnd() const {
    return SplitEnd.load(std::memory_order_acquire);
  }
  /// Where the tail thread starts looking; its split is at or after this.
  uint64_t hint() const { return Hint; }
  /// splitEventEnd() once the tail thread has looked (at once, normally:
  /// the calling thread gets to the hint much later than the tail thread
  /// has scanned a few KB; waiting makes small inputs deterministic).
  uint64_t waitForSplit() {
    if (!Decided.load(std::memory_order_acquire)) {
      std::unique_lock<std::mutex> L(M);
      CV.wait(L, [&] { return Decided.load(std::memory_order_acquire); });
    }
    return splitEventEnd();
  }

  /// Feed every taped event to H (waiting for the tail thread as needed);
  /// ResumeAt is then the offset of the '}' ending the last replayed event
  /// (the split's when none). False when a handler call failed.
  template <typename Handler> bool replay(Handler &H, uint64_t &ResumeAt);

  /// Bytes of tape written per chunk before handing it over.
  static constexpr size_t ChunkBytes = 1 << 20;

  // Used by the tail thread's tape writer.
  struct Chunk {
    PageBuffer Bytes;
    uint64_t LastEventEnd = 0;
  };
  /// Hand a chunk to the replaying side; false when cancelled.
  bool publish(Chunk &C);
  PageBuffer takeBuffer();
  bool cancelled() const { return Cancel.load(std::memory_order_relaxed); }

private:
  void run();
  bool findSplit(uint64_t &Comma);
  /// Up to N bytes at Off (Got of them): in place where the input is in
  /// memory (the growing buffer, or Mem), else read into Dst.
  const char *viewAt(uint64_t Off, char *Dst, size_t N, size_t &Got);
  /// viewAt(), always into Dst; the bytes read.
  size_t readAt(uint64_t Off, char *Dst, size_t N);
  template <typename Handler>
  bool replayChunk(const char *P, const char *E, Handler &H);

  std::string Path;
  llvm::StringRef Mem;
  GrowingInput *Grow;
  int Fd = -1;
  uint64_t Size, Hint, MaxStringBytes;
  bool AfterInflate;
  size_t MaxBufferedBytes;
  std::atomic<uint64_t> SplitEnd{~uint64_t(0)};
  std::atomic<bool> Cancel{false};
  std::atomic<bool> Decided{false};

  std::mutex M;
  std::condition_variable CV;
  std::deque<Chunk> Full;
  std::vector<PageBuffer> Free;
  size_t Buffered = 0;
  bool Done = false;

  // Replaying side only: its copy of the tape's string slots.
  std::vector<std::string> Strings = std::vector<std::string>(TapeSlots);

  std::thread T;

  friend class TailStream;
  friend class TapeWriter;
};

template <typename Handler>
bool TailParser::replayChunk(const char *P, const char *E, Handler &H) {
  auto Varint = [&P]() {
    uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 7) {
      uint8_t B = uint8_t(*P++);
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
  };
  auto Fixed8 = [&P]() {
    uint64_t V;
    std::memcpy(&V, P, 8);
    P += 8;
    return V;
  };
  while (P < E) {
    uint8_t Tag = uint8_t(*P++);
    if (Tag & 0x80) {
      if (!H.Int64(int64_t(Tag & 0x7f)))
        return false;
      continue;
    }
    bool Ok = true;
    switch (TapeTag(Tag)) {
    case TapeTag::Null:
      Ok = H.Null();
      break;
    case TapeTag::False:
    case TapeTag::True:
      Ok = H.Bool(TapeTag(Tag) == TapeTag::True);
      break;
    case TapeTag::IntVar: {
      uint64_t Z = Varint();
      Ok = H.Int64(int64_t(Z >> 1) ^ -int64_t(Z & 1));
      break;
    }
    case TapeTag::Uint64:
      Ok = H.Uint64(Fixed8());
      break;
    case TapeTag::Double: {
      uint64_t Bits = Fixed8();
      double D;
      std::memcpy(&D, &Bits, 8);
      Ok = H.Double(D);
      break;
    }
    case TapeTag::StrNew:
    case TapeTag::KeyNew: {
      std::string &Slot = Strings[Varint() & (TapeSlots - 1)];
      uint8_t Len = uint8_t(*P++);
      Slot.assign(P, Len);
      P += Len;
      Ok = TapeTag(Tag) == TapeTag::StrNew ? H.String(Slot.data(), Len, true)
                                           : H.Key(Slot.data(), Len, true);
      break;
    }
    case TapeTag::StrRef:
    case TapeTag::KeyRef: {
      const std::string &S = Strings[Varint() & (TapeSlots - 1)];
      Ok = TapeTag(Tag) == TapeTag::StrRef
               ? H.String(S.data(), unsigned(S.size()), true)
               : H.Key(S.data(), unsigned(S.size()), true);
      break;
    }
    case TapeTag::StrLong:
    case TapeTag::KeyLong: {
      uint32_t Len;
      std::memcpy(&Len, P, 4);
      P += 4;
      Ok = TapeTag(Tag) == TapeTag::StrLong ? H.String(P, Len, true)
                                            : H.Key(P, Len, true);
      P += Len;
      break;
    }
    case TapeTag::StartObject:
      Ok = H.StartObject();
      break;
    case TapeTag::EndObject:
      Ok = H.EndObject(0);
      break;
    case TapeTag::StartArray:
      Ok = H.StartArray();
      break;
    case TapeTag::EndArray:
      Ok = H.EndArray(0);
      break;
    }
    if (!Ok)
      return false;
  }
  return true;
}

template <typename Handler>
bool TailParser::replay(Handler &H, uint64_t &ResumeAt) {
  ResumeAt = splitEventEnd();
  for (;;) {
    Chunk C;
    {
      std::unique_lock<std::mutex> L(M);
      CV.wait(L, [&] { return !Full.empty() || Done; });
      if (Full.empty())
        return true;
      C = std::move(Full.front());
      Full.pop_front();
      Buffered -= C.Bytes.capacity();
    }
    CV.notify_all();
    if (!replayChunk(C.Bytes.data(), C.Bytes.data() + C.Bytes.size(), H))
      return false;
    ResumeAt = C.LastEventEnd;
    // Keep a few buffers for the tail thread; the pages of the others go
    // back to the system (the tape shrinks as the IR grows).
    C.Bytes.clear();
    std::lock_guard<std::mutex> L(M);
    if (Free.size() < 4)
      Free.push_back(std::move(C.Bytes));
  }
}

} // namespace tl

#endif // TL_INPUT_TAILPARSER_H
