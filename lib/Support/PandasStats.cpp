//===- PandasStats.cpp - pandas groupby reductions -----------------------===//
#include "tl/Support/PandasStats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace tl;

static double kahan(llvm::ArrayRef<double> A, size_t &N) {
  double Sum = 0, Comp = 0;
  N = 0;
  for (double V : A) {
    if (std::isnan(V))
      continue;
    ++N;
    double Y = V - Comp;
    double T = Sum + Y;
    Comp = (T - Sum) - Y;
    Sum = T;
  }
  return Sum;
}

double tl::pandasGroupSum(llvm::ArrayRef<double> A) {
  size_t N;
  return kahan(A, N);
}

double tl::pandasGroupMean(llvm::ArrayRef<double> A) {
  size_t N;
  double S = kahan(A, N);
  if (!N)
    return std::numeric_limits<double>::quiet_NaN();
  return S / double(N);
}

double tl::pandasGroupMedian(llvm::ArrayRef<double> A) {
  std::vector<double> S;
  for (double V : A)
    if (!std::isnan(V))
      S.push_back(V);
  if (S.empty())
    return std::numeric_limits<double>::quiet_NaN();
  std::sort(S.begin(), S.end());
  size_t N = S.size();
  if (N % 2)
    return S[N / 2];
  return (S[N / 2 - 1] + S[N / 2]) / 2.0;
}
