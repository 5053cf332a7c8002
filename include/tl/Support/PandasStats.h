//===- PandasStats.h - pandas groupby reductions ---------------*- C++ -*-===//
//
// pandas' groupby sum and mean (group_add / group_mean) use Kahan
// compensated summation; these reproduce them so table cells match the
// reference to the last bit. (Series.sum is numpy's pairwise sum: Stats.h.)
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_PANDASSTATS_H
#define TL_SUPPORT_PANDASSTATS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <vector>

namespace tl {

/// groupby(...).sum(): Kahan sum, NaN skipped, 0 for no values.
double pandasGroupSum(llvm::ArrayRef<double> A);
/// groupby(...).mean(): Kahan sum / count of non-NaN (NaN when none).
double pandasGroupMean(llvm::ArrayRef<double> A);
/// groupby(...).median(): NaN skipped; middle or mean of the two middles.
double pandasGroupMedian(llvm::ArrayRef<double> A);

/// Row order of DataFrame.sort_values(by=<one float column>, ascending=A):
/// pandas' nargsort with numpy's (unstable) introsort argsort, including
/// its reversal trick for descending order and NaNs last. Ties come out in
/// exactly the order the reference prints them.
std::vector<size_t> pandasSortValuesOrder(llvm::ArrayRef<double> Keys,
                                          bool Ascending);

/// numpy argsort(kind='quicksort') of float64 values (introsort: median of
/// three, insertion sort below 17 elements, heapsort fallback).
std::vector<size_t> numpyQuickArgsort(llvm::ArrayRef<double> V);

} // namespace tl

#endif // TL_SUPPORT_PANDASSTATS_H
