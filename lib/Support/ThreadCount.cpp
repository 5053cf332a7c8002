//===- ThreadCount.cpp - What --threads=N means ---------------------------===//
#include "tl/Support/ThreadCount.h"

#include "llvm/Support/Threading.h"

unsigned tl::effectiveThreads(unsigned Threads) {
  return Threads ? Threads
                 : llvm::hardware_concurrency().compute_thread_count();
}
