//===- FusionRules.h - Kernel-name rules of fusion candidate extraction ---===//
//
// The §3.5 name rules that the standalone (FusionCandidates) and the
// comparative (ComparativeFusion) extraction share: which kernels can take
// part in a fusion, which are fused already, which host events are skipped
// as containers and how a parent module is named in parent_chain.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_FUSIONRULES_H
#define TL_ANALYSIS_FUSIONRULES_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

/// Communication and copy kernels: never part of a fusion.
llvm::ArrayRef<llvm::StringRef> fusionExcludedMarkers();
/// Kernels that are already a fused implementation (attention, silu_and_mul).
llvm::ArrayRef<llvm::StringRef> fusionAlreadyFusedMarkers();

/// Case-insensitive: does Name contain any of Markers (given in lower case)?
bool nameContainsAny(llvm::StringRef Name,
                     llvm::ArrayRef<llvm::StringRef> Markers);

/// A kernel name that is neither excluded nor already fused.
bool isFusionEligibleName(llvm::StringRef Name);

/// parent_chain entry: module name without `nn.Module: `, else the part
/// after the last `/`.
std::string fusionChainName(llvm::StringRef Name);

/// GPU-side and runtime events are not module containers.
bool isFusionContainerSkip(EventKind K);

} // namespace tl

#endif // TL_ANALYSIS_FUSIONRULES_H
