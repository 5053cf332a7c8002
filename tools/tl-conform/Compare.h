//===- Compare.h - Table comparison for tl-conform ------------*- C++ -*-===//
#ifndef TL_CONFORM_COMPARE_H
#define TL_CONFORM_COMPARE_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tl::conform {

/// Tolerances: numbers are equal when |a-b| <= max(Abs, Rel * max(|a|,|b|)).
/// Strict (tl-conform --strict) adds the reference comparator's rules:
/// |a-b| < 1e-6 for plain numbers, exact numbers inside literals, and the
/// missing-value text itself ('' vs 'None' vs 'nan') must agree.
struct Tolerance {
  double Rel = 1e-6;
  double Abs = 1e-9;
  bool Strict = false;
};

/// True for cells pandas reads as missing ("", "nan", "NaN", "None").
bool isNA(llvm::StringRef Cell);

/// Compare two cells: numbers with tolerance; other text as Python literals
/// (np.float64(x) -> x, quote style and spacing ignored, numbers inside
/// with tolerance); falls back to exact text. Updates MaxRel with the
/// largest relative difference of any number compared.
bool cellsEqual(llvm::StringRef Ours, llvm::StringRef Ref, const Tolerance &Tol,
                double &MaxRel);

/// Canonical text of a key cell (NA -> "<NA>", numbers -> repr of the
/// double, literals -> normalized token text).
std::string canonicalKey(llvm::StringRef Cell);

/// Key columns of a reference table (by file stem) given its header.
std::vector<std::string> keyColumns(llvm::StringRef Table,
                                    const std::vector<std::string> &Header);

/// Strict row order: the column whose equal values make tied rows, compared
/// as a set, or "" when the reference's row order is compared exactly.
std::string tieColumn(llvm::StringRef Table);

} // namespace tl::conform

#endif // TL_CONFORM_COMPARE_H
