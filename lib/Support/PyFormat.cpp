//===- PyFormat.cpp - Python-compatible number/string formatting -----------===//
#include "tl/Support/PyFormat.h"

#include "llvm/Support/ConvertUTF.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace tl;

std::string tl::pyRepr(double D) {
  if (std::isnan(D))
    return "nan";
  if (std::isinf(D))
    return D < 0 ? "-inf" : "inf";
  // Shortest round-trip digits in scientific form, e.g. "-1.2345e+02",
  // rearranged into Python's repr in one stack buffer (the report
  // formats tens of thousands of numbers).
  char Sci[64];
  char *SciEnd =
      std::to_chars(Sci, Sci + sizeof(Sci), D, std::chars_format::scientific)
          .ptr;
  const char *P = Sci;
  bool Neg = *P == '-';
  if (Neg)
    ++P;
  char Digits[32];
  int NDig = 0;
  for (; *P != 'e'; ++P)
    if (*P != '.')
      Digits[NDig++] = *P;
  ++P; // 'e'
  bool ENeg = *P == '-';
  ++P; // sign
  int Exp = 0;
  for (; P != SciEnd; ++P)
    Exp = Exp * 10 + (*P - '0');
  if (ENeg)
    Exp = -Exp;
  char Out[64];
  char *O = Out;
  if (Neg)
    *O++ = '-';
  auto Put = [&](const char *S, int N) {
    std::memcpy(O, S, static_cast<size_t>(N));
    O += N;
  };
  if (Exp >= -4 && Exp < 16) {
    if (Exp < 0) {
      *O++ = '0';
      *O++ = '.';
      for (int I = 0; I < -Exp - 1; ++I)
        *O++ = '0';
      Put(Digits, NDig);
    } else if (NDig <= Exp + 1) {
      Put(Digits, NDig);
      for (int I = 0; I < Exp + 1 - NDig; ++I)
        *O++ = '0';
      *O++ = '.';
      *O++ = '0';
    } else {
      Put(Digits, Exp + 1);
      *O++ = '.';
      Put(Digits + Exp + 1, NDig - Exp - 1);
    }
    return std::string(Out, O);
  }
  *O++ = Digits[0];
  if (NDig > 1) {
    *O++ = '.';
    Put(Digits + 1, NDig - 1);
  }
  // "e+05", "e-07", "e+300": at least two exponent digits.
  *O++ = 'e';
  *O++ = Exp < 0 ? '-' : '+';
  int A = Exp < 0 ? -Exp : Exp;
  if (A >= 100)
    *O++ = static_cast<char>('0' + A / 100);
  *O++ = static_cast<char>('0' + A / 10 % 10);
  *O++ = static_cast<char>('0' + A % 10);
  return std::string(Out, O);
}

/// Round the exact decimal expansion Text ("[-]ddd.ddd", exact) to a multiple
/// of 10^Pow (Pow > 0), ties to even, and return it as a double.
static double roundDecimalString(const std::string &Text, int Pow) {
  bool Neg = !Text.empty() && Text[0] == '-';
  std::string S = Neg ? Text.substr(1) : Text;
  size_t Dot = S.find('.');
  std::string Int = Dot == std::string::npos ? S : S.substr(0, Dot);
  std::string Frac = Dot == std::string::npos ? "" : S.substr(Dot + 1);
  if (static_cast<int>(Int.size()) < Pow)
    Int = std::string(Pow - Int.size(), '0') + Int;
  std::string Keep = Int.substr(0, Int.size() - Pow);
  std::string Drop = Int.substr(Int.size() - Pow) + Frac;
  // Compare Drop with "5000...".
  int Cmp = 0;
  if (Drop[0] > '5')
    Cmp = 1;
  else if (Drop[0] < '5')
    Cmp = -1;
  else
    Cmp = Drop.find_first_not_of('0', 1) == std::string::npos ? 0 : 1;
  if (Keep.empty())
    Keep = "0";
  bool Up = Cmp > 0 || (Cmp == 0 && ((Keep.back() - '0') % 2 == 1));
  if (Up) {
    int I = static_cast<int>(Keep.size()) - 1;
    while (I >= 0 && Keep[I] == '9')
      Keep[I--] = '0';
    if (I < 0)
      Keep.insert(Keep.begin(), '1');
    else
      ++Keep[I];
  }
  std::string Result = (Neg ? "-" : "") + Keep + "e" + std::to_string(Pow);
  return std::strtod(Result.c_str(), nullptr);
}

