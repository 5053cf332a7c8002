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

namespace tl {

/// Writes `"Key": V` with V as json.dumps writes a float (see jsonNumber).
void jsonNumAttr(llvm::json::OStream &J, llvm::StringRef Key, double V);

/// printf-style text of one double, e.g. printfDouble("%.2f", 1.005).
std::string printfDouble(const char *Format, double V);

} // namespace tl

#endif // TL_SUPPORT_NUMBERFORMAT_H
