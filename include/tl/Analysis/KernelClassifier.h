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

#include <cstddef>
#include <string>

namespace tl {

struct KernelClass {
  std::string KernelType = "Unknown";
  std::string PerfCategory = "Others";
  int Confidence = 0;
};

KernelClass classifyKernel(llvm::StringRef Name);
/// classifyKernel(Name).KernelType as a string with static storage (the
/// rule table's), for callers that keep one per kernel.
llvm::StringRef classifyKernelType(llvm::StringRef Name);

namespace detail {
/// The rule table's size, and regex_search of rule Rule's pattern in Name
/// as classifyKernel runs it and through std::regex (for tests).
size_t numKernelRules();
const char *kernelRulePattern(size_t Rule);
bool kernelRuleSearch(size_t Rule, llvm::StringRef Name);
/// True when rule Rule runs without std::regex.
bool kernelRuleIsDirect(size_t Rule);
bool kernelRuleRegexSearch(size_t Rule, llvm::StringRef Name);
} // namespace detail

} // namespace tl

#endif // TL_ANALYSIS_KERNELCLASSIFIER_H
