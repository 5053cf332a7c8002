//===- VerifyFindings.h - --verify-findings --------------------*- C++ -*-===//
#ifndef TL_TOOLS_TLOPT_VERIFYFINDINGS_H
#define TL_TOOLS_TLOPT_VERIFYFINDINGS_H

#include "tl/Report/Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace tl {

/// Check Findings against the expectations written in File:
///
///   # expected-finding <tier> <pass> {{regex on title}}
///   # expected-no-findings
///
/// Each expectation must match a distinct finding (in file order); findings
/// left over are unexpected. Every mismatch is printed to stderr as
/// `<file>:<line>: error: ...`; returns an error when there was any.
llvm::Error verifyFindings(llvm::StringRef File,
                           llvm::ArrayRef<Finding> Findings);

} // namespace tl

#endif // TL_TOOLS_TLOPT_VERIFYFINDINGS_H
