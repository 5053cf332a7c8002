//===- CaptureMerge.h - Graph-capture traces into a replay trace -*- C++ -*-===//
//
// Kernels replayed from a GPU graph hang under one cudaGraphLaunch /
// hipGraphLaunch with no op, shapes, call stack or module. The capture
// merge (spec/tracelens-inference.md §C) copies the host subtree recorded
// while the graph was captured under the graph launch and re-parents each
// replayed kernel under its capture-time launch call, so everything
// downstream sees the replayed kernels like eager ones. docs/Inference.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IMPORT_CAPTUREMERGE_H
#define TL_IMPORT_CAPTUREMERGE_H

#include "tl/IR/Trace.h"
#include "tl/Import/Importer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

struct CaptureMergeResult {
  /// Iteration annotations that hold graph launches.
  uint64_t ExecutionRoots = 0;
  /// Graph launches with GPU events in the trace, and how many got their
  /// capture context.
  uint64_t GraphLaunches = 0;
  uint64_t MergedLaunches = 0;
  /// Replayed GPU events re-parented under capture launch calls, and the
  /// capture host events copied into the trace.
  uint64_t ReplayedKernels = 0;
  uint64_t CopiedEvents = 0;
  /// Graph launches in the trace that no execution root covers.
  uint64_t UncoveredLaunches = 0;
  /// Mismatches and skipped launches, one line each (with counts).
  std::vector<std::string> Warnings;
};

/// Merge the capture traces of Folder (with its execution_details.json)
/// into T. Folder errors (not a directory, malformed details file) are
/// errors naming the file; every mismatch is a warning in the result, and T
/// then keeps those graph launches' kernels as they were. Capture traces
/// are imported with Opts.
llvm::Expected<CaptureMergeResult>
mergeCaptureFolder(Trace &T, llvm::StringRef Folder,
                   const ImportOptions &Opts = {});

} // namespace tl

#endif // TL_IMPORT_CAPTUREMERGE_H
