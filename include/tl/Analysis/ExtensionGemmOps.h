//===- ExtensionGemmOps.h - the serving stacks' GEMM ops --------*- C++ -*-===//
//
// The aiter / vLLM / SGLang GEMM ops of the inference spec's §D.1, one list
// for both places that need it: the op categories (GEMM) and the perf
// model table (ExtGemm).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_EXTENSIONGEMMOPS_H
#define TL_ANALYSIS_EXTENSIONGEMMOPS_H

namespace tl {

inline constexpr const char *ExtensionGemmOps[] = {
    "vllm::rocm_unquantized_gemm",
    "aiter::gemm_a16w16",
    "aiter::gemm_a16w16_atomic_",
    "sglang_profiler::gemm_kernels_flydsl_hgemm",
    "aiter::_gemm_a16w16_asm",
    "sglang_profiler::fp8_utils_gemm_a8w8_blockscale",
    "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale",
    "vllm::rocm_aiter_triton_gemm_a8w8_blockscale",
    "aiter::gemm_a8w8_blockscale_ck",
    "aiter::gemm_a8w8_blockscale_cktile",
    "aiter::gemm_a8w8_blockscale_bpreshuffle_ck",
    "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile",
    "aiter::flatmm_a8w8_blockscale_asm",
    "aiter::gfx950_a8w8_blockscale_asm",
    "aiter::gemm_a8w8_ck",
    "aiter::gemm_a8w8_bpreshuffle_ck",
    "aiter::gemm_a8w8_bpreshuffle",
    "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm",
    "aiter::_gemm_a8w8_blockscale_bpreshuffle_asm",
    "aiter::batched_gemm_a16wfp4_",
    "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_"
    "per_batched_tensor_quant_batched_gemm_a8w8_a_per_token_group_"
    "prequant_w_per_batched_tensor_quant",
    "aiter::gemm_afp4wfp4_",
};

} // namespace tl

#endif // TL_ANALYSIS_EXTENSIONGEMMOPS_H
