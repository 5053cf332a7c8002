//===- KernelClassifierTest.cpp - Kernel classifier vectors ---------------===//
//
// The verified vectors of tracelens-analysis §4.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/KernelClassifier.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tl;

namespace {

void expectClass(const char *Name, const char *Type, const char *Perf,
                 int Conf) {
  KernelClass C = classifyKernel(Name);
  EXPECT_EQ(C.KernelType, Type) << Name;
  EXPECT_EQ(C.PerfCategory, Perf) << Name;
  EXPECT_EQ(C.Confidence, Conf) << Name;
}

TEST(KernelClassifier, SpecVectors) {
  expectClass("memcpy_dtoh", "MemCpy", "MemCpy", 30);
  expectClass("Cijk_Alik_Bljk", "GEMM", "GEMM", 12);
  expectClass("Cijk_gemm_kernel", "GEMM", "GEMM", 12);
  // Block A shadows block B's equal-priority "Normalization".
  expectClass("rmsnorm2d", "RMSNorm", "Others", 20);
  expectClass("rotary_embed", "Rotary Embedding", "Elementwise", 18);
  // `embedding` (20) outranks `rotary` (18).
  expectClass("rotary_embedding", "Elementwise", "Elementwise", 20);
  expectClass("layer_norm_kernel", "LayerNorm", "Others", 20);
  // Priority 3 < MIN_CONFIDENCE 5.
  expectClass("triton_poi_fused_add_0", "Unknown", "Others", 0);
  expectClass("myquantthing", "Unknown", "Others", 0);
  expectClass("silu_and_mul_kernel", "Activation (SiLU+Mul)", "Others", 18);
  expectClass("ncclKernel_AllReduce", "Unknown", "Others", 0);
  expectClass("reshape_and_cache_flash", "KV Cache Store", "Elementwise", 20);
}

TEST(KernelClassifier, CaseInsensitiveAndWordBoundaries) {
  expectClass("CUTLASS_GEMM_tn", "GEMM", "GEMM", 5);
  // \bgelu\b needs a word boundary; "_" is a word character.
  expectClass("gelu kernel", "Activation (GELU)", "Others", 15);
  expectClass("fused_gelu_kernel", "Unknown", "Others", 0);
}

/// Names made from rule R's pattern: each branch with `.*` filled by
/// nothing, a word, a dot run or a newline, `\d`/`\d+` by digits, classes
/// by each member, `\b` by nothing; then case and neighbours varied.
std::vector<std::string> namesFromPattern(llvm::StringRef Pattern) {
  std::vector<std::string> Out;
  llvm::SmallVector<llvm::StringRef, 4> Branches;
  Pattern.split(Branches, '|');
  const char *Fills[] = {"", "x_Y", "..", "\n", "42"};
  for (llvm::StringRef B : Branches)
    for (const char *Fill : Fills)
      for (int Member = 0; Member < 2; ++Member) {
        std::string S;
        for (size_t I = 0; I < B.size(); ++I) {
          char C = B[I];
          if (C == '.' && I + 1 < B.size() && B[I + 1] == '*') {
            S += Fill;
            ++I;
          } else if (C == '\\' && I + 1 < B.size()) {
            char E = B[++I];
            if (E == 'd') {
              S += Member ? "7" : "123";
              if (I + 1 < B.size() && B[I + 1] == '+')
                ++I;
            }
          } else if (C == '[') {
            size_t End = B.find(']', I);
            S += B[std::min(I + 1 + Member, End - 1)];
            I = End;
          } else {
            S += C;
          }
        }
        Out.push_back(S);
        Out.push_back(llvm::StringRef(S).upper());
        Out.push_back("a" + S + "b");
        Out.push_back("_" + S + "_");
        Out.push_back(" " + S + ".");
        Out.push_back("void " + S + "<float>(int)");
        if (S.size() > 1) {
          Out.push_back(S.substr(1));
          Out.push_back(S.substr(0, S.size() - 1));
          Out.push_back(S.substr(0, S.size() / 2) + "\r" +
                        S.substr(S.size() / 2));
        }
      }
  return Out;
}

// The direct matcher answers every rule as std::regex (ECMAScript, icase)
// does, on names built from every rule's pattern and on kernel names of
// the kinds the traces hold.
TEST(KernelClassifier, DirectMatcherEqualsStdRegex) {
  std::vector<std::string> Names = {
      "",
      "void at::native::vectorized_elementwise_kernel<4, "
      "at::native::FillFunctor<float>, at::detail::Array<char*, 1> >",
      "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn",
      "nvjet_tst_128x256_64x4_2x1_v_bz_coopA_TNN",
      "Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1",
      "flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4>>",
      "fmhaSm90Kernel_bf16",
      "fmhasm100f_x",
      "attention_3d_kernel",
      "merge_16x16_to_64x64_inverse_kernel",
      "merge_x16_to_64x64_inverse",
      "triton_per_fused_abs_clamp_div_max_rocm_aiter_gemm_a8w8_0",
      "triton_poi_fused__to_copy_add_mean_mul_pow_rsqrt_1",
      "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
      "gelu",
      "fast_gelu_kernel",
      "silu",
      "act_silu",
      "silu_kernel",
      "aten::_to_copy",
      "_to_copy_x",
      "CUDAFunctorOnSelf_add<int>",
      "cub::DeviceScanKernel<int>",
      "rocprim::detail::radix_sort",
      "my_norm kernel",
      "layer-norm",
      "memcpy32_post",
      "Memcpy DtoH (Device -> Pinned)",
      "swish_\u00e9_kernel",
      "\u00e9silu\u00e9",
  };
  // Every rule of the table is in the direct matcher's subset.
  for (size_t R = 0; R < detail::numKernelRules(); ++R)
    EXPECT_TRUE(detail::kernelRuleIsDirect(R)) << detail::kernelRulePattern(R);
  for (size_t R = 0; R < detail::numKernelRules(); ++R)
    for (const std::string &N : Names)
      EXPECT_EQ(detail::kernelRuleSearch(R, N),
                detail::kernelRuleRegexSearch(R, N))
          << "rule " << R << " name " << N;
  // Every rule against the names made from every pattern.
  std::vector<std::string> Made;
  for (size_t Q = 0; Q < detail::numKernelRules(); ++Q)
    for (std::string &N : namesFromPattern(detail::kernelRulePattern(Q)))
      Made.push_back(std::move(N));
  size_t Matches = 0;
  for (size_t R = 0; R < detail::numKernelRules(); ++R)
    for (const std::string &N : Made) {
      bool Direct = detail::kernelRuleSearch(R, N);
      Matches += Direct;
      ASSERT_EQ(Direct, detail::kernelRuleRegexSearch(R, N))
          << "rule " << R << " name " << N;
    }
  // The corpus exercises matches, not only misses.
  EXPECT_GT(Matches, Made.size());
}

} // namespace
