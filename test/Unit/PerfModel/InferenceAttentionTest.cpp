//===- InferenceAttentionTest.cpp - serving attention models (§D.2) -------===//
#include "ExtTestUtil.h"

#include "tl/Analysis/IterationAnnotation.h"

using namespace tl;
using namespace tl::test;

static OpDesc withAnnotation(OpDesc Op, const char *Ann) {
  Op.Annotation = Ann;
  return Op;
}

// vllm_decode_full: g_sq 32, g_sk = g_sqsk 55086, H_Q 64, H_KV 8, d 64:
// flops = 64*(2*55086*64*2) = 902529024; bytes = 32*(4096+4096+512+512)*2
// + (55086-32)*8*128*2 = 589824 + 112750592 = 113340416 -> 108.08984375 MB
// (spec §D.2 worked example, InferenceAttention_fwd.csv).
TEST(InferenceAttention, VllmDecode) {
  OpDesc Op = withAnnotation(
      makeOp("vllm::unified_attention_with_output",
             "[[32, 64, 64], [32, 8, 64], [32, 8, 64], [32, 64, 64]]",
             "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
             "'c10::BFloat16']",
             "", "[]"),
      "execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32"
      "sqsk55086)");
  PerfModelResult R = expectModel(Op, 902529024.0, 113340416.0, "matrix_bf16");
  expectCells(R, "0.902529024", "108.08984375");
  EXPECT_EQ(paramsText(R),
            "B=1; N_Q=32; H_Q=64; H_V=8; H_K=8; N_KV=32; H_KV=8; d_h_qk=64; "
            "d_h_v=64; dropout=0.0; causal=False; flash_impl=True; c_sq=0; "
            "c_sk=0; c_sqsq=0; c_sqsk=0; g_sq=32; g_sk=55086; g_sqsq=32; "
            "g_sqsk=55086; dtype_Q=c10::BFloat16; dtype_KV=c10::BFloat16");
}

// sglang_prefilldecode aiter::mha_batch_prefill: c_sq = c_sk 15360, c_sqsq =
// c_sqsk 15728640, H_Q 32, H_KV 8, d 128: flops = 32*(2*15728640*256 -
// 15728640*256) = 128849018880; bytes = 15360*(4096+4096+1024+1024)*2 =
// 314572800 -> 300.0 MB.
TEST(InferenceAttention, SglangBatchPrefill) {
  OpDesc Op = withAnnotation(
      makeOp("aiter::mha_batch_prefill",
             "[[15360, 32, 128], [835874, 8, 128], [835874, 8, 128]]",
             "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16']", "", "[]"),
      "execute_15360_context_15(sq15360sk15360sqsq15728640sqsk15728640)_"
      "generation_0(sq0sk0sqsq0sqsk0)");
  expectCells(expectModel(Op, 128849018880.0, 314572800.0, "matrix_bf16"),
              "128.84901888", "300.0");
}

// pa_decode_gluon with a 256-token window: g_sq 4, g_sk = g_sqsk 4000 are
// capped at 4*256 = 1024. flops = 8*(2*1024*64 + 2*1024*64) = 2097152;
// bytes = 4*(512+512+128+128)*2 + (1024-4)*2*128*2 = 10240 + 522240 = 532480.
TEST(InferenceAttention, DecodeGluonSlidingWindow) {
  std::string Concrete = "[";
  for (int I = 0; I < 20; ++I)
    Concrete += I == 19 ? "'256'" : "'', ";
  Concrete += "]";
  OpDesc Op = withAnnotation(
      makeOp("aiter::pa_decode_gluon",
             "[[4, 8, 64], [100, 16, 2, 64], [100, 2, 16, 64]]",
             "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16']", "",
             Concrete),
      "step[DECODE bs=4 g_sq=4 g_sk=4000 g_sqsq=4 g_sqsk=4000]");
  PerfModelResult R = expectModel(Op, 2097152.0, 532480.0, "matrix_bf16");
  EXPECT_EQ(R.Params.back().first, "sliding_window");
  EXPECT_EQ(R.Params.back().second.getInt(), 256);
}

// (15360, 1024) bf16: bytes = 4*15728640*2 = 125829120 -> 120.0 MB, 0 FLOPs.
TEST(InferenceAttention, StoreCache) {
  OpDesc Op = makeOp("sglang::store_cache", "[[15360, 1024], [15360, 1024]]",
                     "['c10::BFloat16', 'c10::BFloat16']", "", "[]");
  PerfModelResult R = expectModel(Op, 0.0, 125829120.0, "vector_bf16");
  expectCells(R, "0.0", "120.0");
  EXPECT_EQ(paramsText(R),
            "op_shape=(15360, 1024); nelems=15728640; dtype=c10::BFloat16");
}

