//===- JsonReader.h - SAX JSON reader over contiguous chunks ----*- C++ -*-===//
//
// A drop-in replacement for RapidJSON's
//   GenericReader::Parse<kParseIterativeFlag | kParseFullPrecisionFlag |
//                        kParseValidateEncodingFlag [| kParseStopWhenDoneFlag]>
// that makes the same handler calls, in the same order, with the same values,
// and fails with the same ParseErrorCode at the same offset. It is faster
// because it reads the buffered bytes through a pointer instead of a
// Peek/Take call per byte, scans strings 16 bytes at a time (SSE2) and hands
// plain strings (ASCII, no escape) to the handler straight from the input
// buffer; strings with escapes, non-ASCII bytes or crossing a chunk end take
// a byte-wise path into a copy buffer.
//
// RapidJSON's parser stack (one 8-byte frame per open container, plus the
// string or number digits being read) is not needed here, but its size is
// modelled exactly (same growth, same moments): the importer caps it
// (MaxStringBytes) and reports the offset where RapidJSON's allocator would
// have gone past the cap, and counts its capacity in the memory guard.
//
// Source concept (the bytes buffered now are [ptr(), end())):
//   const char *ptr(); const char *end(); void setPtr(const char *);
//   bool next();    // the current bytes are consumed: read more (false at
//                   // the end; then ptr() == end())
//   uint64_t tellAt(const char *) const;  // input offset of a pointer
//   void stackLimit(const char *At);      // the stack model passed the cap
//                                         // at At: end the input there
// Handlers see the Source at the offset RapidJSON's stream would have (the
// bracket for Start/End calls, after the token for scalars). Only EndObject
// and EndArray may move it (the importer's splice after EndObject): the
// reader reloads its pointers after those calls only. Strings are not
// NUL-terminated.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_JSONREADER_H
#define TL_INPUT_JSONREADER_H

#include "llvm/Support/Compiler.h"

#include <rapidjson/encodings.h>
#include <rapidjson/error/error.h>
#include <rapidjson/internal/strtod.h>

#include <cstdint>
#include <cstring>
#include <emmintrin.h>
#include <string>
#include <vector>

namespace tl {

/// RapidJSON's parser stack, as sizes only.
struct JsonStackModel {
  uint64_t Size = 0; // bytes in use
  uint64_t Cap = 0;  // bytes allocated (RapidJSON's allocator's last size)
  uint64_t Limit = 0; // 0 = none
};

struct JsonParseResult {
  rapidjson::ParseErrorCode Code = rapidjson::kParseErrorNone;
  uint64_t Offset = 0;
  bool isError() const { return Code != rapidjson::kParseErrorNone; }
};

/// The first byte at or after Q (before E) that ends a plain string run:
/// '"', '\\', a control byte or a non-ASCII byte; E when none.
inline const char *jsonScanPlain(const char *Q, const char *E) {
  const __m128i Quote = _mm_set1_epi8('"');
  const __m128i Slash = _mm_set1_epi8('\\');
  const __m128i Space = _mm_set1_epi8(0x20);
  while (E - Q >= 16) {
    __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Q));
    // The signed compare with 0x20 catches control and non-ASCII bytes.
    __m128i M = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(V, Quote), _mm_cmpeq_epi8(V, Slash)),
        _mm_cmplt_epi8(V, Space));
    unsigned Mask = unsigned(_mm_movemask_epi8(M));
    if (Mask)
      return Q + __builtin_ctz(Mask);
    Q += 16;
  }
  while (Q < E) {
    unsigned char C = static_cast<unsigned char>(*Q);
    if (C == '"' || C == '\\' || C < 0x20 || C >= 0x80)
      return Q;
    ++Q;
  }
  return E;
}

