//===- PerfSheetsUtil.h - pandas-style group aggregates (internal) -*- C++ -*-===//
#ifndef TL_LIB_ANALYSIS_PERFSHEETSUTIL_H
#define TL_LIB_ANALYSIS_PERFSHEETSUTIL_H

#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Support/PandasStats.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/Stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace tl::detail {

inline constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

/// mean/median/std(ddof=1)/min/max/sum of the non-NaN values, as pandas'
/// groupby agg prints them (missing when there is no value; std missing for
/// a single value).
inline ColumnStats aggregate(const std::vector<double> &All) {
  std::vector<double> V;
  V.reserve(All.size());
  for (double D : All)
    if (!std::isnan(D))
      V.push_back(D);
  ColumnStats S;
  S.Sum = pandasGroupSum(V);
  if (V.empty())
    return S;
  S.Mean = pandasGroupMean(V);
  if (V.size() > 1)
    S.Std = pandasGroupStd(V, 1);
  S.Min = minOf(V);
  S.Max = maxOf(V);
  // pandasGroupMedian's value by selection instead of a full sort (groups
  // of a GB trace hold up to millions of rows); V's order is not needed
  // any more.
  size_t N = V.size(), H = N / 2;
  std::nth_element(V.begin(), V.begin() + H, V.end());
  double Hi = V[H];
  S.Median = N % 2 ? Hi
                   : (*std::max_element(V.begin(), V.begin() + H) + Hi) / 2.0;
  return S;
}

/// First non-NaN value.
inline std::optional<double> firstOf(const std::vector<double> &All) {
  for (double D : All)
    if (!std::isnan(D))
      return D;
  return std::nullopt;
}

/// A float cell: Python repr, empty when missing or NaN.
inline std::string cell(std::optional<double> D) {
  if (!D || std::isnan(*D))
    return "";
  return pyRepr(*D);
}
inline std::string cell(double D) {
  return std::isnan(D) ? std::string() : pyRepr(D);
}

} // namespace tl::detail

#endif
