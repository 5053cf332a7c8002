//===- LaunchStats.h - Kernel launch latency and idle causes ---*- C++ -*-===//
//
// For the cpu-idle pass: per linked kernel, the launch latency (runtime
// launch start -> GPU start) and the host cost of the launch call; and the
// idle gaps of the GPU timeline, each split by what the host did meanwhile:
// waiting in a synchronize call, busy dispatching (CPU ops / runtime calls:
// launch-bound), or nothing the profiler saw (data loading, Python).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_LAUNCHSTATS_H
#define TL_ANALYSIS_LAUNCHSTATS_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// Launch numbers of one kernel name.
struct KernelLaunchStats {
  std::string Name;
  uint64_t Count = 0;
  double TotalKernelUs = 0, TotalLatencyUs = 0, TotalLaunchCallUs = 0;
  /// Instances whose GPU time is shorter than the host launch call.
  uint64_t ShorterThanLaunch = 0;
};

/// One idle gap of the linked GPU timeline.
struct IdleGap {
  double Start = 0, End = 0;
  double SyncUs = 0, LaunchUs = 0, NoHostUs = 0;
  EventId KernelBefore = NoEvent, KernelAfter = NoEvent;
  /// Innermost CPU op that launched KernelAfter (NoEvent: none).
  EventId OpAfter = NoEvent;
  double length() const { return End - Start; }
};

class LaunchStats {
public:
  static constexpr llvm::StringLiteral Name = "launch-stats";
  LaunchStats(const Trace &T, AnalysisManager &AM);

  uint64_t kernelCount() const { return Kernels; }
  double totalKernelUs() const { return KernelUs; }
  double meanLatencyUs() const { return Kernels ? LatencyUs / Kernels : 0; }
  double medianLatencyUs() const { return MedianLatency; }
  double p90LatencyUs() const { return P90Latency; }
  uint64_t shorterThanLaunch() const { return Shorter; }
  /// Kernels shorter than ShortUs (10 µs, the short-kernel threshold).
  uint64_t shortKernels() const { return Short; }
  /// Kernels launched per second of host span (first to last launch).
  double launchRatePerSec() const { return Rate; }
  /// Per kernel name, by count desc then name.
  llvm::ArrayRef<KernelLaunchStats> perKernel() const { return PerKernel; }

  /// Gaps in time order; totals per cause.
  llvm::ArrayRef<IdleGap> gaps() const { return Gaps; }
  double idleSyncUs() const { return SyncUs; }
  double idleLaunchUs() const { return LaunchUs; }
  double idleNoHostUs() const { return NoHostUs; }

private:
  uint64_t Kernels = 0, Shorter = 0, Short = 0;
  double KernelUs = 0, LatencyUs = 0, MedianLatency = 0, P90Latency = 0,
         Rate = 0;
  std::vector<KernelLaunchStats> PerKernel;
  std::vector<IdleGap> Gaps;
  double SyncUs = 0, LaunchUs = 0, NoHostUs = 0;
};

} // namespace tl

#endif // TL_ANALYSIS_LAUNCHSTATS_H
