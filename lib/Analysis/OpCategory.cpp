//===- OpCategory.cpp - op name -> category registry ----------------------===//
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/ExtensionGemmOps.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tl;

std::string tl::sheetFromCategory(llvm::StringRef Category) {
  if (Category.ends_with("_fwd") || Category.ends_with("_bwd"))
    return Category.drop_back(4).str();
  return Category.str();
}

void CategoryRegistry::addModelOp(llvm::StringRef Name,
                                  llvm::StringRef Category,
                                  llvm::StringRef SheetCategory) {
  auto [It, Inserted] = Model.try_emplace(Name);
  It->second.Category = Category.str();
  It->second.Sheet = SheetCategory.empty() ? sheetFromCategory(Category)
                                           : SheetCategory.str();
  if (Inserted)
    ModelOrder.push_back(Name.str());
}

void CategoryRegistry::addCategoryOnly(llvm::StringRef Name,
                                       llvm::StringRef Category) {
  CategoryOnly[Name] = Category.str();
}

std::optional<llvm::StringRef>
CategoryRegistry::lookup(llvm::StringRef Name) const {
  auto C = CategoryOnly.find(Name);
  if (C != CategoryOnly.end())
    return llvm::StringRef(C->second);
  auto M = Model.find(Name);
  if (M != Model.end())
    return llvm::StringRef(M->second.Category);
  return std::nullopt;
}

bool CategoryRegistry::isModelOp(llvm::StringRef Name) const {
  return Model.contains(Name);
}

std::optional<llvm::StringRef>
CategoryRegistry::sheetCategory(llvm::StringRef Name) const {
  auto M = Model.find(Name);
  if (M == Model.end())
    return std::nullopt;
  return llvm::StringRef(M->second.Sheet);
}

std::vector<std::string> CategoryRegistry::sheetOrder() const {
  std::vector<std::string> Out;
  for (const std::string &Op : ModelOrder) {
    const std::string &S = Model.find(Op)->second.Sheet;
    if (std::find(Out.begin(), Out.end(), S) == Out.end())
      Out.push_back(S);
  }
  return Out;
}

std::vector<std::string>
CategoryRegistry::opsOfSheet(llvm::StringRef Sheet) const {
  std::vector<std::string> Out;
  for (const std::string &Op : ModelOrder)
    if (Model.find(Op)->second.Sheet == Sheet)
      Out.push_back(Op);
  return Out;
}

std::string CategoryRegistry::categorize(llvm::StringRef Name,
                                         llvm::StringRef FirstKernel) const {
  if (auto C = lookup(Name))
    return C->str();
  if (Name.starts_with("triton"))
    return "triton";
  if (Name.starts_with("record_param_comms"))
    return "record_param_comms";
  if (FirstKernel.starts_with("void at::native")) {
    if (FirstKernel.contains("elementwise"))
      return "elementwise";
    if (FirstKernel.contains("reduce"))
      return "reduce";
    if (FirstKernel.contains("multi_tensor_apply"))
      return "multi_tensor_apply";
  }
  return "other";
}

bool tl::isCommKernel(llvm::StringRef Name) {
  // contains_insensitive of "nccl", "rccl" or "cross_device_reduce", in one
  // pass: this runs for every GPU event in several analyses.
  for (size_t I = 0, N = Name.size(); I < N; ++I) {
    char C = llvm::toLower(Name[I]);
    llvm::StringRef Rest = Name.drop_front(I + 1);
    if ((C == 'n' || C == 'r') && Rest.starts_with_insensitive("ccl"))
      return true;
    if (C == 'c' && Rest.starts_with_insensitive("ross_device_reduce"))
      return true;
  }
  return false;
}