template <typename Source, typename Handler> class JsonReader {
public:
  JsonReader(Source &Src, Handler &H, JsonStackModel &Stack)
      : Src(Src), H(H), Stack(Stack) {}

  /// Parse one JSON document; StopWhenDone = kParseStopWhenDoneFlag.
  template <bool StopWhenDone = false> JsonParseResult parse();

private:
  enum State : uint8_t {
    Start,
    Finish,
    ObjectInitial,
    MemberKey,
    KeyValueDelimiter,
    MemberValue,
    MemberDelimiter,
    ArrayInitial,
    Element,
    ElementDelimiter,
  };
  struct Frame {
    State Ret;      // the state after the container closes
    uint32_t Count; // members / elements before the last delimiter
  };

  // --- Source access ------------------------------------------------------
  LLVM_ATTRIBUTE_ALWAYS_INLINE void load() {
    P = Src.ptr();
    E = Src.end();
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE void sync() { Src.setPtr(P); }
  LLVM_ATTRIBUTE_NOINLINE bool fill() {
    Src.setPtr(P);
    bool Ok = Src.next();
    load();
    return Ok;
  }
  uint64_t tell(const char *At) const { return Src.tellAt(At); }
  uint64_t tell() const { return Src.tellAt(P); }
  /// RapidJSON's Peek: the next byte, 0 at the end (a NUL byte reads as 0
  /// too).
  LLVM_ATTRIBUTE_ALWAYS_INLINE char peek() {
    if (LLVM_UNLIKELY(P == E) && !fill())
      return 0;
    return *P;
  }
  /// RapidJSON's Take after a Peek that saw a byte.
  LLVM_ATTRIBUTE_ALWAYS_INLINE void take() {
    if (LLVM_UNLIKELY(P == E) && !fill())
      return;
    ++P;
  }
  static bool isSpace(char C) {
    return C == ' ' || C == '\n' || C == '\r' || C == '\t';
  }
  /// The next byte that is not JSON white space (0 at the end).
  LLVM_ATTRIBUTE_ALWAYS_INLINE char skipSpace() {
    if (LLVM_LIKELY(E - P >= 2)) {
      if (*P > ' ')
        return *P;
      if (*P == ' ' && P[1] > ' ') // ", " and ": "
        return *++P;
      // Pretty-printed JSON: a newline and an indentation of spaces.
      if (*P == '\n' && E - P > 16) {
        __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P + 1));
        unsigned Other =
            ~unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(V, _mm_set1_epi8(' '))));
        unsigned N = unsigned(__builtin_ctz(Other)); // (bit 16 is set)
        if (LLVM_LIKELY(N < 16 && P[1 + N] > ' ')) {
          P += 1 + N;
          return *P;
        }
      }
    }
    return skipSpaceSlow();
  }
  LLVM_ATTRIBUTE_NOINLINE char skipSpaceSlow() {
    // Indented JSON has runs of spaces: 16 bytes at a time.
    const __m128i Sp = _mm_set1_epi8(' '), Nl = _mm_set1_epi8('\n'),
                  Cr = _mm_set1_epi8('\r'), Tab = _mm_set1_epi8('\t');
    for (;;) {
      if (LLVM_UNLIKELY(P == E) && !fill())
        return 0;
      if (E - P >= 16) {
        __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
        __m128i W = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(V, Sp), _mm_cmpeq_epi8(V, Nl)),
            _mm_or_si128(_mm_cmpeq_epi8(V, Cr), _mm_cmpeq_epi8(V, Tab)));
        unsigned Other = ~unsigned(_mm_movemask_epi8(W)) & 0xFFFFu;
        if (Other) {
          P += __builtin_ctz(Other);
          return *P;
        }
        P += 16;
        continue;
      }
      char C = *P;
      if (!isSpace(C))
        return C;
      ++P;
    }
  }

  bool error(rapidjson::ParseErrorCode C, uint64_t Off) {
    Res.Code = C;
    Res.Offset = Off;
    return false;
  }
  /// The stack model went past the limit: the source ends there.
  bool stackAbort(const char *At) {
    Src.stackLimit(At);
    load();
    Aborted = true;
    return error(rapidjson::kParseErrorTermination, tell(At));
  }

  // --- Stack model ----------------------------------------------------------
  /// RapidJSON's Stack::Expand for a push reaching NewSize bytes: false
  /// when the reallocation passes the limit (reported at At).
  LLVM_ATTRIBUTE_NOINLINE bool grow(uint64_t NewSize, const char *At) {
    uint64_t C = Stack.Cap ? Stack.Cap + (Stack.Cap + 1) / 2 : 256;
    if (C < NewSize)
      C = NewSize;
    Stack.Cap = C;
    if (Stack.Limit && C > Stack.Limit)
      return stackAbort(At);
    return true;
  }
  /// One byte pushed at offset At (Top counts the transient bytes).
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool put(uint64_t &Top, const char *At) {
    if (LLVM_UNLIKELY(++Top > Stack.Cap))
      return grow(Top, At);
    return true;
  }
  /// N bytes pushed, the J-th (from 0) at At + J + AtShift.
  bool putRun(uint64_t &Top, size_t N, const char *At, size_t AtShift) {
    if (LLVM_LIKELY(Top + N <= Stack.Cap)) {
      Top += N;
      return true;
    }
    for (size_t J = 0; J < N; ++J)
      if (!put(Top, At + J + AtShift))
        return false;
    return true;
  }

  static char escapeOf(char C) {
    switch (C) {
    case '"':
      return '"';
    case '\\':
      return '\\';
    case '/':
      return '/';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    default:
      return 0;
    }
  }
  /// The first byte of a string or a number: the values taken without a
  /// trip through the state switch.
  static bool startsStringOrNumber(char C) {
    return C == '"' || C == '-' || unsigned(C - '0') < 10;
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool parseStringOrNumber(char C) {
    return C == '"' ? parseString(false) : parseNumber();
  }
  static bool isNumberByte(char C) {
    return (C >= '0' && C <= '9') || C == '.' || C == 'e' || C == 'E' ||
           C == '-' || C == '+';
  }

  // --- Values -------------------------------------------------------------
  bool parseValue(char C);
  bool parseLiteral(const char *Word, unsigned Len, int Kind);
  bool parseString(bool IsKey);
  LLVM_ATTRIBUTE_NOINLINE bool copyString(bool IsKey, const char *S,
                                          const char *Q);
  bool slowString(bool IsKey, uint64_t Top);
  bool finishString(bool IsKey, const char *S, size_t Len);
  bool validateUtf8(uint64_t &Top, bool &Valid);
  bool parseHex4(unsigned &CP, uint64_t EscOff);
  bool parseNumber();
  LLVM_ATTRIBUTE_NOINLINE bool slowNumber();
  template <bool Fast> bool parseNumberAt();
  bool open(bool IsObject, State Ret);
  bool close(bool IsObject, State From);

  Source &Src;
  Handler &H;
  JsonStackModel &Stack;
  const char *P = nullptr, *E = nullptr;
  State St = Start;
  bool Aborted = false;
  JsonParseResult Res;
  std::vector<Frame> Frames;
  std::string Buf;    // a string that could not be passed in place
  std::string Digits; // a number's digits for the slow double conversion
};

