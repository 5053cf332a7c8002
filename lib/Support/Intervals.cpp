//===- Intervals.cpp - interval unions for GPU busy time --------------------===//
#include "tl/Support/Intervals.h"

#include <algorithm>

using namespace tl;

std::vector<Interval> tl::mergeIntervals(std::vector<Interval> I) {
  // The union does not depend on the order of equal starts, so an unstable
  // sort (no buffer) will do; merged runs are written over the input.
  // Callers mostly pass events in time order: sort only when needed.
  auto ByStart = [](const Interval &A, const Interval &B) {
    return A.Start < B.Start;
  };
  if (!std::is_sorted(I.begin(), I.end(), ByStart))
    std::sort(I.begin(), I.end(), ByStart);
  size_t N = 0;
  for (size_t K = 0; K < I.size(); ++K) {
    const Interval X = I[K];
    if (N && X.Start <= I[N - 1].End)
      I[N - 1].End = std::max(I[N - 1].End, X.End);
    else
      I[N++] = X;
  }
  I.resize(N);
  if (N < I.capacity() / 2)
    I.shrink_to_fit();
  return I;
}

std::vector<Interval> tl::subtractIntervals(const std::vector<Interval> &A,
                                            const std::vector<Interval> &B) {
  std::vector<Interval> Out;
  size_t J = 0;
  for (const Interval &BI : B) {
    double Cur = BI.Start;
    // Skip A intervals that end before this B interval starts.
    while (J < A.size() && A[J].End <= BI.Start)
      ++J;
    size_t K = J;
    while (K < A.size() && A[K].Start < BI.End) {
      if (A[K].Start > Cur)
        Out.push_back({Cur, A[K].Start});
      Cur = std::max(Cur, A[K].End);
      if (Cur >= BI.End)
        break;
      ++K;
    }
    if (Cur < BI.End)
      Out.push_back({Cur, BI.End});
  }
  return Out;
}

double tl::totalLength(const std::vector<Interval> &S) {
  double Sum = 0;
  for (const Interval &X : S)
    Sum += X.End - X.Start;
  return Sum;
}

double tl::busyTime(std::vector<Interval> I) {
  return totalLength(mergeIntervals(std::move(I)));
}
