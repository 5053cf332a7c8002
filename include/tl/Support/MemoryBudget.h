//===- MemoryBudget.h - one memory budget for a whole run -------*- C++ -*-===//
//
// --max-memory bounds the whole run, not only the import: the analyses,
// the passes and the emitters grow the process too, and past the limit the
// container's OOM killer or a failed allocation ends the run without a word.
// The importer counts its own arrays and strings exactly (it can stop at a
// byte offset); everything after it is charged by the resident memory the
// process gained since the budget started, sampled on a thread and at each
// stage boundary, so a transient peak inside a pass counts too.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_MEMORYBUDGET_H
#define TL_SUPPORT_MEMORYBUDGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace tl {

/// Resident bytes of this process (/proc/self/statm); 0 when unknown.
/// Allocation-free, so it is safe next to fork().
uint64_t residentBytes();

class MemoryBudget {
public:
  /// Limit in bytes (0 = none: nothing is sampled, check() always passes).
  /// The resident size now is the baseline: a library host's own memory is
  /// not charged to the run.
  explicit MemoryBudget(uint64_t Limit,
                        unsigned SampleMillis = DefaultSampleMillis);
  ~MemoryBudget();
  MemoryBudget(const MemoryBudget &) = delete;
  MemoryBudget &operator=(const MemoryBudget &) = delete;

  uint64_t limit() const { return Limit; }
  /// The most the run has grown so far, in bytes.
  uint64_t peakUsed() const;

  /// The stage that runs from now until the next check(), for the message.
  void enterStage(const llvm::Twine &Stage);
  /// Samples once more; fails when the peak passed the limit, naming Trace
  /// and the stage the peak was first seen in.
  llvm::Error check(llvm::StringRef Trace);

  static constexpr unsigned DefaultSampleMillis = 5;

private:
  void sample();
  void samplerLoop(unsigned Millis);

  uint64_t Limit;
  uint64_t Baseline = 0;
  std::atomic<uint64_t> Peak{0};
  std::mutex M;
  std::condition_variable Stop;
  bool Stopping = false;
  /// Guarded by M.
  std::string Stage;
  std::string OverStage;
  std::thread Sampler;
};

} // namespace tl

#endif // TL_SUPPORT_MEMORYBUDGET_H