template <typename Source, typename Handler>
template <bool StopWhenDone>
JsonParseResult JsonReader<Source, Handler>::parse() {
  using namespace rapidjson;
  load();
  St = Start;
  Res = JsonParseResult();
  Frames.reserve(32);
  for (;;) {
    char C = skipSpace();
    if (C == 0)
      break;
    bool Ok = true;
    switch (St) {
    case Start:
      if (C == '{' || C == '[')
        Ok = open(C == '{', Start);
      else if (C == '}' || C == ']' || C == ',' || C == ':')
        return error(kParseErrorDocumentEmpty, tell()), Res;
      else if ((Ok = parseValue(C)))
        St = Finish;
      break;
    case Finish:
      return error(kParseErrorDocumentRootNotSingular, tell()), Res;
    case ObjectInitial:
    case MemberDelimiter:
      if (LLVM_LIKELY(C == '"')) {
        if ((Ok = parseString(true))) {
          St = MemberKey;
          // The ':' that must follow, without a trip through the switch
          // (anything else is left to the MemberKey case).
          if (LLVM_LIKELY(skipSpace() == ':')) {
            ++P;
            St = KeyValueDelimiter;
            // A string or number value, and the ',' after it, as the
            // KeyValueDelimiter and MemberValue cases would take them.
            char V = skipSpace();
            if (startsStringOrNumber(V)) {
              if ((Ok = parseStringOrNumber(V))) {
                St = MemberValue;
                if (LLVM_LIKELY(skipSpace() == ',')) {
                  ++P;
                  ++Frames.back().Count;
                  St = MemberDelimiter;
                }
              }
            }
          }
        }
      } else if (C == '}' && St == ObjectInitial) {
        Ok = close(true, St);
      } else {
        return error(kParseErrorObjectMissName, tell()), Res;
      }
      break;
    case MemberKey:
      if (LLVM_UNLIKELY(C != ':'))
        return error(kParseErrorObjectMissColon, tell()), Res;
      ++P;
      St = KeyValueDelimiter;
      break;
    case KeyValueDelimiter:
    case ArrayInitial:
    case ElementDelimiter: {
      State Next = St == KeyValueDelimiter ? MemberValue : Element;
      if (C == '{' || C == '[') {
        Ok = open(C == '{', Next);
      } else if (C == ']' && St == ArrayInitial) {
        Ok = close(false, St);
      } else if (C == '}' || C == ']' || C == ',' || C == ':') {
        return error(kParseErrorValueInvalid, tell()), Res;
      } else if ((Ok = startsStringOrNumber(C) ? parseStringOrNumber(C)
                                                : parseValue(C))) {
        St = Next;
        // The ',' that usually follows, as the Next case would take it.
        if (LLVM_LIKELY(skipSpace() == ',')) {
          ++P;
          ++Frames.back().Count;
          St = St == MemberValue ? MemberDelimiter : ElementDelimiter;
          // More string and number elements (shapes, type lists), as the
          // ElementDelimiter and Element cases would take them.
          while (St == ElementDelimiter) {
            char V = skipSpace();
            if (!startsStringOrNumber(V) || !(Ok = parseStringOrNumber(V)))
              break;
            St = Element;
            if (LLVM_LIKELY(skipSpace() == ',')) {
              ++P;
              ++Frames.back().Count;
              St = ElementDelimiter;
            }
          }
        }
      }
      break;
    }
    case MemberValue:
      if (C == ',') {
        ++P;
        ++Frames.back().Count;
        St = MemberDelimiter;
      } else if (C == '}') {
        Ok = close(true, St);
      } else {
        return error(kParseErrorObjectMissCommaOrCurlyBracket, tell()), Res;
      }
      break;
    case Element:
      if (C == ',') {
        ++P;
        ++Frames.back().Count;
        St = ElementDelimiter;
      } else if (C == ']') {
        Ok = close(false, St);
      } else {
        return error(kParseErrorArrayMissCommaOrSquareBracket, tell()), Res;
      }
      break;
    }
    if (!Ok)
      return Res;
    if (StopWhenDone && St == Finish)
      return Res;
  }
  // The end of the input (or a NUL byte) in state St.
  switch (St) {
  case Finish:
    break;
  case Start:
    error(kParseErrorDocumentEmpty, tell());
    break;
  case ObjectInitial:
  case MemberDelimiter:
    error(kParseErrorObjectMissName, tell());
    break;
  case MemberKey:
    error(kParseErrorObjectMissColon, tell());
    break;
  case MemberValue:
    error(kParseErrorObjectMissCommaOrCurlyBracket, tell());
    break;
  case KeyValueDelimiter:
  case ArrayInitial:
  case ElementDelimiter:
    error(kParseErrorValueInvalid, tell());
    break;
  case Element:
    error(kParseErrorArrayMissCommaOrSquareBracket, tell());
    break;
  }
  return Res;
}

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::open(bool IsObject, State Ret) {
  // Two 4-byte pushes (state, count) at the bracket, before the call.
  const char *At = P;
  uint64_t Top = Stack.Size;
  Top += 4;
  if (LLVM_UNLIKELY(Top > Stack.Cap) && !grow(Top, At))
    return false;
  Top += 4;
  if (LLVM_UNLIKELY(Top > Stack.Cap) && !grow(Top, At))
    return false;
  Stack.Size = Top;
  Frames.push_back({Ret, 0});
  sync();
  bool Ok = IsObject ? H.StartObject() : H.StartArray();
  if (LLVM_UNLIKELY(!Ok))
    return error(rapidjson::kParseErrorTermination, tell());
  take();
  St = IsObject ? ObjectInitial : ArrayInitial;
  return true;
}

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::close(bool IsObject, State From) {
  Frame F = Frames.back();
  Frames.pop_back();
  Stack.Size -= 8;
  uint32_t Count = F.Count + (From == MemberValue || From == Element ? 1 : 0);
  St = F.Ret == Start ? Finish : F.Ret;
  sync();
  bool Ok = IsObject ? H.EndObject(Count) : H.EndArray(Count);
  load();
  if (LLVM_UNLIKELY(!Ok))
    return error(rapidjson::kParseErrorTermination, tell());
  take();
  return true;
}

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::parseValue(char C) {
  switch (C) {
  case '"':
    return parseString(false);
  case 'n':
    return parseLiteral("null", 4, 0);
  case 't':
    return parseLiteral("true", 4, 1);
  case 'f':
    return parseLiteral("false", 5, 2);
  default:
    return parseNumber();
  }
}

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::parseLiteral(const char *Word, unsigned Len,
                                               int Kind) {
  if (LLVM_LIKELY(size_t(E - P) >= Len) && std::memcmp(P, Word, Len) == 0) {
    P += Len;
  } else {
    ++P; // the first letter was seen
    for (unsigned I = 1; I < Len; ++I) {
      if (peek() != Word[I])
        return error(rapidjson::kParseErrorValueInvalid, tell());
      ++P;
    }
  }
  sync();
  bool Ok = Kind == 0 ? H.Null() : H.Bool(Kind == 1);
  if (LLVM_UNLIKELY(!Ok))
    return error(rapidjson::kParseErrorTermination, tell());
  return true;
}

