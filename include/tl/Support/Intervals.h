//===- Intervals.h - interval unions for GPU busy time --------*- C++ -*-===//
#ifndef TL_SUPPORT_INTERVALS_H
#define TL_SUPPORT_INTERVALS_H

#include <vector>

namespace tl {

struct Interval {
  double Start = 0;
  double End = 0;
  friend bool operator==(const Interval &A, const Interval &B) {
    return A.Start == B.Start && A.End == B.End;
  }
};

/// Sort by start and sweep; touching intervals (start <= last end) merge.
/// Result is sorted and disjoint.
std::vector<Interval> mergeIntervals(std::vector<Interval> I);

/// B minus A, both already merged and sorted: the parts of each B interval
/// not covered by A. Zero-length pieces are never emitted.
std::vector<Interval> subtractIntervals(const std::vector<Interval> &A,
                                        const std::vector<Interval> &B);

/// Sum of (End - Start), left to right.
double totalLength(const std::vector<Interval> &S);

/// Union length of unmerged intervals: totalLength(mergeIntervals(I)).
double busyTime(std::vector<Interval> I);

} // namespace tl

#endif // TL_SUPPORT_INTERVALS_H
