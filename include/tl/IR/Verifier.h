//===- Verifier.h - IR invariants ------------------------------*- C++ -*-===//
#ifndef TL_IR_VERIFIER_H
#define TL_IR_VERIFIER_H

#include "llvm/Support/Error.h"

namespace tl {
class Trace;
/// Check the IR's invariants (durations >= 0, children inside parents, every
/// link target exists, ...). Returns the first violations as one error.
llvm::Error verifyTrace(const Trace &T);
} // namespace tl

#endif // TL_IR_VERIFIER_H
