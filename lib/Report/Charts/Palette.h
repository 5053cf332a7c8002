//===- Palette.h - The one colour palette of the report's charts -*- C++ -*-===//
//
// Every SVG chart takes its colours from here so a category, communication
// or idle time looks the same in every chart. The categorical palette is
// Okabe-Ito (colour-blind safe) extended with Tableau 10 and Paul Tol
// colours that stay distinguishable from it; none of its colours is one of
// the fixed series colours below, so a chart never shows one colour twice.
// docs/ReportFormat.md, "Charts".
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_CHARTS_PALETTE_H
#define TL_LIB_REPORT_CHARTS_PALETTE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace tl {
namespace palette {

/// Categorical colours in order of use; a chart with more series than this
/// groups the smallest into one "other" series (OtherColor).
inline llvm::ArrayRef<llvm::StringLiteral> categorical() {
  static constexpr llvm::StringLiteral Colors[] = {
      "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#F0E442",
      "#882255", "#76B7B2", "#59A14F", "#B07AA1", "#9C755F", "#FF9DA7",
      "#332288", "#117733"};
  return Colors;
}

/// Fixed series colours, outside the categorical list.
constexpr llvm::StringLiteral Communication = "#D55E00"; // Okabe-Ito vermillion
constexpr llvm::StringLiteral NonComputing = "#BAB0AC";
constexpr llvm::StringLiteral Other = "#7F7F7F";
constexpr llvm::StringLiteral Idle = "#ECF0F1";
/// Timeline series (one chart with computation, communication, memcpy).
constexpr llvm::StringLiteral Computation = "#0072B2";
constexpr llvm::StringLiteral Memcpy = "#009E73";

} // namespace palette
} // namespace tl

#endif // TL_LIB_REPORT_CHARTS_PALETTE_H
