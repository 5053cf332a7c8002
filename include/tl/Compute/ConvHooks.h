//===- ConvHooks.h - Convolution specifics of the compute tier -*- C++ -*-===//
//
// The conv pass's hooks (tracelens-analysis §6.4): category_specific with the
// transpose overhead (time in ops whose name contains "transpose") and a
// resolution that picks channels-last when that overhead is high. In the
// library so that unit tests can run them on hand-made tables.
//
//===----------------------------------------------------------------------===//
#ifndef TL_COMPUTE_CONVHOOKS_H
#define TL_COMPUTE_CONVHOOKS_H

#include "tl/Compute/CategoryAnalyzer.h"

namespace tl::compute {

struct TransposeFacts {
  int64_t Count = 0;
  double TimeMs = 0, OverheadPct = 0;
};

/// transpose_count, transpose_time_ms (round 3) and
/// transpose_overhead_percent (round 2, of the category time) of §6.4.
TransposeFacts transposeOf(const CategoryResult &R);

/// Hooks of the conv pass; a memory-bound group gets the channels-last
/// resolution when the transpose overhead exceeds ChannelsLastPct.
AnalyzerHooks convHooks(double ChannelsLastPct);

} // namespace tl::compute

#endif // TL_COMPUTE_CONVHOOKS_H
