//===- TraceStart.h - The origin of report times ----------------*- C++ -*-===//
//
// The report prints points in time as ms from the trace start: the
// smallest `ts` of any stored (complete `X`) event of the trace, host or
// GPU — what a trace viewer shows as 0. docs/ReportFormat.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_TRACESTART_H
#define TL_ANALYSIS_TRACESTART_H

namespace tl {

class Trace;

/// The smallest ts (µs) over the trace's events; 0 for an empty trace.
/// One pass over the events: call it once per emitter or pass.
double traceStartUs(const Trace &T);

} // namespace tl

#endif // TL_ANALYSIS_TRACESTART_H
