//===- NumberFormat.cpp - Numbers written as JSON attributes or text ------===//
#include "tl/Support/NumberFormat.h"

#include "tl/Support/PyFormat.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>

void tl::jsonNumAttr(llvm::json::OStream &J, llvm::StringRef Key, double V) {
  J.attributeBegin(Key);
  J.rawValue(jsonNumber(V));
  J.attributeEnd();
}

void tl::writeShortest(llvm::raw_ostream &OS, double D) {
  char Buf[64];
  auto R = std::to_chars(Buf, Buf + sizeof(Buf), D);
  OS.write(Buf, size_t(R.ptr - Buf));
}

std::string tl::printfDouble(const char *Format, double V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format(Format, V);
  return S;
}

std::string tl::readableMs(double Ms) {
  if (Ms == 0)
    return "0 ms";
  double A = Ms < 0 ? -Ms : Ms;
  return printfDouble(A >= 100 ? "%.1f" : A >= 1 ? "%.2f" : "%.3f", Ms) +
         " ms";
}

std::string tl::readablePct(double Pct) {
  // Below 0.05 one decimal would print a non-zero share as 0.0.
  if (Pct != 0 && Pct > -0.05 && Pct < 0.05)
    return printfDouble("%.1g", Pct) + "%";
  std::string S = printfDouble("%.1f", Pct);
  if (S == "-0.0")
    S = "0.0";
  return S + "%";
}
