//===- SortRuns.h - Sort a sequence of a few ascending runs ----*- C++ -*-===//
//
// Trace data is mostly in order already: each thread's host events are
// written in time order, a module's kernels in GPU tree order are in launch
// order but for a few blocks. Merging those runs is linear; sorting is not.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_SORTRUNS_H
#define TL_SUPPORT_SORTRUNS_H

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tl {

/// Sort [First, Last) by Less, a strict total order (so the result is the
/// sort's whatever the path). When the range is at most MaxRuns ascending
/// runs and no merge needs a buffer of more than MaxMergeBuffer elements
/// (std::inplace_merge takes the smaller side's size), the runs are merged
/// from the left; otherwise it is sorted in place.
template <typename RandomIt, typename Compare>
void sortFewRuns(RandomIt First, RandomIt Last, Compare Less,
                 size_t MaxMergeBuffer = SIZE_MAX) {
  constexpr size_t MaxRuns = 8;
  size_t N = size_t(Last - First);
  llvm::SmallVector<size_t, MaxRuns + 1> Starts{0};
  for (size_t I = 1; I < N; ++I)
    if (Less(First[I], First[I - 1])) {
      if (Starts.size() == MaxRuns) {
        std::sort(First, Last, Less);
        return;
      }
      Starts.push_back(I);
    }
  Starts.push_back(N);
  for (size_t R = 1; R + 1 < Starts.size(); ++R)
    if (std::min(Starts[R], Starts[R + 1] - Starts[R]) > MaxMergeBuffer) {
      std::sort(First, Last, Less);
      return;
    }
  for (size_t R = 1; R + 1 < Starts.size(); ++R)
    std::inplace_merge(First, First + Starts[R], First + Starts[R + 1], Less);
}

} // namespace tl

#endif // TL_SUPPORT_SORTRUNS_H
