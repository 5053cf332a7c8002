//===- MemoryBudget.cpp - one memory budget for a whole run ---------------===//
#include "tl/Support/MemoryBudget.h"

#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace tl {

uint64_t residentBytes() {
  int FD = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return 0;
  char Buf[128];
  ssize_t N = ::read(FD, Buf, sizeof(Buf) - 1);
  ::close(FD);
  if (N <= 0)
    return 0;
  Buf[N] = 0;
  // "size resident shared ..." in pages.
  StringRef Fields(Buf, size_t(N));
  uint64_t Pages = 0;
  if (Fields.split(' ').second.split(' ').first.getAsInteger(10, Pages))
    return 0;
  return Pages * uint64_t(::sysconf(_SC_PAGESIZE));
}

MemoryBudget::MemoryBudget(uint64_t Limit, unsigned SampleMillis)
    : Limit(Limit) {
  if (!Limit)
    return;
  Baseline = residentBytes();
  if (SampleMillis)
    Sampler = std::thread([this, SampleMillis] { samplerLoop(SampleMillis); });
}

MemoryBudget::~MemoryBudget() {
  if (!Sampler.joinable())
    return;
  {
    std::lock_guard<std::mutex> L(M);
    Stopping = true;
  }
  Stop.notify_all();
  Sampler.join();
}

uint64_t MemoryBudget::peakUsed() const { return Peak.load(); }

void MemoryBudget::sample() {
  uint64_t R = residentBytes();
  uint64_t Used = R > Baseline ? R - Baseline : 0;
  uint64_t Old = Peak.load();
  while (Used > Old && !Peak.compare_exchange_weak(Old, Used))
    ;
  if (Used <= Limit)
    return;
  std::lock_guard<std::mutex> L(M);
  if (OverStage.empty())
    OverStage = Stage.empty() ? std::string("the run") : Stage;
}

void MemoryBudget::samplerLoop(unsigned Millis) {
  std::unique_lock<std::mutex> L(M);
  while (!Stopping) {
    L.unlock();
    sample();
    L.lock();
    Stop.wait_for(L, std::chrono::milliseconds(Millis),
                  [this] { return Stopping; });
  }
}

void MemoryBudget::enterStage(const Twine &S) {
  if (!Limit)
    return;
  sample();
  std::lock_guard<std::mutex> L(M);
  Stage = S.str();
}

Error MemoryBudget::check(StringRef Trace) {
  if (!Limit)
    return Error::success();
  sample();
  std::lock_guard<std::mutex> L(M);
  if (OverStage.empty())
    return Error::success();
  return createStringError(
      "%s: the run grew by %.1f MB, more than its memory budget of %llu MB "
      "(in %s; see --max-memory)",
      Trace.str().c_str(), double(Peak.load()) / double(1 << 20),
      (unsigned long long)(Limit >> 20), OverStage.c_str());
}

} // namespace tl
