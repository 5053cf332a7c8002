//===- PyFormat.h - Python-compatible number/string formatting -*- C++ -*-===//
//
// The reference's CSV/JSON outputs are Python text; these helpers reproduce
// float repr, round() and string repr exactly.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_PYFORMAT_H
#define TL_SUPPORT_PYFORMAT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tl {

/// Python repr(float): shortest round-trip digits; fixed notation when the
/// decimal exponent is in [-4, 16), else "1e-05" / "1.2e+16"; integral values
/// get ".0"; "nan", "inf", "-inf".
std::string pyRepr(double D);

/// Python round(x, ndigits): correctly rounded, ties to even on the exact
/// binary value (round(2.675, 2) == 2.67, round(0.125, 2) == 0.12).
double pyRound(double X, int NDigits);

/// Python round(x) with no ndigits: nearest integer, ties to even.
double pyRoundInt(double X);

/// Python repr(str): single quotes unless the text has ' and no ".
std::string pyReprString(llvm::StringRef S);
/// Out += pyReprString(S), without the temporary.
void appendPyReprString(std::string &Out, llvm::StringRef S);

/// json.dumps of a float: repr, with NaN / Infinity / -Infinity.
std::string jsonNumber(double D);
std::string jsonNumber(int64_t I);

/// json.dumps(S) of a string with the default ensure_ascii=True.
std::string jsonString(llvm::StringRef S);


} // namespace tl

#endif // TL_SUPPORT_PYFORMAT_H
