//===- KernelClassifierTest.cpp - Kernel classifier vectors ---------------===//
//
// The verified vectors of tracelens-analysis §4.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/KernelClassifier.h"

#include <gtest/gtest.h>

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

} // namespace