bool tl::isLegacyCopyKernel(llvm::StringRef Name) {
  // ^(MEMORY_COPY_(HOST_TO_DEVICE|DEVICE_TO_HOST|DEVICE_TO_DEVICE)|
  //   __amd_rocclr_copyBuffer(Rect)?(Aligned)?)(\.kd)?$
  Name.consume_back(".kd");
  if (Name == "MEMORY_COPY_HOST_TO_DEVICE" ||
      Name == "MEMORY_COPY_DEVICE_TO_HOST" ||
      Name == "MEMORY_COPY_DEVICE_TO_DEVICE")
    return true;
  if (!Name.consume_front("__amd_rocclr_copyBuffer"))
    return false;
  Name.consume_front("Rect");
  Name.consume_front("Aligned");
  return Name.empty();
}

bool tl::isFillKernel(llvm::StringRef Name) {
  // ^__amd_rocclr_fillBuffer(Aligned)?(\.kd)?$
  Name.consume_back(".kd");
  if (!Name.consume_front("__amd_rocclr_fillBuffer"))
    return false;
  Name.consume_front("Aligned");
  return Name.empty();
}

//===----------------------------------------------------------------------===//
// Built-in table (spec §4.2, §4.3). Insertion order follows the reference's
// map so that sheetOrder() reproduces §4.4.
//===----------------------------------------------------------------------===//

static void addAll(CategoryRegistry &R, std::initializer_list<const char *> Ops,
                   llvm::StringRef Category, llvm::StringRef Sheet = "") {
  for (const char *Op : Ops)
    R.addModelOp(Op, Category, Sheet);
}

