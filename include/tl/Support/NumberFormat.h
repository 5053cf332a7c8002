//===- NumberFormat.h - Numbers as JSON attributes or text -----*- C++ -*-===//
//
// Small formatting helpers the passes and analyses share when they write
// their JSON blocks and finding messages.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_NUMBERFORMAT_H
#define TL_SUPPORT_NUMBERFORMAT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tl {

/// Writes `"Key": V` with V as json.dumps writes a float (see jsonNumber).
void jsonNumAttr(llvm::json::OStream &J, llvm::StringRef Key, double V);

/// The shortest text that reads back to exactly D (std::to_chars; "inf",
/// "nan" for those).
void writeShortest(llvm::raw_ostream &OS, double D);

/// printf-style text of one double, e.g. printfDouble("%.2f", 1.005).
std::string printfDouble(const char *Format, double V);

/// A duration for prose: "1234.5 ms" (>= 100 ms), "12.35 ms" (>= 1 ms),
/// "0.123 ms" below; exact zero "0 ms".
std::string readableMs(double Ms);

/// A share for prose, one decimal: "12.3%"; one significant digit below
/// 0.05 ("0.01%"), so a small share does not read as zero.
std::string readablePct(double Pct);

} // namespace tl

#endif // TL_SUPPORT_NUMBERFORMAT_H
