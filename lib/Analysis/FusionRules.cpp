//===- FusionRules.cpp - Kernel-name rules of fusion candidate extraction -===//
#include "tl/Analysis/FusionRules.h"

#include "llvm/ADT/STLExtras.h"

using namespace tl;
using llvm::StringRef;

namespace {
constexpr StringRef Excluded[] = {"nccl", "rccl", "memcpy", "memset"};
constexpr StringRef AlreadyFused[] = {
    "attn_fwd",        "attn_bwd",   "fmha",      "unified_attention",
    "paged_attention", "flash_attn", "flash_fwd", "silu_and_mul"};
} // namespace

llvm::ArrayRef<StringRef> tl::fusionExcludedMarkers() { return Excluded; }
llvm::ArrayRef<StringRef> tl::fusionAlreadyFusedMarkers() {
  return AlreadyFused;
}

bool tl::nameContainsAny(StringRef Name, llvm::ArrayRef<StringRef> Markers) {
  std::string L = Name.lower();
  return llvm::any_of(Markers,
                      [&](StringRef M) { return StringRef(L).contains(M); });
}

bool tl::isFusionEligibleName(StringRef Name) {
  return !nameContainsAny(Name, Excluded) &&
         !nameContainsAny(Name, AlreadyFused);
}

std::string tl::fusionChainName(StringRef N) {
  if (N.consume_front("nn.Module: "))
    return N.str();
  size_t P = N.rfind('/');
  return (P == StringRef::npos ? N : N.drop_front(P + 1)).str();
}

bool tl::isFusionContainerSkip(EventKind K) {
  return K == EventKind::Kernel || K == EventKind::Memcpy ||
         K == EventKind::Memset || isRuntimeKind(K);
}
