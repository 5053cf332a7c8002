//===- KernelClassifier.h - Kernel name -> kernel type ---------*- C++ -*-===//
//
// The reference's classify_kernels.py (tracelens-analysis §4): ordered regex
// rules with priorities; the highest priority wins (stable, so block A's
// fine-grained types shadow block B's equal-priority duplicates); priority
// below 5 or no match -> Unknown.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_KERNELCLASSIFIER_H
#define TL_ANALYSIS_KERNELCLASSIFIER_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

struct KernelClass {
  std::string KernelType = "Unknown";
  std::string PerfCategory = "Others";
  int Confidence = 0;
};

KernelClass classifyKernel(llvm::StringRef Name);

} // namespace tl

#endif // TL_ANALYSIS_KERNELCLASSIFIER_H
