//===- TraceWindow.h - The --steps window an IR holds -----------*- C++ -*-===//
//
// After restrictTrace() (tl/Import/TraceRestrict.h) a Trace holds a window
// of the recorded trace: the events of the ProfilerSteps --steps selected.
// The window says what was asked and what it covers, for the report.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IR_TRACEWINDOW_H
#define TL_IR_TRACEWINDOW_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tl {

class Trace;

struct TraceWindow {
  /// As given: "3..7", "last:4", "steady".
  std::string Spec;
  /// The selected ProfilerStep numbers in order, and every step of the
  /// recorded trace.
  std::vector<int64_t> Steps, AllSteps;
  /// Host events kept: ts in [HostStart, HostEnd) (the CPU ranges of the
  /// first and last selected steps), µs.
  double HostStart = 0, HostEnd = 0;
  /// The first selected step's window start and the last one's end (spec
  /// multi-rank.md §2.4 W(N)), measured on the recorded trace.
  double GpuStart = 0, GpuEnd = 0;
  /// Steps of the recorded trace the step checks flag: (number, "warm-up",
  /// "outlier" or "truncated"), kept or left out.
  std::vector<std::pair<int64_t, std::string>> Flags;
  /// The steady-state rule's median step time and tolerance on the
  /// recorded trace (µs), and whether it had too few steps to apply.
  double SteadyMedian = 0, SteadyTol = 0;
  bool SteadyTooFew = false;
  /// Work left from before the recording overlaps the recorded trace's
  /// first step (StepWindows::PartialStart).
  bool PartialStart = false;
  /// Events of the recorded trace (the IR keeps a subset).
  uint64_t RecordedEvents = 0;
};

/// The window T was restricted to; null for a whole trace.
const TraceWindow *traceWindow(const Trace &T);

} // namespace tl

#endif // TL_IR_TRACEWINDOW_H
