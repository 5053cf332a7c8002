//===- FusionInstances.h - The instances a fusion candidate really has -*- C++ -*-===//
//
// The reference counts every event with a candidate's base name as an
// instance and projects the first instance's kernels onto all of them
// (time = first instance x count). tl's own report measures instead: an
// instance counts when its kernels contain the candidate's kernel
// sequence (same names, in launch order, contiguous), and it contributes
// its own kernel durations and its own input shape. A kernel is claimed by
// one instance at most, so nested modules of one name are not counted
// twice.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_FUSIONINSTANCES_H
#define TL_ANALYSIS_FUSIONINSTANCES_H

#include "tl/Analysis/FusionCandidates.h"

#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace tl {

struct FusionInstance {
  EventId Root = NoEvent;
  /// One duration per kernel of the candidate, in its order.
  std::vector<double> DurUs;
  /// The kernels those durations are of (path impact, Finding::Events).
  std::vector<EventId> Kernels;
  /// The instance's own first input shape (perf-table lookups).
  KernelPerfLookup::Shape Shape;
  double timeUs() const {
    double S = 0;
    for (double D : DurUs)
      S += D;
    return S;
  }
};

/// The instances of C whose kernels contain C's kernel sequence, in the
/// order C counted them. Kernels in Claimed (those of estimates reported
/// before this one) are not counted again; the kernels used are added.
std::vector<FusionInstance>
measureFusionInstances(const Trace &T, const FusionCandidate &C,
                       llvm::DenseSet<EventId> &Claimed);

} // namespace tl

#endif // TL_ANALYSIS_FUSIONINSTANCES_H
