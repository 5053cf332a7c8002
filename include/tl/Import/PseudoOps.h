//===- PseudoOps.h - The reference's pseudo ops over MoE kernels -*- C++ -*-===//
//
// vLLM's unfused (Triton, GPT-OSS) MoE runs its expert GEMMs as triton
// launches under one `vllm::moe_forward`, with no op of their own, so no
// perf model sees them. The reference's inference report injects one pseudo
// op per GEMM kernel (spec/tracelens-inference.md §B.1 #2, §B.2 P1, §B.3
// #2): `pseudo_op::moe_triton_unfused_up` / `_down`, modelled on the
// MoE_unfused_fwd sheet, and `pseudo_op::moe_triton_unfused_finalize_
// matmul_scatter` (category `other`). tl does it in inference mode.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IMPORT_PSEUDOOPS_H
#define TL_IMPORT_PSEUDOOPS_H

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

class Trace;

struct PseudoOpResult {
  /// `vllm::moe_forward` events that got pseudo ops, and the ops injected.
  uint64_t MoeOps = 0;
  uint64_t Injected = 0;
  /// Why an extension or a kernel was skipped, one line each.
  std::vector<std::string> Warnings;
};

/// Apply the pseudo-op extensions of §B.1 that tl implements (#2, the
/// Triton unfused MoE) to T, in place: each injected op is a cpu_op with
/// the next UID, `moe_forward`'s shapes and the extra `MoE ...` args, hung
/// over its kernel's launch call as §B.2 P1 does (the launch call keeps
/// its parent). Warnings also go to T's import warnings.
PseudoOpResult injectPseudoOps(Trace &T);

} // namespace tl

#endif // TL_IMPORT_PSEUDOOPS_H