double tl::pyRound(double X, int NDigits) {
  if (!std::isfinite(X) || X == 0)
    return X;
  // Python: beyond these bounds the value is returned unchanged / as 0.
  if (NDigits > 323)
    return X;
  if (NDigits < -308)
    return std::copysign(0.0, X);
  if (NDigits >= 0) {
    // glibc printf is exact and rounds ties to even on the exact value,
    // which is what Python's dtoa mode 3 does.
    std::vector<char> Buf(static_cast<size_t>(NDigits) + 400);
    std::snprintf(Buf.data(), Buf.size(), "%.*f", NDigits, X);
    double R = std::strtod(Buf.data(), nullptr);
    return R;
  }
  std::vector<char> Buf(1500);
  std::snprintf(Buf.data(), Buf.size(), "%.1100f", X);
  double R = roundDecimalString(Buf.data(), -NDigits);
  if (R == 0)
    return std::copysign(0.0, X);
  return R;
}

double tl::pyRoundInt(double X) {
  if (!std::isfinite(X))
    return X;
  return std::nearbyint(X); // default rounding mode: ties to even
}

std::string tl::pyReprString(llvm::StringRef S) {
  std::string Out;
  appendPyReprString(Out, S);
  return Out;
}

void tl::appendPyReprString(std::string &Out, llvm::StringRef S) {
  bool HasSingle = S.contains('\'');
  bool HasDouble = S.contains('"');
  char Q = (HasSingle && !HasDouble) ? '"' : '\'';
  Out.reserve(Out.size() + S.size() + 2);
  Out += Q;
  const char *P = S.data(), *E = S.data() + S.size();
  while (P < E) {
    // Copy the run of characters that need no escape in one append.
    const char *Run = P;
    while (P < E && static_cast<unsigned char>(*P) >= 0x20 &&
           static_cast<unsigned char>(*P) < 0x7f && *P != '\\' && *P != Q)
      ++P;
    if (P != Run)
      Out.append(Run, P);
    if (P == E)
      break;
    unsigned char C = static_cast<unsigned char>(*P);
    if (C < 0x80) {
      ++P;
      if (C == '\\')
        Out += "\\\\";
      else if (C == static_cast<unsigned char>(Q))
        (Out += '\\') += static_cast<char>(C);
      else if (C == '\n')
        Out += "\\n";
      else if (C == '\t')
        Out += "\\t";
      else if (C == '\r')
        Out += "\\r";
      else if (C < 0x20 || C == 0x7f) {
        char B[8];
        std::snprintf(B, sizeof(B), "\\x%02x", C);
        Out += B;
      } else
        Out += static_cast<char>(C);
      continue;
    }
    // Multi-byte UTF-8: keep printable characters as is; Latin-1
    // non-printables (C1 controls, NBSP, soft hyphen) become \xNN.
    llvm::UTF32 CP = 0;
    const llvm::UTF8 *Src = reinterpret_cast<const llvm::UTF8 *>(P);
    llvm::UTF32 *Dst = &CP;
    unsigned Len = llvm::getNumBytesForUTF8(C);
    if (P + Len > E ||
        llvm::ConvertUTF8toUTF32(&Src,
                                 reinterpret_cast<const llvm::UTF8 *>(P + Len),
                                 &Dst, Dst + 1,
                                 llvm::strictConversion) != llvm::conversionOK) {
      // Invalid byte (Python would have failed decoding); escape it.
      char B[8];
      std::snprintf(B, sizeof(B), "\\x%02x", C);
      Out += B;
      ++P;
      continue;
    }
    if ((CP >= 0x80 && CP <= 0xa0) || CP == 0xad) {
      char B[8];
      std::snprintf(B, sizeof(B), "\\x%02x", static_cast<unsigned>(CP));
      Out += B;
    } else {
      Out.append(P, Len);
    }
    P += Len;
  }
  Out += Q;
}

std::string tl::jsonNumber(double D) {
  if (std::isnan(D))
    return "NaN";
  if (std::isinf(D))
    return D < 0 ? "-Infinity" : "Infinity";
  return pyRepr(D);
}

std::string tl::jsonNumber(int64_t I) { return std::to_string(I); }