static CategoryRegistry makeBuiltin() {
  CategoryRegistry R;
  addAll(R,
         {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm",
          "aten::_scaled_mm", "trtllm::cublas_scaled_mm",
          "bitsandbytes::int8_linear_matmul", "tex_ts::te_gemm_ts",
          "_Linear_yfwd_mm", "_LinearBackward_xgrad_mm",
          "_LinearBackward_wgrad_mm", "_LayerNormLinear_yfwd_mm",
          "_LayerNormLinearBackward_xgrad_mm",
          "_LayerNormLinearBackward_wgrad_mm", "vllm::gemm_with_dynamic_quant",
          "primus_turbo::hipblaslt_gemm_fp8", "primus_turbo::hipblaslt_gemm_fp4",
          "primus_turbo_cpp_extension::hipblaslt_gemm_fp8",
          "primus_turbo_cpp_extension::hipblaslt_gemm_fp4", "aiter::gemm_a4w4",
          "aiter::_gemm_a4w4_asm"},
         "GEMM");
  // Extension GEMMs (inference §D.1).
  for (const char *Op : ExtensionGemmOps)
    R.addModelOp(Op, "GEMM", "");
  addAll(R,
         {"aten::_scaled_dot_product_flash_attention",
          "aten::_scaled_dot_product_efficient_attention",
          "aten::_scaled_dot_product_cudnn_attention", "FlashAttnFunc",
          "flash_attn::_flash_attn_forward",
          "flash_attn::_flash_attn_varlen_forward",
          "aiter::_flash_attn_forward", "aiter::wrapper_fmha_v3_fwd",
          "aiter::mha_fwd", "aiter::fmha_v3_fwd", "flash_attn_3::fwd",
          "EvoformerAttention"},
         "SDPA_fwd");
  addAll(R,
         {"flash_attn::_flash_attn_backward",
          "flash_attn::_flash_attn_varlen_backward",
          "aiter::_flash_attn_backward", "aiter::wrapper_fmha_v3_bwd",
          "aiter::mha_bwd"},
         "SDPA_bwd");
  addAll(R, {"aten::convolution", "ConvBias_", "ConvBiasReLU_"}, "CONV_fwd");
  addAll(R,
         {"aten::convolution_backward", "ConvBias_Backward",
          "ConvBiasReLU_Backward"},
         "CONV_bwd");
  addAll(R,
         {"vllm::unified_attention_with_output", "aiter::mha_varlen_fwd",
          "aiter::pa_decode_gluon", "sglang::store_cache",
          "pseudo_mla_decode_fwd", "aiter::fmha_v3_varlen_fwd",
          "aiter::mha_batch_prefill", "pseudo_mla_prefill_fwd",
          "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
          "sglang_profiler::attention_paged_attention_ragged",
          "aiter::pa_sparse_prefill_opus_fwd", "vllm::gdn_attention_core",
          "aiter::linear_attention_with_output_base"},
         "InferenceAttention");
  addAll(R,
         {"aten::div", "aten::div_", "aten::mul", "aten::mul_", "aten::add",
          "aten::add_", "aten::sigmoid_backward", "aten::threshold_backward",
          "LigerSiLUMulFunction"},
         "elementwise", "BinaryElementwise");
  addAll(R,
         {"primus_turbo::grouped_gemm", "primus_turbo::grouped_gemm_impl",
          "primus_turbo_cpp_extension::grouped_gemm",
          "primus_turbo_cpp_extension::ck_grouped_gemm",
          "primus_turbo::grouped_gemm_variable_k",
          "primus_turbo::grouped_gemm_variable_k_impl",
          "primus_turbo_cpp_extension::ck_grouped_gemm_variable_k"},
         "GroupedGEMM_fwd");
  addAll(R, {"MoEDispatch", "MoECombine"}, "MoE_comm_fwd");
  addAll(R,
         {"DaoAILab::_causal_conv1d_fwd_cpp", "MambaSplitConv1dScanCombinedFn"},
         "SSM_fwd");
  addAll(R,
         {"FusedRoPEFunc", "aiter::rope_cached_positions_2c_fwd_impl",
          "sgl_kernel::rotary_embedding"},
         "RoPE_fwd");
  addAll(R, {"CrossEntropyFunction"}, "CrossEntropy_fwd");
  addAll(R,
         {"aten::copy", "aten::copy_", "aten::clamp_min", "aten::clamp_min_",
          "aten::clamp_max", "aten::clamp_max_", "aten::sigmoid",
          "aten::rsqrt", "aten::silu", "aten::neg", "aten::pow",
          "aten::replication_pad1d", "aten::replication_pad2d",
          "aten::replication_pad3d", "aten::upsample_nearest1d",
          "aten::upsample_nearest2d", "aten::upsample_nearest3d",
          "aiter::silu_and_mul", "_C::silu_and_mul", "sgl_kernel::silu_and_mul",
          "aiter::gelu_and_mul", "aiter::gelu_tanh_and_mul"},
         "elementwise", "UnaryElementwise");
  // MoE (inference §D.5), then RMSNorm (§D.3): the sheet order of §A.7.
  addAll(R,
         {"aiter::fmoe_fp8_blockscale_g1u1", "aiter::fmoe_g1u1",
          "pseudo_op::moe_aiter_fused_1stage"},
         "MoE_fused");
  addAll(R,
         {"aiter::moe_cktile2stages_gemm1_ck",
          "aiter::moe_cktile2stages_gemm2_ck", "aiter::ck_moe_stage1",
          "aiter::ck_moe_stage2",
          "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
          "pseudo_op::moe_triton_unfused_up",
          "pseudo_op::moe_triton_unfused_down"},
         "MoE_unfused");
  addAll(R,
         {"aiter::biased_grouped_topk_hip", "aiter::moe_sorting_fwd",
          "aiter::mxfp4_moe_sort_hip", "aiter::topk_softplus"},
         "MoE_aux");
  addAll(R,
         {"aiter::rms_norm", "aiter::rmsnorm2d_fwd_ck", "aiter::rmsnorm",
          "aiter::rmsnorm2d_fwd_with_add_ck", "aiter::add_rmsnorm",
          "aiter::rmsnorm2d_fwd_with_dynamicquant_ck", "aiter::rmsnorm_quant",
          "vllm::rocm_aiter_rmsnorm_fp8_group_quant",
          "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
          "vllm::rocm_aiter_triton_add_rmsnorm_pad",
          "aiter::fused_add_rmsnorm_pad_",
          "sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant",
          "aiter::_fuse_rmsnorm_fp4_quant"},
         "RMSNorm");
  addAll(R, {"aiter::mixed_sample_outer_exponential"}, "elementwise",
         "elementwise");
  // Quantisation (§D.6): four on the BinaryElementwise sheet, the mxfp4
  // ones on their own (fused_dynamic_mxfp4_quant_moe_sort_hip's category
  // is overridden to MoE_aux by the category-only map below).
  addAll(R,
         {"aiter::dynamic_per_token_scaled_quant",
          "aiter::dynamic_per_group_scaled_quant",
          "aiter::dynamic_per_tensor_quant",
          "vllm::triton_per_token_group_quant_fp8"},
         "GroupQuant", "BinaryElementwise");
  addAll(R,
         {"sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant",
          "aiter::fused_dynamic_mx_quant_moe_sort_hip",
          "sglang_profiler::quant_dynamic_mxfp4_quant",
          "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip",
          "aiter::dynamic_per_group_scaled_quant_fp4"},
         "GroupQuant");
  addAll(R,
         {"aiter::fused_qk_rope_concat_and_cache_mla",
          "aiter::fused_qk_rope_cat_and_cache_mla"},
         "RoPE_fwd", "FusedRoPE");
  addAll(R,
         {"aiter::fused_allreduce_rmsnorm", "aiter::fused_allreduce_rmsnorm_",
          "_C_custom_ar::all_reduce", "_C_custom_ar::qr_all_reduce",
          "sgl_kernel::all_reduce_reg", "sgl_kernel::qr_all_reduce",
          "aiter::reduce_scatter", "aiter::all_gather_reg",
          "sglang::reg_all_gather_into_tensor"},
         "CustomCollective");
  // Normalization forward: 4 prefixes x 4 kinds, then RMS and extensions.
  for (const char *Kind : {"batch_norm", "layer_norm", "group_norm",
                           "instance_norm"})
    for (const char *Prefix : {"", "native_", "miopen_", "cudnn_"})
      R.addModelOp(std::string("aten::") + Prefix + Kind, "NORM_fwd",
                   "Normalization");
  addAll(R,
         {"aten::_fused_rms_norm", "primus::fused_ln_modulate",
          "aiter::_groupnorm_run"},
         "NORM_fwd", "Normalization");
  for (const char *Kind : {"batch_norm", "layer_norm", "group_norm",
                           "instance_norm", "rms_norm"})
    for (const char *Prefix : {"", "native_", "miopen_", "cudnn_"})
      R.addModelOp(std::string("aten::") + Prefix + Kind + "_backward",
                   "NORM_bwd", "Normalization");
  addAll(R,
         {"aten::_fused_rms_norm_backward",
          "primus::fused_ln_modulate_backward"},
         "NORM_bwd", "Normalization");
  addAll(R,
         {"aten::sum", "aten::mean", "aten::max", "aten::min", "aten::norm",
          "aten::linalg_norm", "aten::std", "aten::var", "aten::logsumexp",
          "aten::cumsum", "aten::cumprod", "aten::amin", "aten::amax"},
         "reduce", "Reduce");

  // §4.3 category-only map.
  for (const char *N : {"aten::miopen_convolution", "aten::cudnn_convolution"})
    R.addCategoryOnly(N, "CONV_fwd");
  for (const char *N :
       {"FlashAttnFuncBackward", "FusedAttnFuncBackward",
        "aten::_scaled_dot_product_cudnn_attention_backward",
        "aten::_scaled_dot_product_efficient_attention_backward",
        "aten::_scaled_dot_product_flash_attention_backward",
        "aten::_efficient_attention_backward"})
    R.addCategoryOnly(N, "SDPA_bwd");
  R.addCategoryOnly("aten::_efficient_attention_forward", "SDPA_fwd");
  for (const char *N : {"MambaSplitConv1dScanCombinedFnBackward",
                        "DaoAILab::_causal_conv1d_bwd_cpp"})
    R.addCategoryOnly(N, "SSM_bwd");
  for (const char *N : {"TokenPermuteMaskMap", "_OperationFuserAutogradFunction"})
    R.addCategoryOnly(N, "MoE_comm_fwd");
  for (const char *N :
       {"MoEDispatchBackward", "MoECombineBackward",
        "TokenPermuteMaskMapBackward",
        "_OperationFuserAutogradFunctionBackward"})
    R.addCategoryOnly(N, "MoE_comm_bwd");
  R.addCategoryOnly("FusedRoPEFuncBackward", "RoPE_bwd");
  R.addCategoryOnly("CrossEntropyFunctionBackward", "CrossEntropy_bwd");
  for (const char *N :
       {"aiter::moe_sorting_opus_fwd", "aiter::moe_align_block_size",
        "_moe_C::moe_align_block_size", "aiter::moe_sum", "aiter::topk_softmax",
        "aiter::topk_softmax_asm", "aiter::topk_sigmoid", "aiter::grouped_topk",
        "aiter::moe_fused_gate", "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip",
        "aiter::fused_moe_->_fused_dynamic_mxfp4_quant_moe_sort_kernel "
        "(Synthetic Op)"})
    R.addCategoryOnly(N, "MoE_aux");
  for (const char *N :
       {"_C_cache_ops::reshape_and_cache_flash",
        "_C_cache_ops::concat_and_cache_mla", "aiter::get_mla_metadata_v1",
        "aiter::indexer_score_topk",
        "hipModuleLaunchKernel->kv_indices_generate_kernel (Synthetic Op)",
        "aiter::v4_attention_with_output->_update_compressor_states_kernel "
        "(Synthetic Op)",
        "aiter::v4_attention_with_output->_swa_write_kernel (Synthetic Op)",
        "aiter::v4_attention_with_output->fused_compress_attn_D512_RD64_R4_"
        "OVL_SS8_KB32_rmsbf16_pf_flydsl (Synthetic Op)",
        "aiter::v4_attention_with_output->fused_compress_attn_D128_RD64_R4_"
        "OVL_SS8_KB32_Q_ue8m0_psh_rmsbf16_pf_flydsl (Synthetic Op)",
        "aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW4_"
        "SL256_S128_flydsl (Synthetic Op)",
        "aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW8_"
        "SL128_S128_flydsl (Synthetic Op)"})
    R.addCategoryOnly(N, "InferenceAttention");
  // §D.9: synthetic ops are matched exactly, suffix and signature included.
  for (const char *N :
       {"aiter::unified_attention_with_output_base->_fused_qk_rope_reshape_"
        "and_cache_kernel (Synthetic Op)",
        "aiter::v4_attention_with_output->_inverse_rope_gptj_kernel "
        "(Synthetic Op)",
        "aiter::v4_attention_with_output->qk_norm_rope_H32_D512_RD64_flydsl "
        "(Synthetic Op)",
        "aiter::v4_attention_with_output->qk_norm_rope_H64_D512_RD64_flydsl "
        "(Synthetic Op)",
        "aiter::v4_attention_with_output->hca_norm_rope_scatter_D512_RD64_"
        "R128_KB1_rmsbf16_flydsl (Synthetic Op)"})
    R.addCategoryOnly(N, "FusedRoPE");
  for (const char *N :
       {"aiter::allgather_lastdim<std::bfloat16_t, 2>(aiter::RankData*, "
        "aiter::RankSignals, aiter::Signal*, std::bfloat16_t*, int, int, int) "
        "(Synthetic Op)",
        "aiter::allgather_lastdim<std::bfloat16_t, 4>(aiter::RankData*, "
        "aiter::RankSignals, aiter::Signal*, std::bfloat16_t*, int, int, int) "
        "(Synthetic Op)"})
    R.addCategoryOnly(N, "CustomCollective");
  return R;
}

const CategoryRegistry &CategoryRegistry::builtin() {
  static const CategoryRegistry R = makeBuiltin();
  return R;
}
