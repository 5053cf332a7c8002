//===- IterationAnnotationTest.cpp - Serving runners' iteration names -----===//
//
// One name per format of spec/tracelens-inference.md §A.1, batch sizes
// worked out by hand from the format's rule.
//
//===----------------------------------------------------------------------===//
#include "tl/Support/IterationAnnotation.h"

#include <gtest/gtest.h>

using namespace tl;

namespace {

TEST(IterationAnnotation, VllmDetailed) {
  IterationAnnotationParser P;
  // The vllm_decode_full annotation: c_sq + g_sq = 0 + 32.
  IterationAnnotation A = P.parse(
      "execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32("
      "sq32sk55086sqsq32sqsk55086)");
  EXPECT_EQ(A.Format, IterationFormat::VllmDetailed);
  EXPECT_EQ(A.BatchSize, 32);
  // sglang_prefilldecode's first annotation: 15360 + 0.
  A = P.parse("execute_15360_context_15(sq15360sk15360sqsq15728640sqsk15728640)"
              "_generation_0(sq0sk0sqsq0sqsk0)");
  EXPECT_EQ(A.BatchSize, 15360);
  EXPECT_TRUE(P.matchesDetailed("execute_1_context_1(sq1sk1sqsq1sqsk1)"
                                "_generation_0(sq0sk0sqsq0sqsk0)"));
}

TEST(IterationAnnotation, VllmNative) {
  IterationAnnotationParser P;
  // Cs + Gs = 7 + 5.
  IterationAnnotation A = P.parse("execute_context_2(7)_generation_5(5)");
  EXPECT_EQ(A.Format, IterationFormat::VllmNative);
  EXPECT_EQ(A.BatchSize, 12);
  EXPECT_TRUE(P.matchesNative("execute_context_2(7)_generation_5(5)"));
  EXPECT_FALSE(P.matchesDetailed("execute_context_2(7)_generation_5(5)"));
}

TEST(IterationAnnotation, Sglang) {
  IterationAnnotationParser P;
  // Detailed: c_sq + g_sq = 10 + 3.
  IterationAnnotation A =
      P.parse("step[MIXED bs=4 toks=13 c_sq=10 g_sq=3 sqsq=103]");
  EXPECT_EQ(A.Format, IterationFormat::SglangDetailed);
  EXPECT_EQ(A.BatchSize, 13);
  // Detailed without c_sq/g_sq: toks.
  EXPECT_EQ(P.parse("step[EXTEND bs=2 toks=99 sqsq=5]").BatchSize, 99);
  // Native: EXTEND takes toks, DECODE bs, EXTEND without toks bs.
  A = P.parse("step[EXTEND bs=15 toks=15360]");
  EXPECT_EQ(A.Format, IterationFormat::SglangNative);
  EXPECT_EQ(A.BatchSize, 15360);
  EXPECT_EQ(P.parse("step[DECODE bs=8 toks=8]").BatchSize, 8);
  EXPECT_EQ(P.parse("step[EXTEND bs=6]").BatchSize, 6);
  // Prefix matches sglang_native, but not the full form: not a format.
  A = P.parse("step[DECODE bs=8 extra]");
  EXPECT_EQ(A.Format, IterationFormat::None);
  EXPECT_EQ(A.BatchSize, 1);
}

TEST(IterationAnnotation, AtomAndDiffusion) {
  IterationAnnotationParser P;
  IterationAnnotation A = P.parse("decode[bs=117/128 tok=117 sqsq=5 sqsk=9]");
  EXPECT_EQ(A.Format, IterationFormat::AtomDetailed);
  EXPECT_EQ(A.BatchSize, 117);
  A = P.parse("prefill[bs=2 tok=4096]");
  EXPECT_EQ(A.Format, IterationFormat::AtomNative);
  EXPECT_EQ(A.BatchSize, 4096);
  A = P.parse("execute_diffusion_2_1024x1024");
  EXPECT_EQ(A.Format, IterationFormat::DiffusionNative);
  EXPECT_EQ(A.BatchSize, 2);
}

TEST(IterationAnnotation, NoFormat) {
  IterationAnnotationParser P;
  IterationAnnotation A = P.parse("ProfilerStep#3");
  EXPECT_EQ(A.Format, IterationFormat::None);
  EXPECT_EQ(A.BatchSize, 1);
  EXPECT_FALSE(P.matchesDetailed("ProfilerStep#3"));
  EXPECT_FALSE(P.matchesNative("ProfilerStep#3"));
  // A prefix match only: text before the pattern does not match.
  EXPECT_FALSE(P.matchesNative("x_execute_context_2(7)_generation_5(5)"));
  // Very long names are no iteration names.
  EXPECT_EQ(P.parse(std::string(10000, 'a')).Format, IterationFormat::None);
}

} // namespace