// --- Strings ---------------------------------------------------------------

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::parseString(bool IsKey) {
  const char *S = P + 1; // after the opening quote (taken)
  const char *Q = jsonScanPlain(S, E);
  if (LLVM_LIKELY(Q < E && *Q == '"')) {
    size_t Len = size_t(Q - S);
    // Pushes: byte J after taking it (offset S + J + 1), then the NUL
    // after the quote (Q + 1).
    if (LLVM_LIKELY(Stack.Size + Len + 1 <= Stack.Cap)) {
      P = Q + 1;
      return finishString(IsKey, S, Len);
    }
  }
  return copyString(IsKey, S, Q);
}

/// parseString's slow half, out of line so that the fast half needs few
/// registers: an escape, a non-ASCII or control byte, or the chunk ends
/// (at Q) before the closing quote, or the stack model grows.
template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::copyString(bool IsKey, const char *S,
                                             const char *Q) {
  if (LLVM_LIKELY(Q < E && *Q == '"')) {
    size_t Len = size_t(Q - S);
    uint64_t Top = Stack.Size;
    if (!putRun(Top, Len + 1, S, 1))
      return false;
    P = Q + 1;
    return finishString(IsKey, S, Len);
  }
  uint64_t Top = Stack.Size;
  Buf.assign(S, Q);
  if (!putRun(Top, size_t(Q - S), S, 1))
    return false;
  P = Q;
  return slowString(IsKey, Top);
}

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::finishString(bool IsKey, const char *S,
                                               size_t Len) {
  sync();
  bool Ok = IsKey ? H.Key(S, unsigned(Len), true)
                  : H.String(S, unsigned(Len), true);
  if (LLVM_UNLIKELY(!Ok))
    return error(rapidjson::kParseErrorTermination, tell());
  return true;
}

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::parseHex4(unsigned &CP, uint64_t EscOff) {
  CP = 0;
  for (int I = 0; I < 4; ++I) {
    char C = peek();
    CP <<= 4;
    if (C >= '0' && C <= '9')
      CP += unsigned(C - '0');
    else if (C >= 'A' && C <= 'F')
      CP += unsigned(C - 'A' + 10);
    else if (C >= 'a' && C <= 'f')
      CP += unsigned(C - 'a' + 10);
    else
      return error(rapidjson::kParseErrorStringUnicodeEscapeInvalidHex,
                   EscOff);
    ++P;
  }
  return true;
}

