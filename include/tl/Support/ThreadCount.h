//===- ThreadCount.h - What --threads=N means -------------------*- C++ -*-===//
//
// Passes, analyses, emitters and the driver read one --threads value where
// 0 means "one per core".
//
//===----------------------------------------------------------------------===//

#ifndef TL_SUPPORT_THREADCOUNT_H
#define TL_SUPPORT_THREADCOUNT_H

namespace tl {

/// Threads as given, or the number of cores for 0.
unsigned effectiveThreads(unsigned Threads);

} // namespace tl

#endif
