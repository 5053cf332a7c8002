//===- Stats.h - numpy/pandas-compatible statistics -----------*- C++ -*-===//
//
// Reference tables print float statistics computed by numpy/pandas; these
// helpers reproduce their summation order so results match bit for bit.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_STATS_H
#define TL_SUPPORT_STATS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace tl {

/// numpy's pairwise_sum on one contiguous block (8 accumulators, 128-element
/// leaves); the caller supplies the starting value 0.0.
double numpyPairwiseSum(llvm::ArrayRef<double> A);
/// np.add.reduce / np.sum of a 1-D float64 array.
double numpySum(llvm::ArrayRef<double> A);
/// np.mean: sum / n (NaN when empty).
double numpyMean(llvm::ArrayRef<double> A);
/// np.std(ddof) / pandas Series.std(ddof): sqrt(sum((x-mean)^2)/(n-ddof));
/// NaN when n <= ddof.
double numpyStd(llvm::ArrayRef<double> A, int Ddof = 0);
/// pandas groupby std (Welford's online update, pandas' group_var);
/// NaN when n <= ddof.
double pandasGroupStd(llvm::ArrayRef<double> A, int Ddof = 1);
// pandas groupby sum/mean/median (Kahan) live in PandasStats.h.
/// np.round(x, decimals): rint(x * 10^d) / 10^d (ties to even on the
/// scaled double, unlike Python's round()).
double numpyRound(double X, int Decimals);
/// np.median: middle value, or (a+b)/2 for an even count (NaN when empty).
double numpyMedian(llvm::ArrayRef<double> A);
double minOf(llvm::ArrayRef<double> A);
double maxOf(llvm::ArrayRef<double> A);

/// np.histogram(values, Bins) with uniform bins.
struct Histogram {
  std::vector<double> Edges;   // Bins + 1 edges
  std::vector<int64_t> Counts; // Bins counts
};
/// Empty input gives edges over [0, 1] (numpy's default range) and zeros.
Histogram numpyHistogram(llvm::ArrayRef<double> Values, unsigned Bins);

} // namespace tl

#endif // TL_SUPPORT_STATS_H
