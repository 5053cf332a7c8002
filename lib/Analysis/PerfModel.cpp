//===- PerfModel.cpp - model dispatch and the §5.1 metrics ----------------===//
#include "tl/Analysis/PerfModel.h"
#include "tl/Analysis/ArchSpec.h"
#include "tl/Analysis/ExtensionGemmOps.h"

#include "PerfModels/ModelUtil.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <limits>

using namespace tl;
using namespace tl::pm;

namespace {
using Builder = llvm::Expected<PerfModelResult> (*)(const OpDesc &);
struct ModelTable {
  llvm::StringMap<Builder> Map;
  std::vector<std::string> Order;
  void add(std::initializer_list<const char *> Names, Builder B) {
    for (const char *N : Names)
      if (Map.try_emplace(N, B).second)
        Order.push_back(N);
  }
};
} // namespace

/// The extension families (spec inference §D); the category registry
/// (OpCategory.cpp) lists the same names with their categories and sheets.
static void addExtensionModels(ModelTable &T) {
  for (const char *N : ExtensionGemmOps)
    T.add({N}, buildExtGemm);
  T.add({"aiter::gemm_a4w4", "aiter::_gemm_a4w4_asm",
         "vllm::gemm_with_dynamic_quant"},
        buildExtGemm);
  T.add({"vllm::unified_attention_with_output", "aiter::mha_varlen_fwd",
         "pseudo_mla_decode_fwd", "aiter::fmha_v3_varlen_fwd",
         "aiter::mha_batch_prefill", "pseudo_mla_prefill_fwd",
         "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
         "sglang_profiler::attention_paged_attention_ragged",
         "aiter::pa_decode_gluon", "aiter::pa_sparse_prefill_opus_fwd",
         "vllm::gdn_attention_core",
         "aiter::linear_attention_with_output_base", "sglang::store_cache"},
        buildInferenceAttention);
  T.add({"aiter::rms_norm", "aiter::rmsnorm2d_fwd_ck", "aiter::rmsnorm",
         "aiter::rmsnorm2d_fwd_with_add_ck", "aiter::add_rmsnorm",
         "aiter::rmsnorm2d_fwd_with_dynamicquant_ck", "aiter::rmsnorm_quant",
         "vllm::rocm_aiter_rmsnorm_fp8_group_quant",
         "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
         "vllm::rocm_aiter_triton_add_rmsnorm_pad",
         "aiter::fused_add_rmsnorm_pad_",
         "sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant",
         "aiter::_fuse_rmsnorm_fp4_quant"},
        buildRmsNorm);
  T.add({"aiter::rope_cached_positions_2c_fwd_impl",
         "sgl_kernel::rotary_embedding",
         "aiter::fused_qk_rope_cat_and_cache_mla",
         "aiter::fused_qk_rope_concat_and_cache_mla"},
        buildRope);
  T.add({"aiter::fmoe_fp8_blockscale_g1u1", "aiter::fmoe_g1u1",
         "pseudo_op::moe_aiter_fused_1stage",
         "aiter::moe_cktile2stages_gemm1_ck",
         "aiter::moe_cktile2stages_gemm2_ck", "aiter::ck_moe_stage1",
         "aiter::ck_moe_stage2",
         "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
         "pseudo_op::moe_triton_unfused_up",
         "pseudo_op::moe_triton_unfused_down",
         "aiter::biased_grouped_topk_hip", "aiter::moe_sorting_fwd",
         "aiter::mxfp4_moe_sort_hip", "aiter::topk_softplus"},
        buildMoe);
  T.add({"aiter::dynamic_per_token_scaled_quant",
         "aiter::dynamic_per_group_scaled_quant",
         "aiter::dynamic_per_tensor_quant",
         "vllm::triton_per_token_group_quant_fp8",
         "sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant",
         "aiter::fused_dynamic_mx_quant_moe_sort_hip",
         "sglang_profiler::quant_dynamic_mxfp4_quant",
         "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip",
         "aiter::dynamic_per_group_scaled_quant_fp4"},
        buildGroupQuant);
  T.add({"aiter::silu_and_mul", "_C::silu_and_mul", "sgl_kernel::silu_and_mul",
         "aiter::gelu_and_mul", "aiter::gelu_tanh_and_mul",
         "aiter::mixed_sample_outer_exponential"},
        buildActivation);
  T.add({"aiter::fused_allreduce_rmsnorm", "aiter::fused_allreduce_rmsnorm_",
         "_C_custom_ar::all_reduce", "_C_custom_ar::qr_all_reduce",
         "sgl_kernel::all_reduce_reg", "sgl_kernel::qr_all_reduce",
         "aiter::reduce_scatter", "aiter::all_gather_reg",
         "sglang::reg_all_gather_into_tensor"},
        buildCustomCollective);
}

