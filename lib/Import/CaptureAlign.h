//===- CaptureAlign.h - Capture launches vs replayed kernels ----*- C++ -*-===//
//
// Pairs the launch calls recorded while a GPU graph was captured with the
// kernels one replay of it ran (spec/tracelens-inference.md §C.6).
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_IMPORT_CAPTUREALIGN_H
#define TL_LIB_IMPORT_CAPTUREALIGN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl {

/// A launch call of the capture: its event name and `args.kernel` (ROCm's
/// runtime events carry the kernel name; absent elsewhere).
struct CaptureLaunch {
  llvm::StringRef Name;
  std::optional<llvm::StringRef> Kernel;
  llvm::StringRef kernelName() const { return Kernel ? *Kernel : Name; }
};

/// A replayed GPU event of the graph launch (ts order).
struct ReplayedKernel {
  llvm::StringRef Name;
  std::optional<int64_t> Stream;
};

enum class AlignCode : uint8_t {
  Failed,      // code 0: no alignment, the pair is skipped
  Equal,       // code 1: same length, names equal position by position
  Greedy,      // code 2: extra capture launches skipped
  Grouped,     // code 3: same names and counts, reordered by name
  MultiStream, // several streams, matched per stream queue
  /// Several streams and a capture kernel launch without a kernel name:
  /// the reference then drops the whole merge (§E.7).
  MultiStreamUnnamed,
};

struct AlignResult {
  AlignCode Code = AlignCode::Failed;
  /// (replayed kernel index, capture launch index) pairs.
  std::vector<std::pair<uint32_t, uint32_t>> Pairs;
  /// Equal-length launches without a kernel name, not Memcpy/Memset, so not
  /// checked (the reference warns).
  uint32_t Unchecked = 0;
  /// Why it failed (for the warning).
  std::string Why;
};

/// The reference's names_match(c, g).
bool captureNamesMatch(const CaptureLaunch &C, llvm::StringRef Replayed);

/// Align the capture launches with the replayed kernels (both in ts order).
AlignResult alignCapture(llvm::ArrayRef<CaptureLaunch> Cap,
                         llvm::ArrayRef<ReplayedKernel> Graph);

} // namespace tl

#endif // TL_LIB_IMPORT_CAPTUREALIGN_H
