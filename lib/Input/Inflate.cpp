//===- Inflate.cpp - Fast whole-buffer gzip/DEFLATE decoder ---------------===//
//
// Layout follows libdeflate's decompressor: a 64-bit bit buffer refilled by
// one unaligned word load, Huffman tables whose entries carry the decoded
// value (literal byte, length or distance base, extra bit count) so one
// lookup decodes one symbol, a fast loop without bounds checks while enough
// input and output remain, and a checked loop near the ends. The checks that
// make a stream invalid are zlib's (inflate.c, inftrees.c), so that both
// decoders accept the same streams.
//
//===----------------------------------------------------------------------===//
#include "tl/Input/Inflate.h"

#include "tl/Input/Crc32.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <sys/mman.h>
#include <unistd.h>

using namespace tl;

namespace {

// Table entry: [3:0] code length, [7:4] extra bits (subtable pointer: the
// subtable's index bits), [15:8] flags, [31:16] value (literal, length or
// distance base, subtable start).
constexpr uint32_t Literal = 1u << 15;
constexpr uint32_t Exceptional = 1u << 14; // alone: an invalid code
constexpr uint32_t Subtable = 1u << 13;
constexpr uint32_t EndOfBlock = 1u << 12;

constexpr unsigned LitLenBits = 11, DistBits = 8, CodeLenBits = 7;
// Main table plus at most one subtable of at most 2^(15 - bits) entries per
// symbol coded longer than the main table.
constexpr unsigned LitLenSize = (1u << LitLenBits) + 288 * (1u << 4);
constexpr unsigned DistSize = (1u << DistBits) + 32 * (1u << 7);
constexpr unsigned CodeLenSize = 1u << CodeLenBits;

constexpr uint16_t LengthBase[29] = {
    3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
    31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t LengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                     1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                     4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t DistBase[30] = {
    1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
    33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
    1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr uint8_t DistExtra[30] = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                   4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                   9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
constexpr uint8_t CodeLenOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                      11, 4,  12, 3, 13, 2, 14, 1, 15};

enum class TableKind { CodeLens, LitLens, Dists };

uint32_t symbolEntry(TableKind K, unsigned Sym) {
  switch (K) {
  case TableKind::CodeLens:
    return Sym << 16;
  case TableKind::LitLens:
    if (Sym < 256)
      return Literal | Sym << 16;
    if (Sym == 256)
      return Exceptional | EndOfBlock;
    if (Sym < 286)
      return uint32_t(LengthBase[Sym - 257]) << 16 |
             uint32_t(LengthExtra[Sym - 257]) << 4;
    return Exceptional; // 286, 287: zlib's "invalid literal/length code"
  case TableKind::Dists:
    if (Sym < 30)
      return uint32_t(DistBase[Sym]) << 16 | uint32_t(DistExtra[Sym]) << 4;
    return Exceptional; // 30, 31: "invalid distance code"
  }
  return Exceptional;
}

unsigned reverseBits(unsigned Code, unsigned Len) {
  unsigned R = 0;
  for (unsigned I = 0; I < Len; ++I, Code >>= 1)
    R = R << 1 | (Code & 1);
  return R;
}

/// Build the decode table for code lengths Lens[0, N) with a main table of
/// Bits index bits. False when zlib's inflate_table() rejects the lengths:
/// over-subscribed, or incomplete unless a lone length-1 code of a
/// literal/length or distance code (no code at all is accepted for those too:
/// every entry is invalid then).
bool buildTable(uint32_t *Table, unsigned Bits, const uint8_t *Lens, unsigned N,
                TableKind K) {
  unsigned Count[16] = {0};
  for (unsigned S = 0; S < N; ++S)
    ++Count[Lens[S]];
  Count[0] = 0;
  unsigned Max = 15;
  while (Max && !Count[Max])
    --Max;
  unsigned MainSize = 1u << Bits;
  std::fill(Table, Table + MainSize, Exceptional);
  if (!Max)
    return K != TableKind::CodeLens;
  int Left = 1;
  for (unsigned L = 1; L <= 15; ++L) {
    Left = 2 * Left - int(Count[L]);
    if (Left < 0)
      return false;
  }
  if (Left > 0 && (K == TableKind::CodeLens || Max != 1))
    return false;
  unsigned Next[16];
  unsigned Code = 0;
  Next[0] = 0;
  for (unsigned L = 1; L <= 15; ++L) {
    Code = (Code + Count[L - 1]) << 1;
    Next[L] = Code;
  }
  if (Max > Bits) {
    // Subtable index bits per main-table prefix: the longest code under it.
    uint8_t SubBits[1u << LitLenBits];
    std::memset(SubBits, 0, MainSize);
    unsigned NextCopy[16];
    std::memcpy(NextCopy, Next, sizeof(Next));
    for (unsigned S = 0; S < N; ++S) {
      unsigned L = Lens[S];
      if (L <= Bits)
        continue;
      unsigned P = reverseBits(NextCopy[L]++, L) & (MainSize - 1);
      SubBits[P] = uint8_t(std::max<unsigned>(SubBits[P], L - Bits));
    }
    unsigned End = MainSize;
    for (unsigned P = 0; P < MainSize; ++P) {
      if (!SubBits[P])
        continue;
      Table[P] = Exceptional | Subtable | uint32_t(SubBits[P]) << 4 |
                 uint32_t(End) << 16;
      std::fill(Table + End, Table + End + (1u << SubBits[P]), Exceptional);
      End += 1u << SubBits[P];
    }
  }
  for (unsigned S = 0; S < N; ++S) {
    unsigned L = Lens[S];
    if (!L)
      continue;
    unsigned Rev = reverseBits(Next[L]++, L);
    uint32_t E = symbolEntry(K, S) | L;
    if (L <= Bits) {
      for (unsigned I = Rev; I < MainSize; I += 1u << L)
        Table[I] = E;
      continue;
    }
    uint32_t Ptr = Table[Rev & (MainSize - 1)];
    unsigned Start = Ptr >> 16, Size = 1u << ((Ptr >> 4) & 15);
    for (unsigned I = Rev >> Bits; I < Size; I += 1u << (L - Bits))
      Table[Start + I] = E;
  }
  return true;
}

LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t load64(const uint8_t *P) {
  uint64_t V;
  std::memcpy(&V, P, 8);
  return V; // little-endian hosts only (x86-64, AArch64)
}

/// Copy Len bytes from Dist bytes back; may write up to 31 bytes past
/// Out + Len (the fast loop keeps that much room).
LLVM_ATTRIBUTE_ALWAYS_INLINE void copyMatch(uint8_t *Out, size_t Dist,
                                            unsigned Len) {
  const uint8_t *Src = Out - Dist;
  uint8_t *End = Out + Len;
  if (Dist >= 32) {
    do {
      std::memcpy(Out, Src, 16);
      std::memcpy(Out + 16, Src + 16, 16);
      Out += 32;
      Src += 32;
    } while (Out < End);
  } else if (Dist >= 16) {
    do {
      std::memcpy(Out, Src, 16);
      Out += 16;
      Src += 16;
    } while (Out < End);
  } else if (Dist >= 8) {
    do {
      std::memcpy(Out, Src, 8);
      Out += 8;
      Src += 8;
    } while (Out < End);
  } else if (Dist == 1) {
    uint64_t V = 0x0101010101010101ull * *Src;
    do {
      std::memcpy(Out, &V, 8);
      std::memcpy(Out + 8, &V, 8);
      Out += 16;
    } while (Out < End);
  } else {
    // Distance 2..7: each 8-byte copy gets its first Dist bytes right.
    do {
      uint64_t V;
      std::memcpy(&V, Src, 8);
      std::memcpy(Out, &V, 8);
      Out += Dist;
      Src += Dist;
    } while (Out < End);
  }
}

struct Decoder {
  const uint8_t *InBegin, *In, *InEnd;
  uint8_t *OutBegin, *Out, *OutEnd;
  uint64_t OutBase = 0; // output offset of OutBegin (sliding buffer)
  uint64_t MemberBase = 0;
  uint64_t BitBuf = 0;
  unsigned BitsLeft = 0;
  unsigned Overrun = 0; // zero bytes made up past InEnd (bad input only)
  uint8_t *MemberStart = nullptr;
  uint8_t *CrcPos = nullptr;
  uint32_t Crc = 0;
  uint8_t *NextMark;
  size_t Step;
  InflateSink Sink;
  bool Sliding = false;
  // Input pages below this are dropped (a file mapping read once).
  const uint8_t *Released = nullptr;
  bool ReleaseInput = false;
  // zlib fed RawChunk bytes at a time: the next boundary (in bits) and the
  // output offset where zlib would stop before each (Breaks).
  uint64_t NextRawBits = UINT64_MAX;
  uint64_t RawChunkBits = 0;
  std::vector<ZlibCuts::Break> *Breaks = nullptr;
  bool QDone = false; // the pending boundary's Q is recorded (last entry)
  const uint32_t *LitLen = nullptr, *Dist = nullptr;
  bool HaveFixed = false;
  uint8_t Lens[288 + 32];
  uint32_t DynLitLen[LitLenSize], DynDist[DistSize];
  uint32_t FixedLitLen[LitLenSize], FixedDist[DistSize];
  uint32_t CodeLen[CodeLenSize];

  enum Result { Ok, Fail, Cancel, Pause };
  // Where resume() goes on.
  enum class Stage { Header, Block, Huffman, Trailer, End };
  Stage At = Stage::Header;
  bool Final = false;
  bool Started = false;
  bool Pull = false; // pause at NextMark instead of calling Sink

  // Bits above BitsLeft are zero or the input's own next bits, so OR-ing a
  // word over them again is harmless.
  LLVM_ATTRIBUTE_ALWAYS_INLINE void refillFast() {
    BitBuf |= load64(In) << BitsLeft;
    In += (63 - BitsLeft) >> 3;
    BitsLeft |= 56;
  }
  void refill() {
    if (InEnd - In >= 8) {
      refillFast();
      return;
    }
    while (BitsLeft < 56) {
      if (In < InEnd)
        BitBuf |= uint64_t(*In++) << BitsLeft;
      else if (Overrun < 8)
        ++Overrun; // a zero byte; using it means a truncated stream
      else
        return;
      BitsLeft += 8;
    }
  }
  bool need(unsigned N) {
    if (BitsLeft < N)
      refill();
    return BitsLeft >= N;
  }
  uint32_t bits(unsigned N) const {
    return uint32_t(BitBuf & ((uint64_t(1) << N) - 1));
  }
  void drop(unsigned N) {
    BitBuf >>= N;
    BitsLeft -= N;
  }
  /// Go to the next byte boundary and give back the whole bytes still in
  /// the bit buffer; false if made-up bytes past the input were used.
  bool alignToInput() {
    drop(BitsLeft & 7);
    unsigned Bytes = BitsLeft >> 3;
    if (Overrun > Bytes)
      return false;
    In -= Bytes - Overrun;
    BitBuf = 0;
    BitsLeft = 0;
    Overrun = 0;
    return true;
  }

  uint64_t total(const uint8_t *P) const {
    return OutBase + uint64_t(P - OutBegin);
  }
  uint64_t bitPos() const {
    return uint64_t(In - InBegin + Overrun) * 8 - BitsLeft;
  }
  /// An element (symbol, header, trailer) ends at EndBits: each raw-chunk
  /// boundary it passes gets the output offset before it.
  void crossed(uint64_t EndBits, uint64_t OutBefore) {
    while (EndBits > NextRawBits - 8) {
      if (!QDone) {
        // A member's first elements are not read by a call that ends at
        // its start (zlib stops at the previous member's end).
        Breaks->push_back(
            {UINT64_MAX, OutBefore + (OutBefore == MemberBase), true, false});
        QDone = true;
      }
      if (EndBits <= NextRawBits)
        break;
      Breaks->back().Out = OutBefore;
      nextRaw();
    }
  }
  void nextRaw() {
    NextRawBits += RawChunkBits;
    if (NextRawBits >= uint64_t(InEnd - InBegin) * 8)
      NextRawBits = UINT64_MAX;
    QDone = false;
  }

  bool publish(bool Last = false);
  void releaseInput();
  void slide(uint64_t Keep);
  Result resume();

  Result gunzip();
  Result memberHeader();
  Result memberTrailer();
  Result blockHeader();
  Result storedBlock();
  bool dynamicTables();
  void fixedTables();
  Result huffmanBlock();
  int fastLoop(const uint8_t *InFast, uint8_t *OutFast);
};

} // namespace

void Decoder::fixedTables() {
  if (!HaveFixed) {
    uint8_t L[288];
    std::fill(L, L + 144, 8);
    std::fill(L + 144, L + 256, 9);
    std::fill(L + 256, L + 280, 7);
    std::fill(L + 280, L + 288, 8);
    buildTable(FixedLitLen, LitLenBits, L, 288, TableKind::LitLens);
    std::fill(L, L + 32, 5);
    buildTable(FixedDist, DistBits, L, 32, TableKind::Dists);
    HaveFixed = true;
  }
  LitLen = FixedLitLen;
  Dist = FixedDist;
}

bool Decoder::dynamicTables() {
  if (!need(14))
    return false;
  unsigned NLen = bits(5) + 257, NDist = bits(10) >> 5, NCode = 0;
  NDist += 1;
  NCode = (bits(14) >> 10) + 4;
  drop(14);
  if (NLen > 286 || NDist > 30)
    return false; // "too many length or distance symbols"
  uint8_t CL[19] = {0};
  for (unsigned I = 0; I < NCode; ++I) {
    if (!need(3))
      return false;
    CL[CodeLenOrder[I]] = uint8_t(bits(3));
    drop(3);
  }
  if (!buildTable(CodeLen, CodeLenBits, CL, 19, TableKind::CodeLens))
    return false; // "invalid code lengths set"
  unsigned Total = NLen + NDist;
  for (unsigned I = 0; I < Total;) {
    if (!need(14))
      return false;
    uint32_t E = CodeLen[bits(CodeLenBits)];
    drop(E & 15);
    unsigned Sym = E >> 16;
    if (Sym < 16) {
      Lens[I++] = uint8_t(Sym);
      continue;
    }
    uint8_t Val = 0;
    unsigned Rep;
    if (Sym == 16) {
      if (I == 0)
        return false; // "invalid bit length repeat"
      Val = Lens[I - 1];
      Rep = 3 + bits(2);
      drop(2);
    } else if (Sym == 17) {
      Rep = 3 + bits(3);
      drop(3);
    } else {
      Rep = 11 + bits(7);
      drop(7);
    }
    if (I + Rep > Total)
      return false; // "invalid bit length repeat"
    std::memset(Lens + I, Val, Rep);
    I += Rep;
  }
  if (!Lens[256])
    return false; // "invalid code -- missing end-of-block"
  if (!buildTable(DynLitLen, LitLenBits, Lens, NLen, TableKind::LitLens) ||
      !buildTable(DynDist, DistBits, Lens + NLen, NDist, TableKind::Dists))
    return false;
  LitLen = DynLitLen;
  Dist = DynDist;
  return true;
}

Decoder::Result Decoder::storedBlock() {
  if (!alignToInput() || InEnd - In < 4)
    return Fail;
  unsigned Len = unsigned(In[0]) | unsigned(In[1]) << 8;
  unsigned NLen = unsigned(In[2]) | unsigned(In[3]) << 8;
  if (Len != (~NLen & 0xffff))
    return Fail; // "invalid stored block lengths"
  In += 4;
  if (size_t(InEnd - In) < Len || size_t(OutEnd - Out) < Len)
    return Fail;
  // zlib copies stored bytes as far as its input goes.
  uint64_t Data = uint64_t(In - InBegin);
  crossed(Data * 8, total(Out));
  while (NextRawBits != UINT64_MAX) {
    uint64_t Last = NextRawBits / 8 - 1; // the raw chunk's last byte
    if (!QDone && Last < Data + Len) {
      Breaks->push_back(
          {UINT64_MAX, total(Out) + (Last - Data) + 1, true, false});
      QDone = true;
    }
    if (NextRawBits / 8 >= Data + Len)
      break;
    Breaks->back().Out = total(Out) + (NextRawBits / 8 - Data);
    nextRaw();
  }
  std::memcpy(Out, In, Len);
  In += Len;
  Out += Len;
  return Ok;
}

#define TL_LOOKUP(E, T, B)                                                     \
  do {                                                                         \
    E = T[BitBuf & ((1u << (B)) - 1)];                                         \
    if (E & Subtable)                                                          \
      E = T[(E >> 16) +                                                        \
            ((BitBuf >> (B)) & ((uint64_t(1) << ((E >> 4) & 15)) - 1))];       \
  } while (0)

// The hot loop, on local copies of the decoder state: stores through Out
// (bytes) could alias the members, so the compiler would reload them.
// 0 at a bound, 1 after the end-of-block code, -1 on a bad code.
int Decoder::fastLoop(const uint8_t *InFast, uint8_t *OutFast) {
  const uint8_t *I = In;
  uint8_t *O = Out;
  uint64_t BB = BitBuf;
  unsigned BL = BitsLeft;
  const uint32_t *const LT = LitLen, *const DT = Dist;
  const uint8_t *const MS = MemberStart;
  int R = 0;
#define TL_REFILL()                                                            \
  do {                                                                         \
    BB |= load64(I) << BL;                                                     \
    I += (63 - BL) >> 3;                                                       \
    BL |= 56;                                                                  \
  } while (0)
#define TL_DROP(N)                                                             \
  do {                                                                         \
    BB >>= (N);                                                                \
    BL -= (N);                                                                 \
  } while (0)
#define TL_LOOK(E, T, B)                                                       \
  do {                                                                         \
    E = T[BB & ((1u << (B)) - 1)];                                             \
    if (E & Subtable)                                                          \
      E = T[(E >> 16) +                                                        \
            ((BB >> (B)) & ((uint64_t(1) << ((E >> 4) & 15)) - 1))];           \
  } while (0)
  while (I < InFast && O < OutFast) {
    TL_REFILL();
    uint32_t E;
    TL_LOOK(E, LT, LitLenBits);
    if (E & Literal) {
      // 56 bits hold three literal codes (15 bits each at most).
      TL_DROP(E & 15);
      *O++ = uint8_t(E >> 16);
      TL_LOOK(E, LT, LitLenBits);
      if (E & Literal) {
        TL_DROP(E & 15);
        *O++ = uint8_t(E >> 16);
        TL_LOOK(E, LT, LitLenBits);
        if (E & Literal) {
          TL_DROP(E & 15);
          *O++ = uint8_t(E >> 16);
          continue;
        }
      }
      TL_REFILL(); // E stays valid: refills only add bits above
    }
    if (E & Exceptional) {
      if (E & EndOfBlock) {
        TL_DROP(E & 15);
        R = 1;
      } else {
        R = -1;
      }
      break;
    }
    // Length (15 + 5 bits) and distance (15 + 13 bits) fit in 56 bits.
    TL_DROP(E & 15);
    unsigned LenExtra = (E >> 4) & 15;
    unsigned Len = (E >> 16) + unsigned(BB & ((uint64_t(1) << LenExtra) - 1));
    TL_DROP(LenExtra);
    uint32_t D;
    TL_LOOK(D, DT, DistBits);
    if (D & Exceptional) {
      R = -1;
      break;
    }
    TL_DROP(D & 15);
    unsigned DExtra = (D >> 4) & 15;
    size_t Distance = (D >> 16) + size_t(BB & ((uint64_t(1) << DExtra) - 1));
    TL_DROP(DExtra);
    if (Distance > size_t(O - MS)) {
      R = -1; // "invalid distance too far back"
      break;
    }
    copyMatch(O, Distance, Len);
    O += Len;
  }
#undef TL_REFILL
#undef TL_DROP
#undef TL_LOOK
  In = I;
  Out = O;
  BitBuf = BB;
  BitsLeft = BL;
  return R;
}

Decoder::Result Decoder::huffmanBlock() {
  for (;;) {
    // The fast loop reads at most 2 words (each from In + 7 at most) and
    // writes at most 258 + 31 bytes per iteration; it stops short of the
    // next raw-chunk boundary, where symbols are decoded one by one.
    size_t InLim =
        size_t(std::min<uint64_t>(uint64_t(InEnd - InBegin), NextRawBits / 8));
    const uint8_t *InFast =
        InLim >= size_t(In - InBegin) + 16 ? InBegin + InLim - 16 : In;
    uint8_t *OutFast = OutEnd - Out >= 300 ? OutEnd - 300 : Out;
    OutFast = std::min(OutFast, NextMark);
    int R = fastLoop(InFast, OutFast);
    if (R > 0)
      return Ok;
    if (R < 0)
      return Fail;
    if (Out >= NextMark) {
      if (Overrun) {
        NextMark = Out + Step;
      } else if (Pull) {
        Crc = crc32Update(Crc, CrcPos, size_t(Out - CrcPos));
        CrcPos = Out;
        return Pause;
      } else if (!publish()) {
        return Cancel;
      }
      continue;
    }
    // One symbol with every check (near the end of the input or output).
    if (!need(48))
      return Fail;
    uint32_t E;
    TL_LOOKUP(E, LitLen, LitLenBits);
    if (E & Literal) {
      if (Out == OutEnd)
        return Fail;
      drop(E & 15);
      crossed(bitPos(), total(Out));
      *Out++ = uint8_t(E >> 16);
      continue;
    }
    if (E & Exceptional) {
      if (E & EndOfBlock) {
        drop(E & 15);
        crossed(bitPos(), total(Out));
        return Ok;
      }
      return Fail;
    }
    drop(E & 15);
    unsigned LenExtra = (E >> 4) & 15;
    unsigned Len = (E >> 16) + bits(LenExtra);
    drop(LenExtra);
    uint32_t D;
    TL_LOOKUP(D, Dist, DistBits);
    if (D & Exceptional)
      return Fail;
    drop(D & 15);
    unsigned DExtra = (D >> 4) & 15;
    size_t Distance = (D >> 16) + bits(DExtra);
    drop(DExtra);
    if (Distance > size_t(Out - MemberStart) || Len > size_t(OutEnd - Out))
      return Fail;
    crossed(bitPos(), total(Out));
    for (const uint8_t *Src = Out - Distance, *End = Out + Len; Out < End;)
      *Out++ = *Src++;
  }
}

#undef TL_LOOKUP

Decoder::Result Decoder::memberHeader() {
  // Header (RFC 1952 2.3), with zlib's checks.
  const uint8_t *H = In;
  MemberBase = total(Out);
  if (InEnd - In < 10 || In[0] != 0x1f || In[1] != 0x8b || In[2] != 8 ||
      (In[3] & 0xe0))
    return Fail;
  unsigned Flags = In[3];
  const uint8_t *P = In + 10;
  if (Flags & 4) {
    if (InEnd - P < 2)
      return Fail;
    size_t XLen = size_t(P[0]) | size_t(P[1]) << 8;
    P += 2;
    if (size_t(InEnd - P) < XLen)
      return Fail;
    P += XLen;
  }
  for (unsigned Bit : {8u, 16u}) {
    if (!(Flags & Bit))
      continue;
    const void *Z = std::memchr(P, 0, size_t(InEnd - P));
    if (!Z)
      return Fail;
    P = static_cast<const uint8_t *>(Z) + 1;
  }
  if (Flags & 2) {
    if (InEnd - P < 2 || (crc32Update(0, H, size_t(P - H)) & 0xffff) !=
                             (unsigned(P[0]) | unsigned(P[1]) << 8))
      return Fail; // "header crc mismatch"
    P += 2;
  }
  In = P;
  crossed(uint64_t(In - InBegin) * 8, total(Out));
  MemberStart = CrcPos = Out;
  Crc = 0;
  return Ok;
}

Decoder::Result Decoder::blockHeader() {
  if (!need(3))
    return Fail;
  Final = bits(1);
  unsigned Type = bits(3) >> 1;
  drop(3);
  crossed(bitPos(), total(Out));
  if (Type == 0) {
    At = Final ? Stage::Trailer : Stage::Block;
    return storedBlock();
  }
  if (Type == 1) {
    fixedTables();
  } else if (Type == 2) {
    if (!dynamicTables())
      return Fail;
    crossed(bitPos(), total(Out));
  } else {
    return Fail; // "invalid block type"
  }
  At = Stage::Huffman;
  return Ok;
}

Decoder::Result Decoder::memberTrailer() {
  if (!alignToInput() || InEnd - In < 8)
    return Fail;
  Crc = crc32Update(Crc, CrcPos, size_t(Out - CrcPos));
  CrcPos = Out;
  uint32_t WantCrc, WantSize;
  std::memcpy(&WantCrc, In, 4);
  std::memcpy(&WantSize, In + 4, 4);
  In += 8;
  if (Crc != WantCrc || uint32_t(total(Out) - MemberBase) != WantSize)
    return Fail; // "incorrect data check" / "incorrect length check"
  crossed(uint64_t(In - InBegin) * 8, total(Out));
  if (Breaks) {
    // zlib's Z_STREAM_END, before a boundary still pending (sorted by Out).
    ZlibCuts::Break M{total(Out), 0, false, false};
    if (QDone)
      Breaks->insert(Breaks->end() - 1, M);
    else
      Breaks->push_back(M);
  }
  return Ok;
}

Decoder::Result Decoder::resume() {
  for (;;) {
    Result R = Ok;
    switch (At) {
    case Stage::Header:
      // As InputStream's member loop: any byte after a member starts
      // another.
      if (Started && In == InEnd) {
        At = Stage::End;
        return Ok;
      }
      Started = true;
      R = memberHeader();
      At = Stage::Block;
      break;
    case Stage::Block:
      if (Out >= NextMark && !Overrun) {
        if (Pull) {
          Crc = crc32Update(Crc, CrcPos, size_t(Out - CrcPos));
          CrcPos = Out;
          return Pause;
        }
        if (!publish())
          return Cancel;
      }
      R = blockHeader();
      break;
    case Stage::Huffman:
      R = huffmanBlock();
      if (R == Ok)
        At = Final ? Stage::Trailer : Stage::Block;
      break;
    case Stage::Trailer:
      R = memberTrailer();
      At = Stage::Header;
      break;
    case Stage::End:
      return Ok;
    }
    if (R != Ok)
      return R;
  }
}

Decoder::Result Decoder::gunzip() {
  Result R = resume();
  if (R != Ok)
    return R;
  return publish(/*Last=*/true) ? Ok : Cancel;
}

bool Decoder::publish(bool Last) {
  Crc = crc32Update(Crc, CrcPos, size_t(Out - CrcPos));
  CrcPos = Out;
  uint64_t Keep = OutBase;
  if (!Sink(OutBegin, OutBase, total(Out), Last, Keep))
    return false;
  NextMark = Out + Step;
  releaseInput();
  if (Sliding)
    slide(Keep);
  return true;
}

void Decoder::releaseInput() {
  if (!ReleaseInput || In - Released <= (1 << 20))
    return;
  long Page = sysconf(_SC_PAGESIZE);
  uintptr_t From = uintptr_t(Released) & ~uintptr_t(Page - 1);
  uintptr_t To = (uintptr_t(In) - (64 << 10)) & ~uintptr_t(Page - 1);
  ::madvise(reinterpret_cast<void *>(From), To - From, MADV_DONTNEED);
  Released = reinterpret_cast<const uint8_t *>(To);
}

/// Once the buffer is half full, move what the reader still needs (from
/// Keep) and the 32 KiB window to its front. The CRC must be up to Out.
void Decoder::slide(uint64_t Keep) {
  if (size_t(Out - OutBegin) < size_t(OutEnd - OutBegin) / 2)
    return;
  uint64_t Total = total(Out);
  uint64_t From = std::min(Keep, Total - std::min<uint64_t>(Total, 32768));
  if (From <= OutBase)
    return;
  size_t Shift = size_t(From - OutBase);
  std::memmove(OutBegin, OutBegin + Shift, size_t(Out - OutBegin) - Shift);
  Out -= Shift;
  CrcPos = Out;
  NextMark = Out + Step;
  // A member that started before the kept window: the window is 32 KiB,
  // as far as any distance reaches.
  MemberStart =
      size_t(MemberStart - OutBegin) > Shift ? MemberStart - Shift : OutBegin;
  OutBase += Shift;
}

static std::unique_ptr<Decoder> makeDecoder(const uint8_t *In, size_t InSize,
                                            uint8_t *Out, size_t OutCap,
                                            InflateSink Sink, size_t Step,
                                            bool ReleaseInput) {
  // An empty output (a null data() of an empty vector) still needs a
  // pointer that marks may be computed from: null + Step is undefined.
  static uint8_t NoOutput;
  if (!Out) {
    Out = &NoOutput;
    OutCap = 0;
  }
  // About 100 KB of tables: on the heap, not the stack.
  auto D = std::make_unique<Decoder>();
  D->InBegin = D->In = D->Released = In;
  D->InEnd = In + InSize;
  D->OutBegin = D->Out = Out;
  D->OutEnd = Out + OutCap;
  D->Step = std::max<size_t>(Step, 1);
  D->NextMark = Out + D->Step;
  D->Sink = Sink;
  D->ReleaseInput = ReleaseInput;
  return D;
}

static InflateStatus status(Decoder::Result R) {
  if (R == Decoder::Cancel)
    return InflateStatus::Cancelled;
  return R == Decoder::Ok ? InflateStatus::Done : InflateStatus::Failed;
}

InflateStatus tl::gunzipBuffer(const uint8_t *In, size_t InSize, uint8_t *Out,
                               size_t OutCap, size_t &OutSize,
                               llvm::function_ref<bool(size_t)> Progress,
                               size_t ProgressStep, bool ReleaseInput) {
  auto Sink = [&](const uint8_t *, uint64_t, uint64_t Total, bool Final,
                  uint64_t &) { return Final || Progress(size_t(Total)); };
  auto D =
      makeDecoder(In, InSize, Out, OutCap, Sink, ProgressStep, ReleaseInput);
  Decoder::Result R = D->gunzip();
  OutSize = size_t(D->Out - D->OutBegin);
  return status(R);
}

InflateStatus tl::gunzipStream(const uint8_t *In, size_t InSize, size_t BufSize,
                               size_t RawChunk, ZlibCuts &Cuts,
                               InflateSink Sink, size_t Step,
                               bool ReleaseInput) {
  std::unique_ptr<uint8_t[]> Buf(new uint8_t[BufSize]);
  auto D =
      makeDecoder(In, InSize, Buf.get(), BufSize, Sink, Step, ReleaseInput);
  D->Sliding = true;
  D->Breaks = &Cuts.Breaks;
  D->RawChunkBits = uint64_t(RawChunk) * 8;
  if (RawChunk < InSize)
    D->NextRawBits = D->RawChunkBits;
  return status(D->gunzip());
}

struct InflateChunks::State {
  std::unique_ptr<uint8_t[]> Buf;
  std::unique_ptr<Decoder> D;
  ZlibCuts Cuts;
  uint64_t Sent = 0;
  bool Done = false, Failed = false;
};

InflateChunks::InflateChunks(const uint8_t *In, size_t InSize, size_t RawChunk,
                             bool ReleaseInput)
    : St(std::make_unique<State>()) {
  constexpr size_t BufSize = 4 << 20;
  St->Buf.reset(new uint8_t[BufSize]);
  St->D = makeDecoder(In, InSize, St->Buf.get(), BufSize, InflateSink(),
                      RawChunk, ReleaseInput);
  Decoder &D = *St->D;
  D.Pull = true;
  D.Breaks = &St->Cuts.Breaks;
  D.RawChunkBits = uint64_t(RawChunk) * 8;
  if (RawChunk < InSize)
    D.NextRawBits = D.RawChunkBits;
}

InflateChunks::~InflateChunks() = default;

uint64_t InflateChunks::sent() const { return St->Sent; }

long InflateChunks::next(char *Dst, size_t Cap) {
  const char *View;
  long N = nextView(View, Cap);
  if (N > 0)
    std::memcpy(Dst, View, size_t(N));
  return N;
}

long InflateChunks::nextView(const char *&View, size_t Cap) {
  State &T = *St;
  Decoder &D = *T.D;
  for (;;) {
    if (T.Failed)
      return -1;
    uint64_t E = T.Cuts.next(T.Sent, Cap, D.total(D.Out), T.Done);
    if (E) {
      size_t N = size_t(E - T.Sent);
      View = reinterpret_cast<const char *>(D.OutBegin + (T.Sent - D.OutBase));
      T.Sent = E;
      return long(N);
    }
    if (T.Done)
      return 0;
    D.releaseInput();
    D.slide(T.Sent);
    D.NextMark = D.Out + D.Step;
    Decoder::Result R = D.resume();
    if (R == Decoder::Ok)
      T.Done = true;
    else if (R != Decoder::Pause)
      T.Failed = true;
  }
}

uint64_t ZlibCuts::next(uint64_t S, uint64_t Cap, uint64_t Total, bool Final) {
  while (BI < Breaks.size() && (Breaks[BI].Skip || Breaks[BI].Out <= S))
    ++BI;
  if (BI > 4096) {
    Breaks.erase(Breaks.begin(), Breaks.begin() + BI);
    BI = 0;
  }
  uint64_t E = S + Cap;
  bool AtRaw = false;
  if (BI < Breaks.size() && Breaks[BI].Out < E) {
    E = Breaks[BI].Out;
    AtRaw = Breaks[BI].Raw;
  }
  if (Final)
    E = std::min(E, Total);
  // A call is settled once output past it is decoded (zlib reads on past
  // a full buffer up to the next output), or at the end.
  if (Final ? E <= S : E >= Total)
    return 0;
  if (!AtRaw) {
    // Ended by a full buffer or a member end: if zlib's reading on took
    // the current raw chunk's last byte, the next call reads the next
    // chunk first, so does not stop at this boundary.
    for (size_t I = BI; I < Breaks.size(); ++I) {
      if (!Breaks[I].Raw || Breaks[I].Skip)
        continue;
      if (E >= Breaks[I].Q)
        Breaks[I].Skip = true;
      break;
    }
  }
  return E;
}