static ModelTable makeTable() {
  ModelTable T;
  T.add({"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm",
         "aten::_scaled_mm", "trtllm::cublas_scaled_mm",
         "bitsandbytes::int8_linear_matmul", "tex_ts::te_gemm_ts",
         "_Linear_yfwd_mm", "_LinearBackward_xgrad_mm",
         "_LinearBackward_wgrad_mm", "_LayerNormLinear_yfwd_mm",
         "_LayerNormLinearBackward_xgrad_mm",
         "_LayerNormLinearBackward_wgrad_mm"},
        buildGemm);
  T.add({"aten::_scaled_dot_product_flash_attention",
         "aten::_scaled_dot_product_efficient_attention",
         "aten::_scaled_dot_product_cudnn_attention", "FlashAttnFunc",
         "flash_attn::_flash_attn_forward", "flash_attn::_flash_attn_backward",
         "aiter::_flash_attn_forward", "aiter::_flash_attn_backward",
         "aiter::wrapper_fmha_v3_fwd", "aiter::wrapper_fmha_v3_bwd",
         "aiter::mha_fwd", "aiter::fmha_v3_fwd", "flash_attn_3::fwd"},
        buildSdpa);
  T.add({"aten::convolution", "aten::convolution_backward", "ConvBias_",
         "ConvBiasReLU_"},
        buildConv);
  T.add({"aten::div", "aten::div_", "aten::mul", "aten::mul_", "aten::add",
         "aten::add_", "aten::sigmoid_backward", "aten::threshold_backward",
         "LigerSiLUMulFunction", "aten::copy", "aten::copy_",
         "aten::clamp_min", "aten::clamp_min_", "aten::clamp_max",
         "aten::clamp_max_", "aten::sigmoid", "aten::rsqrt", "aten::silu",
         "aten::neg", "aten::pow", "aten::replication_pad1d",
         "aten::replication_pad2d", "aten::replication_pad3d",
         "aten::upsample_nearest1d", "aten::upsample_nearest2d",
         "aten::upsample_nearest3d"},
        buildElementwise);
  for (const char *Kind :
       {"batch_norm", "layer_norm", "group_norm", "instance_norm"})
    for (const char *Prefix : {"", "native_", "miopen_", "cudnn_"}) {
      std::string N = std::string("aten::") + Prefix + Kind;
      if (T.Map.try_emplace(N, buildNorm).second)
        T.Order.push_back(N);
    }
  T.add({"aten::_fused_rms_norm", "aiter::_groupnorm_run"}, buildNorm);
  for (const char *Kind : {"batch_norm", "layer_norm", "group_norm",
                           "instance_norm", "rms_norm"})
    for (const char *Prefix : {"", "native_", "miopen_", "cudnn_"}) {
      std::string N = std::string("aten::") + Prefix + Kind + "_backward";
      if (T.Map.try_emplace(N, buildNorm).second)
        T.Order.push_back(N);
    }
  T.add({"aten::_fused_rms_norm_backward"}, buildNorm);
  T.add({"aten::sum", "aten::mean", "aten::max", "aten::min", "aten::norm",
         "aten::linalg_norm", "aten::std", "aten::var", "aten::logsumexp",
         "aten::cumsum", "aten::cumprod", "aten::amin", "aten::amax"},
        buildReduce);
  addExtensionModels(T);
  return T;
}

static const ModelTable &table() {
  static const ModelTable T = makeTable();
  return T;
}

bool tl::hasPerfModel(llvm::StringRef Name) {
  return table().Map.contains(Name);
}

std::vector<std::string> tl::perfModelOpNames() { return table().Order; }

llvm::Expected<PerfModelResult> tl::buildPerfModel(const OpDesc &Op) {
  auto It = table().Map.find(Op.Name);
  if (It != table().Map.end())
    return It->second(Op);
  if (isTritonKernelName(Op.Name))
    return buildTriton(Op);
  return err("no perf model for '" + Op.Name + "'");
}

llvm::Expected<PerfMetrics> tl::computeMetrics(const PerfModelResult &M,
                                               double KernelTimeUs, bool Bwd,
                                               const ArchSpec *Arch) {
  std::optional<double> Peak;
  if (Arch)
    Peak = Arch->peakTflops(M.ComputeSpec);
  return computeMetrics(M, KernelTimeUs, Bwd, Arch, Peak);
}

llvm::Expected<PerfMetrics> tl::computeMetrics(const PerfModelResult &M,
                                               double KernelTimeUs, bool Bwd,
                                               const ArchSpec *Arch,
                                               std::optional<double> Peak) {
  constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
  if (Bwd && !M.HasBwd)
    return notImpl(M.ModelClass + " has no backward model");
  double Flops = Bwd ? M.FlopsBwd : M.Flops;
  std::optional<double> Bytes = Bwd ? M.BytesBwd : M.Bytes;
  PerfMetrics R;
  R.GFLOPS = Flops / 1e9;
  R.TFLOPSs = KernelTimeUs == 0 ? NaN : (R.GFLOPS / 1e3) / (KernelTimeUs / 1e6);
  if (Bytes) {
    R.DataMovedMB = *Bytes / 1048576;
    // Python: GFLOPS * 1e9 / bytes (GFLOPS is already divided).
    R.FlopsPerByte = *Bytes == 0 ? NaN : R.GFLOPS * 1e9 / *Bytes;
    R.TBs = KernelTimeUs == 0 ? NaN : (*Bytes / 1e12) / (KernelTimeUs / 1e6);
  } else {
    R.DataMovedMB = R.FlopsPerByte = R.TBs = NaN;
  }
  R.ComputeSpec = M.ComputeSpec;
  // The reference needs GFLOPS > 0 for a roofline (tracelens-analysis §1,
  // "Upstream definitions"): sglang::store_cache (flops 0, 120 MB) has
  // none in sglang_prefilldecode's agent reference.
  if (Arch && Bytes && R.GFLOPS > 0) {
    if (Peak) {
      double ComputeUs = R.GFLOPS * 1e9 / (*Peak * 1e12) * 1e6;
      double MemUs = *Bytes / (Arch->MemBwGBps * 1e9) * 1e6;
      R.HasRoofline = true;
      R.RooflineTimeUs = std::max(ComputeUs, MemUs);
      R.RooflineBound = ComputeUs >= MemUs ? "COMPUTE_BOUND" : "MEMORY_BOUND";
      R.PctRoofline = KernelTimeUs == 0 ? NaN : R.RooflineTimeUs / KernelTimeUs * 100;
    }
  }
  return R;
}