/// RapidJSON's UTF8::Validate: P is at a byte >= 0x80; every byte of the
/// sequence is taken and pushed (even a bad one), Buf gets them.
template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::validateUtf8(uint64_t &Top, bool &Valid) {
  bool Ok = true;
  auto Copy = [&](unsigned Mask) -> bool {
    char C = peek();
    if (P != E)
      ++P; // (at the end Take reads 0 and stays)
    Buf.push_back(C);
    if (Mask)
      Ok &= (rapidjson::UTF8<>::GetRange(static_cast<unsigned char>(C)) &
             Mask) != 0;
    return put(Top, P);
  };
  unsigned char Lead = static_cast<unsigned char>(*P);
  if (!Copy(0))
    return false;
  switch (rapidjson::UTF8<>::GetRange(Lead)) {
  case 2:
    if (!Copy(0x70))
      return false;
    break;
  case 3:
    if (!Copy(0x70) || !Copy(0x70))
      return false;
    break;
  case 4:
    if (!Copy(0x50) || !Copy(0x70))
      return false;
    break;
  case 5:
    if (!Copy(0x10) || !Copy(0x70) || !Copy(0x70))
      return false;
    break;
  case 6:
    if (!Copy(0x70) || !Copy(0x70) || !Copy(0x70))
      return false;
    break;
  case 10:
    if (!Copy(0x20) || !Copy(0x70))
      return false;
    break;
  case 11:
    if (!Copy(0x60) || !Copy(0x70) || !Copy(0x70))
      return false;
    break;
  default:
    Ok = false;
    break;
  }
  Valid = Ok;
  return true;
}

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::slowString(bool IsKey, uint64_t Top) {
  using namespace rapidjson;
  for (;;) {
    // A run of plain bytes in the chunk: byte J pushed after taking it.
    const char *Q = jsonScanPlain(P, E);
    if (Q != P) {
      Buf.append(P, Q);
      if (!putRun(Top, size_t(Q - P), P, 1))
        return false;
      P = Q;
    }
    char C = peek();
    if (C == '\\') {
      uint64_t EscOff = tell();
      ++P;
      char Esc = peek();
      char Out = escapeOf(Esc);
      if (Out) {
        ++P;
        Buf.push_back(Out);
        if (!put(Top, P))
          return false;
      } else if (Esc == 'u') {
        ++P;
        unsigned CP;
        if (!parseHex4(CP, EscOff))
          return false;
        // (RapidJSON 1.1 checks a high surrogate's pair only; a lone low
        // surrogate is encoded as it is.)
        if (CP >= 0xD800 && CP <= 0xDBFF) {
          if (peek() != '\\')
            return error(kParseErrorStringUnicodeSurrogateInvalid, EscOff);
          ++P;
          if (peek() != 'u')
            return error(kParseErrorStringUnicodeSurrogateInvalid, EscOff);
          ++P;
          unsigned CP2;
          if (!parseHex4(CP2, EscOff))
            return false;
          if (CP2 < 0xDC00 || CP2 > 0xDFFF)
            return error(kParseErrorStringUnicodeSurrogateInvalid, EscOff);
          CP = (((CP - 0xD800) << 10) | (CP2 - 0xDC00)) + 0x10000;
        }
        // UTF-8, every byte pushed after the escape.
        char Enc[4];
        unsigned N;
        if (CP <= 0x7F) {
          Enc[0] = char(CP);
          N = 1;
        } else if (CP <= 0x7FF) {
          Enc[0] = char(0xC0 | ((CP >> 6) & 0xFF));
          Enc[1] = char(0x80 | (CP & 0x3F));
          N = 2;
        } else if (CP <= 0xFFFF) {
          Enc[0] = char(0xE0 | ((CP >> 12) & 0xFF));
          Enc[1] = char(0x80 | ((CP >> 6) & 0x3F));
          Enc[2] = char(0x80 | (CP & 0x3F));
          N = 3;
        } else {
          Enc[0] = char(0xF0 | ((CP >> 18) & 0xFF));
          Enc[1] = char(0x80 | ((CP >> 12) & 0x3F));
          Enc[2] = char(0x80 | ((CP >> 6) & 0x3F));
          Enc[3] = char(0x80 | (CP & 0x3F));
          N = 4;
        }
        for (unsigned J = 0; J < N; ++J) {
          Buf.push_back(Enc[J]);
          if (!put(Top, P))
            return false;
        }
      } else {
        return error(kParseErrorStringEscapeInvalid, EscOff);
      }
    } else if (C == '"') {
      ++P;
      if (!put(Top, P)) // the NUL
        return false;
      return finishString(IsKey, Buf.data(), Buf.size());
    } else if (static_cast<unsigned char>(C) < 0x20) {
      // (RapidJSON 1.1 calls a raw control byte an invalid escape.)
      return error(C == 0 ? kParseErrorStringMissQuotationMark
                          : kParseErrorStringEscapeInvalid,
                   tell());
    } else if (static_cast<unsigned char>(C) < 0x80) {
      continue; // plain bytes after a chunk end
    } else {
      uint64_t Off = tell();
      bool Valid;
      if (!validateUtf8(Top, Valid))
        return false;
      if (!Valid)
        return error(kParseErrorStringInvalidEncoding, Off);
    }
  }
}

