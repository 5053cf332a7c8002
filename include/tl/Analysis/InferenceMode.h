//===- InferenceMode.h - Training or inference report layout ----*- C++ -*-===//
//
// The reference has two generators: the training one and the inference one
// (spec/tracelens-inference.md §A), which groups the ops tables by parent
// module, adds call stacks, names every split sheet `<family>_fwd` and
// writes no kernel-summary sheets. --mode picks one; `auto` picks inference
// only on clear evidence of a serving runner, so that eager traces without
// backward (b200/eager_trace is vLLM, yet its references are training-mode)
// keep the training layout.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_INFERENCEMODE_H
#define TL_ANALYSIS_INFERENCEMODE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

class Trace;

/// The --mode values.
inline constexpr llvm::StringLiteral ModeAuto = "auto";
inline constexpr llvm::StringLiteral ModeTraining = "training";
inline constexpr llvm::StringLiteral ModeInference = "inference";

/// Why --mode=auto reports T in inference mode ("" = it does not): the trace
/// has no backward op and either graph replays got their capture context
/// (CaptureMerged) or a user annotation names a serving iteration in one of
/// the formats of §A.1 (vLLM, SGLang, ATOM, diffusion runners).
std::string inferenceEvidence(const Trace &T, bool CaptureMerged);

} // namespace tl

#endif // TL_ANALYSIS_INFERENCEMODE_H
