//===- SvgWriter.h - Shared pieces of the hand-written SVG charts -*- C++ -*-===//
//
// The document header every chart starts with and the number format of its
// coordinates; text always goes through htmlText (escaped, control
// characters removed).
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_CHARTS_SVGWRITER_H
#define TL_LIB_REPORT_CHARTS_SVGWRITER_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class raw_ostream;
}

namespace tl {

/// Coordinates with two decimals.
std::string svgNum(double V);
/// XML prolog, <svg> with size and viewBox, <title>, white background.
void svgBegin(llvm::raw_ostream &OS, int W, int H, llvm::StringRef Title);
/// Bold centred title at the top of a W-wide chart.
void svgHeading(llvm::raw_ostream &OS, int W, llvm::StringRef Title);

} // namespace tl

#endif // TL_LIB_REPORT_CHARTS_SVGWRITER_H