// --- Numbers ---------------------------------------------------------------

template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::parseNumber() {
  // The common case first: at most 16 digits, with or without a fraction,
  // no exponent, inside the chunk, room on the stack model. Its value is
  // what RapidJSON computes (an exact mantissa and the same StrtodFast; a
  // mantissa above 2^53 - 1 goes the long way); anything else goes the long
  // way too.
  // Digit by digit: most numbers of a trace are short integers (ids,
  // pids, shapes), for which a byte loop beats eight-byte words; at most 17
  // digits per part are read (more go the long way), so 40 bytes of the
  // chunk are enough.
  if (LLVM_LIKELY(E - P >= 40)) {
    const char *Q = P;
    bool Minus = *Q == '-';
    Q += Minus;
    const char *DB = Q;
    uint64_t M = 0;
    unsigned Dig;
    for (const char *Lim = Q + 17; Q != Lim && (Dig = unsigned(*Q - '0')) < 10;
         ++Q)
      M = M * 10 + Dig;
    size_t NInt = size_t(Q - DB), NFrac = 0;
    if (*Q == '.') {
      const char *FB = ++Q;
      for (const char *Lim = Q + 17;
           Q != Lim && (Dig = unsigned(*Q - '0')) < 10; ++Q)
        M = M * 10 + Dig;
      NFrac = size_t(Q - FB);
      if (NFrac == 0)
        NInt = 0; // (an error: the long way reports it)
    }
    double R = 0;
    if (LLVM_LIKELY(NInt != 0 && NInt + NFrac <= 16 && Q < E &&
                    (NInt == 1 || *DB != '0') && *Q != 'e' && *Q != 'E' &&
                    *Q != '.' &&
                    Stack.Size + NInt + NFrac + 1 <= Stack.Cap) &&
        (NFrac == 0 || rapidjson::internal::StrtodFast(
                           static_cast<double>(M), -int(NFrac), &R))) {
      const char *Begin = P;
      P = Q;
      sync();
      bool Ok;
      if (NFrac) {
        Ok = H.Double(Minus ? -R : R);
      } else if (Minus) {
        Ok = M <= 2147483648u ? H.Int(static_cast<int32_t>(~unsigned(M) + 1))
                              : H.Int64(static_cast<int64_t>(~M + 1));
      } else {
        Ok = M <= 4294967295u ? H.Uint(unsigned(M)) : H.Uint64(M);
      }
      // (The handler did not move the source: Begin's offset is as it was.)
      if (LLVM_UNLIKELY(!Ok))
        return error(rapidjson::kParseErrorTermination, tell(Begin));
      return true;
    }
  }
  return slowNumber();
}

