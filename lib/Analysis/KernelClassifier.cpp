//===- KernelClassifier.cpp - Kernel name -> kernel type -----------------===//
//
// Rule table of tracelens-analysis §4, in the reference's order. Patterns
// are ECMAScript regexes searched case-insensitively.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/KernelClassifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>
#include <regex>
#include <vector>

using namespace tl;

namespace {

struct Rule {
  const char *Pattern;
  const char *Type;
  int Priority;
};

// clang-format off
const Rule Rules[] = {
    // Block A: fine-grained types.
    {"Rmsnorm|rmsnorm2d", "RMSNorm", 20},
    {"layer_norm|layernorm", "LayerNorm", 20},
    {"l2norm_fwd|l2norm_kernel", "L2Norm", 20},
    {"rsqrt.*mean.*pow|mean.*mul.*pow.*rsqrt", "RMSNorm (fused triton)", 20},
    {"_to_copy_add.*mean.*rsqrt", "RMSNorm (fused triton)", 20},
    {"fused__to_copy_abs.*mean.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    {"fused__to_copy_add.*mean.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    {"fused_add_copy__mean.*pow", "RMSNorm (fused triton residual)", 18},
    {"fused__to_copy_add_copy__mean.*pow", "RMSNorm (fused triton residual)", 18},
    {"fused__to_copy_add_mean_moe_forward_shared.*pow.*rsqrt", "RMSNorm (shared expert + norm)", 20},
    {"fused__to_copy_add_mean.*mul.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    {"attention_[23]d|unified_attention", "Attention (AMD unified)", 20},
    {"fmha[Ss]m\\d+|fmhaSm100f", "Attention (NVIDIA fmha)", 20},
    {"paged_attention|PagedAttention", "Attention (paged)", 20},
    {"flash_attn|flash_fwd", "Attention (flash)", 20},
    {"reduce_segments", "Attention Reduce", 20},
    {"reshape_and_cache_flash|reshape_and_cache", "KV Cache Store", 20},
    {"chunk_gated_delta_rule_fwd", "Linear Attention (chunk_gated_delta_rule_fwd)", 20},
    {"chunk_fwd_kernel_o", "Linear Attention (chunk_fwd_kernel_o)", 20},
    {"chunk_scaled_dot_kkt", "Linear Attention (chunk_scaled_dot_kkt)", 20},
    {"chunk_local_cumsum", "Linear Attention (chunk_local_cumsum)", 20},
    {"fused_recurrent_gated_delta_rule", "Linear Attention (fused_recurrent_gated_delta_rule)", 20},
    {"recompute_w_u_fwd", "Linear Attention (recompute_w_u_fwd)", 20},
    {"merge_\\d+x\\d+_to_\\d+x\\d+_inverse", "Linear Attention (merge_inverse)", 20},
    {"_causal_conv1d_fwd|_causal_conv1d_update", "Causal Conv1D", 20},
    {"fused_gdn_gating", "GDN Gating", 20},
    {"swiglu|swiGlu", "MoE GateUp+SwiGLU GEMM", 25},
    {"fmoe.*g1u1.*silu|fmoe.*silu", "MoE GEMM+SiLU (aiter)", 25},
    {"kernel_moe_gemm|MoeGemmBlockScale", "MoE GEMM (CK)", 22},
    {"finalize.*scatter|_finalize_matmul|finalizeKernel", "MoE Finalize", 20},
    {"topk_forward", "MoE TopK", 20},
    {"topkGatingSoftmax", "MoE TopK Gating", 20},
    {"bitmatrix|_sum_bitmatrix", "MoE BitMatrix", 20},
    {"combined_routing_memset", "MoE Routing Memset", 20},
    {"combined_routing_compute", "MoE Routing Compute", 20},
    {"routingIndicesCluster|routingRenormalize", "MoE Routing (fused)", 20},
    {"MoeSorting", "MoE Sorting", 20},
    {"constant_pad.*moe|moe_forward", "MoE Pad", 20},
    {"quantize_with_block_size", "MoE Quantize", 20},
    {"per_token_group_quant|dynamic_per_group_scaled_quant", "Quantize (per-group)", 18},
    {"act_and_mul_kernel.*silu_kernel", "Activation (SiLU+Mul)", 20},
    {"silu_and_mul|silu_mul|SiluAndMul", "Activation (SiLU+Mul)", 18},
    {"activationDeepSeekKernel", "Activation (DeepSeek fused)", 18},
    {"fused_mul_sigmoid", "Activation (SiLU)", 18},
    {"\\bsilu\\b|swish", "Activation (SiLU)", 15},
    {"\\bgelu\\b", "Activation (GELU)", 15},
    {"memcpy", "MemCpy", 30},
    // Block B: canonical types.
    {"swiglu|swiGlu", "MoE GEMM", 25},
    {"fmoe.*g1u1.*silu|fmoe.*silu", "MoE GEMM", 25},
    {"kernel_moe_gemm|MoeGemmBlockScale", "MoE GEMM", 22},
    {"finalize.*scatter|_finalize_matmul|finalizeKernel", "MoE Finalize", 20},
    {"topk_forward", "MoE Routing", 20},
    {"topkGatingSoftmax", "MoE Routing", 20},
    {"bitmatrix|_sum_bitmatrix", "MoE Routing", 20},
    {"combined_routing_memset", "MoE Routing", 20},
    {"combined_routing_compute", "MoE Routing", 20},
    {"routingIndicesCluster|routingRenormalize", "MoE Routing", 20},
    {"MoeSorting", "MoE Routing", 20},
    {"constant_pad.*moe|moe_forward", "MoE Routing", 20},
    {"quantize_with_block_size", "MoE Quantize", 20},
    {"Rmsnorm|rmsnorm2d", "Normalization", 20},
    {"layer_norm|layernorm", "Normalization", 20},
    {"l2norm_fwd|l2norm_kernel", "Normalization", 20},
    {"rsqrt.*mean.*pow|mean.*mul.*pow.*rsqrt", "Normalization", 20},
    {"_to_copy_add.*mean.*rsqrt", "Normalization", 20},
    {"fused__to_copy_abs.*mean.*pow.*rsqrt", "Normalization", 18},
    {"fused__to_copy_add.*mean.*pow.*rsqrt", "Normalization", 18},
    {"fused_add_copy__mean.*pow", "Normalization", 18},
    {"fused__to_copy_add_copy__mean.*pow", "Normalization", 18},
    {"fused__to_copy_add_mean_moe_forward_shared.*pow.*rsqrt", "Normalization", 20},
    {"fused__to_copy_add_mean.*mul.*pow.*rsqrt", "Normalization", 18},
    {"attention_[23]d|unified_attention", "Attention", 20},
    {"fmha[Ss]m\\d+|fmhaSm100f", "Attention", 20},
    {"paged_attention|PagedAttention", "Attention", 20},
    {"flash_attn|flash_fwd", "Attention", 20},
    {"reduce_segments", "Attention", 20},
    {"reshape_and_cache_flash|reshape_and_cache", "KV Cache Store", 20},
    {"chunk_gated_delta_rule_fwd", "Linear Attention", 20},
    {"chunk_fwd_kernel_o", "Linear Attention", 20},
    {"chunk_scaled_dot_kkt", "Linear Attention", 20},
    {"chunk_local_cumsum", "Linear Attention", 20},
    {"fused_recurrent_gated_delta_rule", "Linear Attention", 20},
    {"recompute_w_u_fwd", "Linear Attention", 20},
    {"merge_\\d+x\\d+_to_\\d+x\\d+_inverse", "Linear Attention", 20},
    {"_causal_conv1d_fwd|_causal_conv1d_update", "Linear Attention", 20},
    {"fused_gdn_gating", "GDN Gating", 20},
    {"rotary|rope", "Rotary Embedding", 18},
    {"activationDeepSeekKernel", "Activation (DeepSeek fused)", 18},
    {"act_and_mul_kernel.*silu_kernel", "Elementwise", 20},
    {"embedding", "Elementwise", 20},
    {"gather_kernel|vectorized_gather", "Elementwise", 20},
    {"per_token_group_quant|dynamic_per_group_scaled_quant", "Quantization", 18},
    {"silu_and_mul|silu_mul|SiluAndMul", "Elementwise", 18},
    {"fused_mul_sigmoid", "Elementwise", 18},
    {"\\bsilu\\b|swish", "Elementwise", 15},
    {"\\bgelu\\b", "Elementwise", 15},
    {"splitKreduce|splitkreduce", "GEMM", 15},
    {"top_k|top_p|sampling|topk_topp", "Elementwise", 15},
    {"CUDAFunctorOnSelf_add<int>", "Elementwise", 15},
    {"__amd_rocclr_copyBuffer", "Elementwise", 12},
    {"memcpy32_post", "Elementwise", 12},
    {"copy_page_indices", "Elementwise", 12},
    {"vectorized_elementwise_kernel.*FillFunctor", "Elementwise", 10},
    {"direct_copy_kernel|_to_copy\\b", "Elementwise", 10},
    {"CatArrayBatchedCopy", "Elementwise", 10},
    {"elementwise.*add|FunctorOnSelf_add", "Elementwise", 8},
    {"elementwise.*mul", "Elementwise", 8},
    {"elementwise", "Elementwise", 5},
    {"_matmul_ogs.*mxfp4", "GEMM", 12},
    {"_gemm_a16_w16", "GEMM", 12},
    {"nvjet_tst", "GEMM", 12},
    {"wvSplitK", "GEMM", 12},
    {"Cijk_", "GEMM", 12},
    {"kernel_gemm_xdl_cshuffle", "GEMM", 12},
    {"_gemm_a\\d+w\\d+", "GEMM", 10},
    {"bmm_MxE4m3.*MxE2m1", "GEMM", 10},
    {"bmm_Bfloat16.*MxE2m1", "GEMM", 10},
    {"cublasLt|cublas", "GEMM", 10},
    {"rocm_aiter_gemm_a8w8", "GEMM", 10},
    {"triton_poi_fused.*clamp.*div.*rocm_aiter_gemm", "GEMM", 8},
    {"triton_per_fused.*abs.*clamp.*div.*max.*rocm_aiter_gemm", "GEMM", 8},
    {"gemm|matmul|bmm", "GEMM", 5},
    {"quant", "Quantization", 4},
    {"triton_poi_fused|triton_red_fused|triton_per_fused", "Elementwise", 3},
    {"\\bnorm\\b", "Normalization", 1},
    {"rocprim|hipcub", "Elementwise", 1},
    {"cub::DeviceScan|DeviceRadixSort|DeviceReduce", "Elementwise", 1},
};
// clang-format on

const char *perfCategoryOf(llvm::StringRef Type) {
  static const std::pair<const char *, const char *> Map[] = {
      {"Normalization", "Normalization"},
      {"Attention", "SDPA"},
      {"Linear Attention", "SDPA"},
      {"GDN Gating", "SDPA-GDN"},
      {"KV Cache Store", "Elementwise"},
      {"Rotary Embedding", "Elementwise"},
      {"MoE GEMM", "GEMM-MoE"},
      {"MoE Routing", "Elementwise-MoE"},
      {"MoE Finalize", "Elementwise-MoE"},
      {"MoE Quantize", "Elementwise-MoE"},
      {"Activation (DeepSeek fused)", "Elementwise-MoE"},
      {"GEMM", "GEMM"},
      {"Quantization", "Quantization"},
      {"Elementwise", "Elementwise"},
      {"MemCpy", "MemCpy"},
  };
  for (auto &[T, P] : Map)
    if (Type == T)
      return P;
  return "Others";
}

/// Literals one of which every match of a pattern contains, lower-cased:
/// per top-level branch, its longest run of unquantified literal atoms.
/// Empty when some branch has no such run (then the regex always runs).
/// The patterns have no groups; anything unusual ends a run.
std::vector<std::string> requiredLiterals(llvm::StringRef Pattern) {
  llvm::SmallVector<llvm::StringRef, 4> Branches;
  Pattern.split(Branches, '|');
  std::vector<std::string> Out;
  for (llvm::StringRef B : Branches) {
    std::string Best, Run;
    auto Flush = [&] {
      if (Run.size() > Best.size())
        Best = Run;
      Run.clear();
    };
    for (size_t I = 0; I < B.size(); ++I) {
      char C = B[I];
      bool Quantified =
          I + 1 < B.size() && llvm::StringRef("*?{+").contains(B[I + 1]);
      if (llvm::isAlnum(C) || llvm::StringRef("_<>:-").contains(C)) {
        if (Quantified) {
          Flush();
          continue;
        }
        Run += llvm::toLower(C);
        continue;
      }
      Flush();
      if (C == '\\')
        ++I; // \d, \b, ...: not a literal
      else if (C == '[' && (I = B.find(']', I)) == llvm::StringRef::npos)
        break; // a class
    }
    Flush();
    if (Best.empty())
      return {};
    Out.push_back(std::move(Best));
  }
  return Out;
}

struct CompiledRule {
  std::regex Re;
  std::vector<std::string> Literals;
};

const std::vector<CompiledRule> &compiled() {
  static const std::vector<CompiledRule> R = [] {
    std::vector<CompiledRule> V;
    for (const Rule &X : Rules)
      V.push_back({std::regex(X.Pattern,
                              std::regex::ECMAScript | std::regex::icase),
                   requiredLiterals(X.Pattern)});
    return V;
  }();
  return R;
}

} // namespace

KernelClass tl::classifyKernel(llvm::StringRef Name) {
  // Names repeat a lot; memoize (thread-safe).
  static std::mutex M;
  static llvm::StringMap<KernelClass> Cache;
  {
    std::lock_guard<std::mutex> L(M);
    auto It = Cache.find(Name);
    if (It != Cache.end())
      return It->second;
  }
  const std::vector<CompiledRule> &Re = compiled();
  std::string S = Name.str();
  // std::regex is slow; a rule none of whose required literals occur in
  // the name cannot match, so most rules are skipped without it.
  std::string Lower = Name.lower();
  auto MayMatch = [&](const CompiledRule &R) {
    return R.Literals.empty() ||
           llvm::any_of(R.Literals, [&](const std::string &L) {
             return llvm::StringRef(Lower).contains(L);
           });
  };
  int Best = -1;
  size_t BestIdx = 0;
  for (size_t I = 0; I < Re.size(); ++I) {
    // Stable sort by priority desc == first rule with the highest priority.
    if (Rules[I].Priority > Best && MayMatch(Re[I]) &&
        std::regex_search(S, Re[I].Re)) {
      Best = Rules[I].Priority;
      BestIdx = I;
    }
  }
  KernelClass C;
  if (Best >= 5) {
    C.KernelType = Rules[BestIdx].Type;
    C.PerfCategory = perfCategoryOf(C.KernelType);
    C.Confidence = Best;
  }
  std::lock_guard<std::mutex> L(M);
  Cache.try_emplace(Name, C);
  return C;
}
