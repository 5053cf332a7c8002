//===- RopeTest.cpp - rotary-embedding models (§D.4) ----------------------===//
#include "ExtTestUtil.h"

using namespace tl;
using namespace tl::test;

// sglang_prefilldecode RoPE_fwd.csv: head 128 (C3), rot 128 (D4[1]):
// num = 15360*(4096//128 + 1024//128)*128 = 78643200; flops = 3*num =
// 235929600; bytes = 2*num*2 = 314572800 -> 300.0 MB.
TEST(Rope, SglRotaryEmbedding) {
  OpDesc Op = makeOp("sgl_kernel::rotary_embedding",
                     "[[15360], [15360, 4096], [15360, 1024], [], [41216, 128], "
                     "[]]",
                     "['long int', 'c10::BFloat16', 'c10::BFloat16', 'Int', "
                     "'c10::BFloat16', 'Bool']",
                     "", "['', '', '', '128', '', 'True']");
  PerfModelResult R = expectModel(Op, 235929600.0, 314572800.0, "vector_bf16");
  expectCells(R, "0.2359296", "300.0");
  EXPECT_EQ(paramsText(R), "num_elements=78643200");
}

// x (2, 4, 8, 16) = 1024 and y (2, 4, 2, 16) = 256 elements: num = 1280;
// flops = 3840, bytes = 2*1280*2 = 5120.
TEST(Rope, CachedPositions2c) {
  OpDesc Op = makeOp("aiter::rope_cached_positions_2c_fwd_impl",
                     "[[8, 16], [8, 16], [2, 4, 8, 16], [2, 4, 2, 16]]",
                     "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
                     "'c10::BFloat16']",
                     "", "[]");
  expectModel(Op, 3840.0, 5120.0, "vector_bf16");
}

// MLA: T 4, QH 16, D_lora 512, D_pe 64, KH 1, bf16 in, fp8 cache:
// flops = 3*(4*16*64 + 4*1*64) = 13056; bytes = 4*16*576*2*2 + 4*1*576*(2+1)
// = 147456 + 6912 = 154368.
TEST(Rope, FusedQkRopeCatAndCacheMla) {
  OpDesc Op = makeOp("aiter::fused_qk_rope_cat_and_cache_mla",
                     "[[4, 16, 512], [4, 16, 64], [4, 1, 512], [4, 1, 64], "
                     "[100, 1, 576]]",
                     "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
                     "'c10::BFloat16', 'c10::Float8_e4m3fn']",
                     "", "[]");
  expectModel(Op, 13056.0, 154368.0, "vector_bf16");
}
