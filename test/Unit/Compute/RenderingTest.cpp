//===- RenderingTest.cpp - args, kernel names, chains, launcher path ------===//
#include "tl/Compute/ComputeCore.h"

#include "gtest/gtest.h"

using namespace tl::compute;

namespace {

TEST(ComputeRendering, Args) {
  // Spec §5.4 examples.
  EXPECT_EQ(*renderArgs("[[2,3],[]]", "['c10::BFloat16','Scalar']"),
            "(2,3) bf16");
  EXPECT_EQ(*renderArgs("[[128]]", "['c10::BFloat16']"), "(128,) bf16");
  // h100 bert reference, gemm operations[0].
  EXPECT_EQ(*renderArgs("((512,), (141, 512), (512, 512), (), ())",
                        "('c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
                        "'Scalar', 'Scalar')"),
            "(512,) bf16<br>(141,512) bf16<br>(512,512) bf16");
  // Unmapped dtype kept raw; empty dtype trims the space; float -> fp32.
  EXPECT_EQ(*renderArgs("((4,), (2, 2))", "('c10::Float8_e5m2', '')"),
            "(4,) c10::Float8_e5m2<br>(2,2)");
  EXPECT_EQ(*renderArgs("((), (3,))", "('float', 'double')"),
            "() fp32<br>(3,) fp64");
  EXPECT_FALSE(renderArgs("((),)", "('Scalar',)"));
  EXPECT_FALSE(renderArgs("", "('float',)"));
  EXPECT_FALSE(renderArgs("((1,", "('float',)"));
  EXPECT_EQ(normalizeDType("c10::Float8_e4m3fnuz"), "fp8");
  EXPECT_EQ(normalizeDType("c10::Half"), "fp16");
}

TEST(ComputeRendering, KernelNames) {
  std::string Long(80, 'k');
  auto [One, OneT] = kernelNames("['a.py(1): f', 'aten::mm', '" + Long + "']");
  EXPECT_EQ(One, Long);
  EXPECT_EQ(OneT, std::string(75, 'k') + "...");
  auto [Two, TwoT] =
      kernelNames("['a.py(1): f', ['aten::x', 'k1'], ['aten::y', 'k2']]");
  EXPECT_EQ(Two, "Kernel 1: k1<br>Kernel 2: k2");
  EXPECT_EQ(TwoT, Two);
  EXPECT_EQ(kernelNames("Not found").first, "");
  EXPECT_EQ(kernelNames("").first, "");
}

TEST(ComputeRendering, Chains) {
  std::string Stack =
      "['multiprocessing/spawn.py(122): spawn_main', 'nn.Module: Bert', "
      "'torch/nn/modules/module.py(1743): _call_impl', "
      "'transformers/bert.py(10): forward', 'nn.Module: Linear', "
      "'torch/nn/modules/linear.py(124): forward', 'aten::linear', "
      "'plain frame', 'void k<int>(int)']";
  EXPECT_EQ(moduleChain(Stack), (std::vector<std::string>{"Bert", "Linear"}));
  // Skipped: spawn.py and module.py frames, and 'plain frame' (no .py, ::
  // or nn.Module:). linear.py is kept (not in the skip list).
  EXPECT_EQ(callChain(Stack),
            (std::vector<std::string>{
                "nn.Module: Bert", "transformers/bert.py(10): forward",
                "nn.Module: Linear", "torch/nn/modules/linear.py(124): forward",
                "aten::linear"}));
}

TEST(ComputeRendering, LauncherPath) {
  EXPECT_EQ(launcherPath("x.py(1): f", {"A"}, "CK"), "x.py(1): f");
  EXPECT_EQ(launcherPath("Not found", {"A", "B", "C", "D"}, "CK"),
            "A > B > C");
  EXPECT_EQ(launcherPath("", {}, "CK"), "CK (vendor)");
  EXPECT_EQ(launcherPath("nan", {}, ""), "Not found");
}

TEST(ComputeRendering, PyDict) {
  auto D = parsePyDict("{'B': 16, 'N_Q': 559, 'causal': True, "
                       "'dtype_A_B': ('c10::BFloat16', 'c10::BFloat16')}");
  ASSERT_TRUE(D);
  ASSERT_EQ(D->size(), 4u);
  EXPECT_EQ((*D)[1].first, "N_Q");
  EXPECT_EQ((*D)[1].second.getInt(), 559);
  EXPECT_TRUE((*D)[2].second.getBool());
  EXPECT_EQ((*D)[3].second.elems().size(), 2u);
  EXPECT_FALSE(parsePyDict(""));
  EXPECT_FALSE(parsePyDict("[1, 2]"));
  EXPECT_TRUE(parsePyDict("{}")->empty());
}

} // namespace
