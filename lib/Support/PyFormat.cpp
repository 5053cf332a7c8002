//===- PyFormat.cpp - Python-compatible number/string formatting -----------===//
#include "tl/Support/PyFormat.h"

#include "llvm/Support/ConvertUTF.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace tl;

std::string tl::pyRepr(double D) {
  if (std::isnan(D))
    return "nan";
  if (std::isinf(D))
    return D < 0 ? "-inf" : "inf";
  // Shortest round-trip digits in scientific form, e.g. "1.2345e+02".
  char Buf[64];
  auto R = std::to_chars(Buf, Buf + sizeof(Buf), D,
                         std::chars_format::scientific);
  std::string Sci(Buf, R.ptr);
  bool Neg = false;
  size_t Pos = 0;
  if (Sci[0] == '-') {
    Neg = true;
    Pos = 1;
  }
  size_t EPos = Sci.find('e');
  std::string Digits;
  for (size_t I = Pos; I < EPos; ++I)
    if (Sci[I] != '.')
      Digits.push_back(Sci[I]);
  int Exp = std::atoi(Sci.c_str() + EPos + 1);
  std::string Out = Neg ? "-" : "";
  int NDig = static_cast<int>(Digits.size());
  if (Exp >= -4 && Exp < 16) {
    if (Exp < 0) {
      Out += "0.";
      Out.append(static_cast<size_t>(-Exp - 1), '0');
      Out += Digits;
    } else if (NDig <= Exp + 1) {
      Out += Digits;
      Out.append(static_cast<size_t>(Exp + 1 - NDig), '0');
      Out += ".0";
    } else {
      Out += Digits.substr(0, Exp + 1);
      Out += '.';
      Out += Digits.substr(Exp + 1);
    }
    return Out;
  }
  Out += Digits[0];
  if (NDig > 1) {
    Out += '.';
    Out += Digits.substr(1);
  }
  char EBuf[16];
  std::snprintf(EBuf, sizeof(EBuf), "e%c%02d", Exp < 0 ? '-' : '+',
                Exp < 0 ? -Exp : Exp);
  Out += EBuf;
  return Out;
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
  bool HasSingle = S.contains('\'');
  bool HasDouble = S.contains('"');
  char Q = (HasSingle && !HasDouble) ? '"' : '\'';
  std::string Out;
  Out.reserve(S.size() + 2);
  Out += Q;
  const char *P = S.data(), *E = S.data() + S.size();
  while (P < E) {
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
  return Out;
}

std::string tl::jsonNumber(double D) {
  if (std::isnan(D))
    return "NaN";
  if (std::isinf(D))
    return D < 0 ? "-Infinity" : "Infinity";
  return pyRepr(D);
}

std::string tl::jsonNumber(int64_t I) { return std::to_string(I); }
