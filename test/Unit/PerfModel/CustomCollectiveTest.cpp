//===- CustomCollectiveTest.cpp - custom collectives (§D.7) ---------------===//
#include "ExtTestUtil.h"

using namespace tl;
using namespace tl::test;

// all_reduce of (32, 2880) bf16: bytes = 2*92160*2 = 368640, no FLOPs, no
// Compute Spec (the class has neither maf nor precision).
TEST(CustomCollective, AllReduce) {
  OpDesc Op = makeOp("_C_custom_ar::all_reduce",
                     "[[], [32, 2880], [32, 2880], [], []]",
                     "['Int', 'c10::BFloat16', 'c10::BFloat16', 'Int', 'Int']",
                     "", "[]");
  PerfModelResult R = expectModel(Op, 0.0, 368640.0, "");
  EXPECT_EQ(R.Category, "CustomCollective");
}

// all-reduce + RMSNorm, x (4, 256), c = 256: flops = 1024 + 4*514 + 2048 =
// 5128; bytes = 4*1024*2 + 256*2 = 8704.
TEST(CustomCollective, FusedAllreduceRmsnorm) {
  OpDesc Op = makeOp("aiter::fused_allreduce_rmsnorm_",
                     "[[4, 256], [4, 256], [256], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
                     "'Double']",
                     "", "[]");
  expectModel(Op, 5128.0, 8704.0, "");
}

// An unknown dtype makes the reference's bytes raise: the row is skipped.
TEST(CustomCollective, UnknownDtypeIsAnError) {
  OpDesc Op = makeOp("sgl_kernel::all_reduce_reg", "[[], [32, 2880]]",
                     "['Int', 'bool']", "", "[]");
  EXPECT_FALSE(!!buildPerfModel(Op));
  llvm::consumeError(buildPerfModel(Op).takeError());
}
