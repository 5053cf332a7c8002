//===- TraceSplice.cpp - Copy a trace with events appended ----------------===//
//
// A byte scanner that knows just enough JSON to find the top-level
// traceEvents array: whether it is inside a string (and after a backslash),
// the container depth, and the keys of the top-level object. Everything it
// reads is copied through in spans as large as the input chunks.
//
//===----------------------------------------------------------------------===//
#include "tl/Input/TraceSplice.h"
#include "tl/Input/InputStream.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <emmintrin.h>
#include <string>
#include <thread>

using namespace llvm;

namespace tl {

namespace {

/// The first '"' or '\\' at or after Q (before E); E when none.
const char *scanStringBody(const char *Q, const char *E) {
  const __m128i Quote = _mm_set1_epi8('"');
  const __m128i Slash = _mm_set1_epi8('\\');
  while (E - Q >= 16) {
    __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Q));
    unsigned Mask = unsigned(_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(V, Quote), _mm_cmpeq_epi8(V, Slash))));
    if (Mask)
      return Q + __builtin_ctz(Mask);
    Q += 16;
  }
  while (Q < E && *Q != '"' && *Q != '\\')
    ++Q;
  return Q;
}

int hexDigit(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

/// Whether the raw text of a key (between its quotes) decodes to
/// "traceEvents" (keys with escapes are decoded as the importer would).
bool isTraceEventsKey(StringRef Raw) {
  if (!Raw.contains('\\'))
    return Raw == "traceEvents";
  std::string Out;
  for (size_t I = 0; I < Raw.size(); ++I) {
    char C = Raw[I];
    if (C != '\\') {
      Out += C;
      continue;
    }
    if (++I >= Raw.size())
      return false;
    switch (Raw[I]) {
    case 'u': {
      if (I + 4 >= Raw.size())
        return false;
      int V = 0;
      for (size_t J = 1; J <= 4; ++J) {
        int D = hexDigit(Raw[I + J]);
        if (D < 0)
          return false;
        V = V * 16 + D;
      }
      if (V >= 0x80)
        return false; // not ASCII: not the key we look for
      Out += char(V);
      I += 4;
      break;
    }
    case '"':
    case '\\':
    case '/':
      Out += Raw[I];
      break;
    default:
      return false; // \b \f \n \r \t: not in "traceEvents"
    }
  }
  return Out == "traceEvents";
}

/// Longest top-level key kept for the comparison ("traceEvents" escaped as
/// \uXXXX throughout is 66 bytes).
constexpr size_t MaxKeyBytes = 72;

class Splicer {
public:
  Splicer(raw_ostream &OS, function_ref<void(raw_ostream &, bool)> Append)
      : OS(OS), Append(Append) {}

  /// Scan and copy [P, E); false once the top-level object has closed
  /// (the rest of the input is not read).
  bool feed(const char *P, const char *E);
  bool rootClosed() const { return RootClosed; }
  bool inserted() const { return Inserted; }
  bool sawRoot() const { return Depth > 0 || RootClosed; }
  bool badStart() const { return BadStart; }

private:
  raw_ostream &OS;
  function_ref<void(raw_ostream &, bool)> Append;
  unsigned Depth = 0;
  bool InString = false, Escape = false;
  /// At depth 1: the next string is a key; a key is being read.
  bool ExpectKey = false, InKey = false;
  std::string Key;
  bool KeyTooLong = false;
  /// The last top-level key was traceEvents (until its value starts).
  bool KeyIsEvents = false, ValueIsEvents = false;
  bool InEvents = false, EventsHaveElement = false;
  bool Inserted = false, RootClosed = false, BadStart = false;

  void keyBytes(const char *B, const char *E) {
    if (KeyTooLong)
      return;
    if (Key.size() + size_t(E - B) > MaxKeyBytes) {
      KeyTooLong = true;
      return;
    }
    Key.append(B, E);
  }
};

bool Splicer::feed(const char *P, const char *E) {
  const char *Span = P; // start of the bytes not yet copied
  while (P < E) {
    if (InString) {
      if (Escape) {
        Escape = false;
        if (InKey)
          keyBytes(P, P + 1);
        ++P;
        continue;
      }
      const char *Q = scanStringBody(P, E);
      if (InKey)
        keyBytes(P, Q);
      P = Q;
      if (P == E)
        break;
      if (*P == '\\') {
        Escape = true;
        if (InKey)
          keyBytes(P, P + 1);
        ++P;
        continue;
      }
      // The closing quote.
      InString = false;
      if (InKey) {
        InKey = false;
        KeyIsEvents = !KeyTooLong && isTraceEventsKey(Key);
      }
      ++P;
      continue;
    }
    char C = *P;
    switch (C) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
      break;
    case '"':
      InString = true;
      if (Depth == 1 && ExpectKey) {
        InKey = true;
        ExpectKey = false;
        Key.clear();
        KeyTooLong = false;
      }
      if (InEvents && Depth == 2)
        EventsHaveElement = true;
      break;
    case '{':
    case '[':
      if (Depth == 0) {
        if (C != '{') {
          BadStart = true;
          return false;
        }
        ExpectKey = true;
      } else if (Depth == 1) {
        if (C == '[' && ValueIsEvents)
          InEvents = true;
        ValueIsEvents = false;
      } else if (InEvents && Depth == 2) {
        EventsHaveElement = true;
      }
      ++Depth;
      break;
    case '}':
    case ']':
      if (Depth == 0) {
        BadStart = true;
        return false;
      }
      if (InEvents && Depth == 2) {
        // The end of traceEvents: the new elements go before it.
        OS.write(Span, size_t(P - Span));
        Span = P;
        Append(OS, EventsHaveElement);
        InEvents = false;
        Inserted = true;
      }
      if (--Depth == 0) {
        OS.write(Span, size_t(P + 1 - Span));
        OS << "\n";
        RootClosed = true;
        return false;
      }
      break;
    case ',':
      if (Depth == 1) {
        ExpectKey = true;
        ValueIsEvents = false;
      }
      break;
    case ':':
      if (Depth == 1) {
        ValueIsEvents = KeyIsEvents;
        KeyIsEvents = false;
      }
      break;
    default:
      if (Depth == 0) {
        BadStart = true;
        return false;
      }
      // A scalar (number, true, false, null).
      if (InEvents && Depth == 2)
        EventsHaveElement = true;
      break;
    }
    ++P;
  }
  OS.write(Span, size_t(E - Span));
  return true;
}

