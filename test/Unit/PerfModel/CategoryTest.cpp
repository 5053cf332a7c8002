//===- CategoryTest.cpp - op categorization (spec §4, §3.2) ---------------===//
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/PerfModel.h"

#include "gtest/gtest.h"

using namespace tl;

TEST(Category, RegistryAndOverrides) {
  const CategoryRegistry &R = CategoryRegistry::builtin();
  EXPECT_EQ(R.categorize("aten::mm", ""), "GEMM");
  EXPECT_EQ(R.categorize("aten::add", ""), "elementwise");
  EXPECT_EQ(R.categorize("aten::native_layer_norm_backward", ""), "NORM_bwd");
  EXPECT_EQ(R.categorize("aten::_efficient_attention_backward", ""), "SDPA_bwd");
  EXPECT_EQ(R.categorize("aten::cudnn_convolution", ""), "CONV_fwd");
  // The category-only map wins over the model map (§4.3).
  EXPECT_EQ(R.categorize("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", ""),
            "MoE_aux");
  EXPECT_TRUE(R.isModelOp("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip"));
  EXPECT_EQ(*R.sheetCategory("aten::add"), "BinaryElementwise");
  EXPECT_EQ(*R.sheetCategory("aten::convolution_backward"), "CONV");
  EXPECT_EQ(*R.sheetCategory("aiter::fused_qk_rope_cat_and_cache_mla"),
            "FusedRoPE");
  EXPECT_FALSE(R.sheetCategory("aten::linear").has_value());
}

TEST(Category, Fallbacks) {
  const CategoryRegistry &R = CategoryRegistry::builtin();
  EXPECT_EQ(R.categorize("triton_poi_fused_add_0", ""), "triton");
  EXPECT_EQ(R.categorize("record_param_comms", ""), "record_param_comms");
  EXPECT_EQ(R.categorize("aten::fill_",
                         "void at::native::vectorized_elementwise_kernel<4>"),
            "elementwise");
  EXPECT_EQ(R.categorize("aten::argmax", "void at::native::reduce_kernel<512>"),
            "reduce");
  EXPECT_EQ(R.categorize("aten::_foreach_add_",
                         "void at::native::(anonymous namespace)::"
                         "multi_tensor_apply_kernel<...>"),
            "multi_tensor_apply");
  // Composites are not modeled: aten::linear, aten::_flash_attention_forward.
  EXPECT_EQ(R.categorize("aten::linear", "Cijk_Alik_Bljk"), "other");
  EXPECT_EQ(R.categorize("aten::_flash_attention_forward", ""), "other");
}

TEST(Category, SheetOrderFollowsSpec) {
  // §4.4 / inference §A.7 order; mHC (§D.8) is not registered yet.
  std::vector<std::string> Expected = {
      "GEMM",      "SDPA",         "CONV",        "InferenceAttention",
      "BinaryElementwise", "GroupedGEMM", "MoE_comm", "SSM", "RoPE",
      "CrossEntropy", "UnaryElementwise", "MoE_fused", "MoE_unfused",
      "MoE_aux", "RMSNorm", "elementwise", "GroupQuant", "FusedRoPE",
      "CustomCollective", "Normalization", "Reduce"};
  EXPECT_EQ(CategoryRegistry::builtin().sheetOrder(), Expected);
}

TEST(Category, EveryModelIsRegistered) {
  const CategoryRegistry &R = CategoryRegistry::builtin();
  for (const std::string &N : perfModelOpNames())
    EXPECT_TRUE(R.isModelOp(N)) << N;
}

TEST(Category, PluginsExtendACopy) {
  CategoryRegistry R = CategoryRegistry::builtin();
  R.addModelOp("myext::fused_gemm", "GEMM");
  R.addCategoryOnly("myext::helper", "MoE_aux");
  EXPECT_EQ(R.categorize("myext::fused_gemm", ""), "GEMM");
  EXPECT_EQ(R.categorize("myext::helper", ""), "MoE_aux");
  EXPECT_EQ(CategoryRegistry::builtin().categorize("myext::fused_gemm", ""),
            "other");
  auto Ops = R.opsOfSheet("GEMM");
  EXPECT_EQ(Ops.front(), "aten::mm");
  EXPECT_EQ(Ops.back(), "myext::fused_gemm");
}

TEST(Category, KernelBuckets) {
  EXPECT_TRUE(isCommKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
  EXPECT_TRUE(isCommKernel("void rcclGenericKernel<1, false>(ncclDevComm*)"));
  EXPECT_TRUE(isCommKernel("cross_device_reduce_1stage<bf16, 8>"));
  EXPECT_TRUE(isCommKernel("NCCLsomething"));
  EXPECT_FALSE(isCommKernel("Memset (Device)"));
  EXPECT_TRUE(isLegacyCopyKernel("MEMORY_COPY_DEVICE_TO_HOST"));
  EXPECT_TRUE(isLegacyCopyKernel("__amd_rocclr_copyBufferRectAligned.kd"));
  EXPECT_TRUE(isLegacyCopyKernel("__amd_rocclr_copyBuffer"));
  EXPECT_FALSE(isLegacyCopyKernel("__amd_rocclr_copyBufferAlignedRect"));
  EXPECT_FALSE(isLegacyCopyKernel("x__amd_rocclr_copyBuffer"));
  EXPECT_TRUE(isFillKernel("__amd_rocclr_fillBufferAligned.kd"));
  EXPECT_FALSE(isFillKernel("__amd_rocclr_fillBuffer.kd.kd"));
}
