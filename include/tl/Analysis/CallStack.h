//===- CallStack.h - Python call stacks of ops and kernels -----*- C++ -*-===//
//
// The agent reference's `entry_point` and `call_stack_full` columns of
// unified_perf_summary (perf report with --include_call_stack; see
// tracelens-analysis.md §2.3): host frames (python functions and cpu_ops,
// runtime events skipped) from the thread's root down to each kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_CALLSTACK_H
#define TL_ANALYSIS_CALLSTACK_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace tl {

/// Host frames above and including E (E itself only when it is a host
/// event), outermost first; runtime/driver events are skipped and every
/// frame name loses a trailing `_<digits>` ("nn.Module: Linear_0" ->
/// "nn.Module: Linear").
std::vector<std::string> hostFrames(const Trace &T, EventId E);

/// Python list literal of the frames root -> kernel for each of Kernels: a
/// flat list when every kernel has the same path, else the common prefix
/// followed by one sub-list per distinct tail; "Not found" when Kernels is
/// empty.
std::string callStackFull(const Trace &T, llvm::ArrayRef<EventId> Kernels);

/// Innermost `file.py(line): func` python frame above E, or "Not found".
std::string entryPoint(const Trace &T, EventId E);

} // namespace tl

#endif // TL_ANALYSIS_CALLSTACK_H