/// parseNumber's slow half (out of line: the fast half needs few
/// registers). In place when the bytes a number can hold end inside the
/// chunk (so no read can pass its end) and the stack model has room for all
/// of them.
template <typename Source, typename Handler>
bool JsonReader<Source, Handler>::slowNumber() {
  const char *Q = P;
  while (Q < E && isNumberByte(*Q))
    ++Q;
  if (LLVM_LIKELY(Q < E) && Stack.Size + uint64_t(Q - P) + 1 <= Stack.Cap)
    return parseNumberAt<true>();
  return parseNumberAt<false>();
}

/// RapidJSON's ParseNumber (full precision), step by step: the same
/// classification, the same double arithmetic before the same
/// StrtodFullPrecision call, the same errors and offsets.
template <typename Source, typename Handler>
template <bool Fast>
bool JsonReader<Source, Handler>::parseNumberAt() {
  using namespace rapidjson;
  uint64_t Top = Stack.Size;
  size_t Length = 0; // digits pushed
  if (!Fast)
    Digits.clear();
  auto Peek = [this]() -> char { return Fast ? *P : peek(); };
  auto IsDigit = [](char C) { return C >= '0' && C <= '9'; };
  // A digit is pushed before it is taken (offset of the digit).
  auto TakePush = [&]() -> bool {
    ++Length;
    if (!Fast) {
      Digits.push_back(*P);
      if (!put(Top, P))
        return false;
    }
    ++P;
    return true;
  };
  uint64_t StartOffset = tell();
  bool Minus = false;
  if (Peek() == '-') {
    ++P;
    Minus = true;
  }
  unsigned I = 0;
  uint64_t I64 = 0;
  bool Use64 = false;
  int SigDigits = 0;
  const char *IntB = P;
  char C = Peek();
  if (C == '0') {
    if (!TakePush())
      return false;
  } else if (C >= '1' && C <= '9') {
    I = unsigned(C - '0');
    if (!TakePush())
      return false;
    unsigned Max = Minus ? 214748364u : 429496729u;
    char MaxC = Minus ? '8' : '5';
    while (IsDigit(C = Peek())) {
      if (LLVM_UNLIKELY(I >= Max) && (I != Max || C > MaxC)) {
        I64 = I;
        Use64 = true;
        break;
      }
      I = I * 10 + unsigned(C - '0');
      if (!TakePush())
        return false;
      ++SigDigits;
    }
  } else {
    return error(kParseErrorValueInvalid, tell());
  }
  bool UseDouble = false;
  double D = 0.0;
  if (Use64) {
    uint64_t Max = Minus ? 0x0CCCCCCCCCCCCCCCull : 0x1999999999999999ull;
    char MaxC = Minus ? '8' : '5';
    while (IsDigit(C = Peek())) {
      if (LLVM_UNLIKELY(I64 >= Max) && (I64 != Max || C > MaxC)) {
        D = static_cast<double>(I64);
        UseDouble = true;
        break;
      }
      I64 = I64 * 10 + unsigned(C - '0');
      if (!TakePush())
        return false;
      ++SigDigits;
    }
  }
  if (UseDouble) {
    while (IsDigit(C = Peek())) {
      if (D >= 1.7976931348623157e307) // DBL_MAX / 10.0
        return error(kParseErrorNumberTooBig, StartOffset);
      D = D * 10 + (C - '0');
      if (!TakePush())
        return false;
    }
  }
  const char *IntE = P, *FracB = P, *FracE = P;
  int ExpFrac = 0;
  size_t DecimalPosition = Length;
  if (Peek() == '.') {
    ++P;
    FracB = P;
    if (!IsDigit(Peek()))
      return error(kParseErrorNumberMissFraction, tell());
    if (!UseDouble) {
      if (!Use64)
        I64 = I;
      while (IsDigit(C = Peek())) {
        if (I64 > 0x1FFFFFFFFFFFFFull) // 2^53 - 1 for the fast path
          break;
        I64 = I64 * 10 + unsigned(C - '0');
        if (!TakePush())
          return false;
        --ExpFrac;
        if (I64 != 0)
          ++SigDigits;
      }
      D = static_cast<double>(I64);
      UseDouble = true;
    }
    while (IsDigit(C = Peek())) {
      if (SigDigits < 17) {
        D = D * 10.0 + (C - '0');
        if (!TakePush())
          return false;
        --ExpFrac;
        if (D > 0.0)
          ++SigDigits;
      } else if (!TakePush()) {
        return false;
      }
    }
    FracE = P;
  }
  int Exp = 0;
  C = Peek();
  if (C == 'e' || C == 'E') {
    ++P;
    if (!UseDouble) {
      D = static_cast<double>(Use64 ? I64 : I);
      UseDouble = true;
    }
    bool ExpMinus = false;
    C = Peek();
    if (C == '+') {
      ++P;
    } else if (C == '-') {
      ++P;
      ExpMinus = true;
    }
    C = Peek();
    if (!IsDigit(C))
      return error(kParseErrorNumberMissExponent, tell());
    Exp = C - '0';
    ++P;
    if (ExpMinus) {
      while (IsDigit(C = Peek())) {
        Exp = Exp * 10 + (C - '0');
        ++P;
        if (Exp >= 214748364) // RapidJSON issue #313: no overflow
          while (IsDigit(Peek()))
            ++P;
      }
      Exp = -Exp;
    } else {
      int MaxExp = 308 - ExpFrac;
      while (IsDigit(C = Peek())) {
        Exp = Exp * 10 + (C - '0');
        ++P;
        if (Exp > MaxExp)
          return error(kParseErrorNumberTooBig, StartOffset);
      }
    }
  }
  // RapidJSON's Pop pushes a NUL after the number.
  if (!Fast && !put(Top, P))
    return false;
  bool Ok;
  if (UseDouble) {
    int Pw = Exp + ExpFrac;
    double R;
    if (!internal::StrtodFast(D, Pw, &R)) {
      const char *Dec = IntB;
      if (!Fast) {
        Dec = Digits.data();
      } else if (FracE != FracB) {
        Digits.assign(IntB, IntE);
        Digits.append(FracB, FracE);
        Dec = Digits.data();
      }
      R = internal::StrtodFullPrecision(D, Pw, Dec, Length, DecimalPosition,
                                        Exp);
    }
    sync();
    Ok = H.Double(Minus ? -R : R);
  } else if (Use64) {
    sync();
    Ok = Minus ? H.Int64(static_cast<int64_t>(~I64 + 1)) : H.Uint64(I64);
  } else {
    sync();
    Ok = Minus ? H.Int(static_cast<int32_t>(~I + 1)) : H.Uint(I);
  }
  if (LLVM_UNLIKELY(!Ok))
    return error(kParseErrorTermination, StartOffset);
  return true;
}

} // namespace tl

#endif // TL_INPUT_JSONREADER_H
