//===- StreamIdle.h - HTA's idle time breakdown per stream ------*- C++ -*-===//
//
// Spec multi-rank.md §6, HTA get_idle_time_breakdown(
// consecutive_kernel_delay=30): per rank and GPU stream, the gap before
// each GPU event since the previous event on the stream ended is
// host_wait when the event's launch started after that end (the CPU was
// late), else kernel_wait when shorter than 30 us, else other (waiting on
// another stream, an event or a collective). A stream's first event has no
// gap. Computed while the rank's IR is alive, kept in its RankSummary,
// written as out/multirank/idle_by_stream.csv. docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_STREAMIDLE_H
#define TL_DRIVER_STREAMIDLE_H

#include "tl/Report/CsvTable.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

class Trace;
struct RankSummary;

/// HTA's consecutive_kernel_delay (µs, although its docstring says ns).
constexpr double HtaKernelWaitUs = 30;

/// One stream's idle time by category (µs).
struct StreamIdle {
  int64_t Stream = -1;
  double HostWaitUs = 0, KernelWaitUs = 0, OtherUs = 0;
  double totalUs() const { return HostWaitUs + KernelWaitUs + OtherUs; }
};

/// The breakdown of T's GPU events (kernels, memcpys, memsets), streams
/// ascending.
std::vector<StreamIdle> computeStreamIdle(const Trace &T);

/// idle_by_stream.csv: rank, stream, idle_category, idle_time,
/// idle_time_ratio; per rank and stream the three categories (ratio of the
/// stream's idle time, 2 digits; empty when the stream has none).
CsvTable idleByStreamTable(llvm::ArrayRef<RankSummary> Ranks);

/// The analysis.md sentence: the categories over every rank and stream,
/// and the stream with the most idle time ("" without GPU events).
std::string streamIdleMarkdown(llvm::ArrayRef<RankSummary> Ranks);

} // namespace tl

#endif // TL_DRIVER_STREAMIDLE_H
