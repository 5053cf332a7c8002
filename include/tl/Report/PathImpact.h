//===- PathImpact.h - How much of a finding's time is on the critical path ===//
//
// A saving off the critical path does not shorten the step. A finding that
// names the events its time comes from (Finding::Events) gets its on-path
// share: the events' own time on the critical path over their duration.
// Its expected step-time saving is the old saving estimate times that share
// (first order: the path may move once the work shrinks). The ranking
// across tiers uses it (docs/ReportFormat.md, "Path impact").
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_PATHIMPACT_H
#define TL_REPORT_PATHIMPACT_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace tl {

class CriticalPath;
class Trace;

struct PathShare {
  /// Σ over the distinct events of their own time on the critical path.
  double OnPathUs = 0;
  /// Σ of their durations.
  double EventUs = 0;
  double share() const { return EventUs > 0 ? OnPathUs / EventUs : 0; }
};

/// The share of Events (EventIds; repeats counted once); nullopt when
/// there are none or their durations sum to 0.
std::optional<PathShare> pathShareOf(llvm::ArrayRef<uint32_t> Events,
                                     const Trace &T, const CriticalPath &CP);

} // namespace tl

#endif // TL_REPORT_PATHIMPACT_H