Error error(StringRef Path, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Msg);
}

} // namespace

Error spliceTraceEvents(StringRef Path, raw_ostream &OS,
                        function_ref<void(raw_ostream &, bool)> Append) {
  std::string P = Path.str();
  std::FILE *F = std::fopen(P.c_str(), "rb");
  if (!F)
    return error(Path, "expected a readable file (" +
                           Twine(std::strerror(errno)) + ")");
  // Inflate on a second thread where there is one (as the importer does).
  InputStream In(F, StringRef(), /*MaxBytes=*/0, nullptr,
                 std::thread::hardware_concurrency() > 1);
  if (!In.start())
    return error(Path, "offset " + Twine(In.errorOffset()) + ": " +
                           In.error());
  Splicer S(OS, Append);
  for (;;) {
    const char *B = In.ptr(), *E = In.end();
    bool More = S.feed(B, E);
    In.setPtr(E);
    if (!More || !In.next())
      break;
  }
  if (In.hasError())
    return error(Path, "offset " + Twine(In.errorOffset()) + ": " +
                           In.error());
  if (S.badStart() || !S.sawRoot())
    return error(Path, "expected a JSON object at the top level");
  if (!S.rootClosed())
    return error(Path, "expected the end of the top-level object (the "
                       "input ended early)");
  if (!S.inserted())
    return error(Path, "expected a top-level traceEvents array");
  return Error::success();
}

} // namespace tl
