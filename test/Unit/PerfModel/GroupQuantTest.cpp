//===- GroupQuantTest.cpp - quantisation and activation models (§D.6) -----===//
#include "ExtTestUtil.h"

using namespace tl;
using namespace tl::test;

// out (4, 128) fp8, in (4, 128) bf16, scale (4, 1) fp32: flops = 2.59375*512
// = 1328; bytes = 512*1 + 512*2 + 4*4 = 1552.
TEST(GroupQuant, AiterPerTokenScaledQuant) {
  OpDesc Op = makeOp("aiter::dynamic_per_token_scaled_quant",
                     "[[4, 128], [4, 128], [4, 1]]",
                     "['c10::Float8_e4m3fnuz', 'c10::BFloat16', 'float']",
                     "[[128, 1], [128, 1], [1, 1]]", "[]");
  PerfModelResult R = expectModel(Op, 1328.0, 1552.0, "vector_bf16");
  EXPECT_EQ(R.Category, "GroupQuant");
}

// x (4, 256) bf16, group 128 -> 2 groups a row: flops = 6*1024 = 6144;
// bytes = 1024*2 + 1024 + 4*4*2 = 3104.
TEST(GroupQuant, VllmTritonGroupFp8) {
  OpDesc Op = makeOp("vllm::triton_per_token_group_quant_fp8",
                     "[[4, 256], []]", "['c10::BFloat16', 'Int']", "",
                     "['', '128']");
  expectModel(Op, 6144.0, 3104.0, "vector_bf16");
  // A blank group size is 128 as well.
  Op.ConcreteInputs[1] = "";
  expectModel(Op, 6144.0, 3104.0, "vector_bf16");
}

// mxfp4: n = 64*64 = 4096: flops 8192; bytes = 4096*2 + 0.5*4096 + 4096//32
// = 8192 + 2048 + 128 = 10368.
TEST(GroupQuant, Mxfp4) {
  OpDesc Op = makeOp("sglang_profiler::quant_dynamic_mxfp4_quant",
                     "[[64, 64]]", "['c10::BFloat16']", "", "[]");
  expectModel(Op, 8192.0, 10368.0, "vector_bf16");
}

// sglang_prefilldecode UnaryElementwise.csv: sgl_kernel::silu_and_mul out
// (15360, 12288), n = 188743680: flops = 5n = 943718400; bytes = 2n*2 + n*2
// = 1132462080 -> 1080.0 MB.
TEST(Activation, SglSiluAndMul) {
  OpDesc Op = makeOp("sgl_kernel::silu_and_mul",
                     "[[15360, 12288], [15360, 24576]]",
                     "['c10::BFloat16', 'c10::BFloat16']",
                     "[[12288, 1], [24576, 1]]", "['', '']");
  PerfModelResult R =
      expectModel(Op, 943718400.0, 1132462080.0, "vector_bf16");
  expectCells(R, "0.9437184", "1080.0");
  EXPECT_EQ(paramsText(R),
            "op_shape=(15360, 12288); dtype_in_out=('c10::BFloat16', "
            "'c10::BFloat16'); stride_input=(24576, 1); "
            "stride_output=(12288, 1)");
}

// gelu tanh: out (2, 4), n = 8: flops = 10*8 = 80; bytes = 2*8*2 + 8*2 = 48.
TEST(Activation, GeluTanhAndMul) {
  OpDesc Op = makeOp("aiter::gelu_tanh_and_mul", "[[2, 4], [2, 8]]",
                     "['c10::BFloat16', 'c10::BFloat16']", "", "[]");
  expectModel(Op, 80.0, 48.0, "vector_bf16");
}