// GDN: D = 384, H_V 8, d_v 32 -> H_K 4, d_k = ((384 - 256)//2)//4 = 16;
// Ttok = 10 + 2 = 12: flops = 12*8*7*32*16 = 344064; bytes = 12*8*(16 +
// 64 + 2)*2 = 15744.
TEST(InferenceAttention, GatedDeltaNet) {
  OpDesc Op = withAnnotation(
      makeOp("vllm::gdn_attention_core",
             "[[12, 384], [12, 8], [12, 8], [4, 8, 32]]",
             "['c10::BFloat16', 'c10::BFloat16', 'float', 'c10::BFloat16']",
             "", "[]"),
      "execute_12_context_1(sq10sk10sqsq100sqsk100)_generation_2(sq2sk50sqsq2"
      "sqsk50)");
  expectModel(Op, 344064.0, 15744.0, "matrix_bf16");
}

// Without an annotation the reference's no-perf set has no FLOPs: a plain
// error (row leaves the sheets, keeps its kernel time); no query tokens at
// all is NotImplementedError (row dropped everywhere).
TEST(InferenceAttention, AnnotationErrors) {
  OpDesc Op = makeOp("vllm::unified_attention_with_output",
                     "[[32, 64, 64], [32, 8, 64]]",
                     "['c10::BFloat16', 'c10::BFloat16']", "", "[]");
  auto NA = buildPerfModel(Op);
  ASSERT_FALSE(!!NA);
  EXPECT_FALSE(isNotImplemented(NA.takeError()));
  Op.Annotation =
      "execute_0_context_0(sq0sk0sqsq0sqsk0)_generation_0(sq0sk0sqsq0sqsk0)";
  auto Zero = buildPerfModel(Op);
  ASSERT_FALSE(!!Zero);
  EXPECT_TRUE(isNotImplemented(Zero.takeError()));
  // gdn has no error handling: an unparseable annotation is NotImplemented.
  OpDesc G = makeOp("vllm::gdn_attention_core",
                    "[[12, 384], [12, 8], [12, 8], [4, 8, 32]]",
                    "['c10::BFloat16']", "", "[]");
  auto GR = buildPerfModel(G);
  ASSERT_FALSE(!!GR);
  EXPECT_TRUE(isNotImplemented(GR.takeError()));
}

TEST(IterationAnnotation, Formats) {
  auto V = parseChunkStats("execute_32_context_0(sq1sk2sqsq3sqsk4)_generation_"
                           "32(sq5sk6sqsq7sqsk8)_more");
  ASSERT_TRUE(V.has_value());
  EXPECT_EQ(V->CSq, 1);
  EXPECT_EQ(V->CSqSk, 4);
  EXPECT_EQ(V->GSq, 5);
  EXPECT_EQ(V->GSqSk, 8);
  // sglang: missing keys are 0; EXTEND must end a word.
  auto S = parseChunkStats("step[EXTEND bs=15 toks=15360 c_sq=15360 "
                           "c_sqsq=9 g_sk=3]");
  ASSERT_TRUE(S.has_value());
  EXPECT_EQ(S->CSq, 15360);
  EXPECT_EQ(S->CSqSq, 9);
  EXPECT_EQ(S->CSk, 0);
  EXPECT_EQ(S->GSk, 3);
  EXPECT_FALSE(parseChunkStats("step[EXTENDED c_sqsq=9]").has_value());
  // Native formats have no sq/sk.
  EXPECT_FALSE(parseChunkStats("step[EXTEND bs=15 toks=15360]").has_value());
  EXPECT_FALSE(parseChunkStats("execute_context_1(2)_generation_3(4)")
                   .has_value());
  EXPECT_FALSE(parseChunkStats("NA").has_value());
  // ATOM: prefill fills c_*, decode g_*, sq = tok; needs sqsq and sqsk.
  auto A = parseChunkStats("decode[bs=117/128 tok=117 sk=900 sqsq=117 "
                           "sqsk=900]");
  ASSERT_TRUE(A.has_value());
  EXPECT_EQ(A->GSq, 117);
  EXPECT_EQ(A->GSk, 900);
  EXPECT_EQ(A->CSq, 0);
  EXPECT_FALSE(parseChunkStats("prefill[bs=1 tok=8 sqsq=64]").has_value());
  EXPECT_TRUE(isAnnotationTarget("aiter::mha_batch_prefill"));
  EXPECT_TRUE(isAnnotationTarget("pseudo_v4_paged_decode_swa_x"));
  EXPECT_FALSE(isAnnotationTarget("sglang::store_cache"));
}
