//===- TritonTest.cpp - Inductor kernel model vs reference ----------------===//
#include "TestUtil.h"

using namespace tl;
using namespace tl::test;

// torch_compile_triton/trace_perf_report_csvs/unified_perf_summary.csv,
// row triton_poi_fused__unsafe_view_mul_silu_2: (mul 1 + silu 4) *
// 268435456 = 1342177280 flops; bytes = (2*268435456)*2 + 2*268435456 =
// 1610612736 -> 1536.0 MB; Compute Spec vector_bfloat16 (quirk 14).
TEST(Triton, PointwiseMulSilu) {
  OpDesc Op = makeOp("triton_poi_fused__unsafe_view_mul_silu_2",
                     "[[8, 4096, 8192], [32768, 8192], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'Scalar']", "",
                     "['', '', '268435456']");
  EXPECT_FALSE(hasPerfModel(Op.Name));
  EXPECT_TRUE(isTritonKernelName(Op.Name));
  EXPECT_TRUE(isTritonModelable(Op));
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "1.34217728");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "1536.0");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "0.8333333333333334");
  EXPECT_EQ(M.ComputeSpec, "vector_bfloat16");
  EXPECT_EQ(pyRepr(PyValue::dict(R.Params)),
            "{'fused_ops': 'aten._unsafe_view, aten.mul, aten.silu', "
            "'xnumel': 268435456, 'rnumel': 1}");
}

// Same file, triton_poi_fused__unsafe_view_add_3: 67108864 flops; bytes =
// 3*67108864*2 + 2*67108864 -> 512.0 MB.
TEST(Triton, PointwiseAdd) {
  OpDesc Op = makeOp(
      "triton_poi_fused__unsafe_view_add_3",
      "[[8, 4096, 2048], [8, 4096, 2048], [32768, 2048], []]",
      "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar']", "",
      "['', '', '', '67108864']");
  PerfMetrics M = fwdMetrics(model(Op));
  EXPECT_EQ(pyRepr(M.GFLOPS), "0.067108864");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "512.0");
}

// Same file, triton_red_fused_add_mean_mul_pow_rsqrt_0: xnumel 32768, rnumel
// 2048, (1+1+1+2+2) = 7 flops/elem -> 0.469762048 GFLOPS. Reduction kernels
// add no xnumel term: bytes = (2*67108864 + 2048)*2 =
// 268439552 -> 256.00390625 MB; FLOPS/Byte 1.749973297526588.
TEST(Triton, Reduction) {
  OpDesc Op = makeOp("triton_red_fused_add_mean_mul_pow_rsqrt_0",
                     "[[8, 4096, 2048], [2048], [8, 4096, 2048], [], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
                     "'Scalar', 'Scalar']",
                     "", "['', '', '', '32768', '2048']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "0.469762048");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "256.00390625");
  EXPECT_EQ(pyRepr(M.FlopsPerByte), "1.749973297526588");
  EXPECT_EQ(pyRepr(PyValue::dict(R.Params)),
            "{'fused_ops': 'aten.add, aten.mean, aten.mul, aten.pow, "
            "aten.rsqrt', 'xnumel': 32768, 'rnumel': 2048}");
}

TEST(Triton, NotModelableWithoutIntegers) {
  OpDesc Op = makeOp("triton_poi_fused_add_0", "[[4]]", "['float']", "", "['']");
  EXPECT_FALSE(isTritonModelable(Op));
  auto R = buildPerfModel(Op);
  EXPECT_FALSE(!!R);
  llvm::consumeError(R.takeError());
}

// inference/xdit_sd_3.5/perf_csvs/unified_perf_summary.csv,
// triton_poi_fused__to_copy_cat_slice_1, types ('float', 'c10::BFloat16',
// 'Scalar'): Compute Spec from the first type the byte table knows
// (vector_bfloat16); bytes = 0 (float) + 2*256*2 (bf16) + 0*512 (first
// bpe, float's 0, times xnumel) = 1024 -> 0.0009765625 MB, GFLOPS 0.0.
TEST(Triton, SpecFromFirstKnownType) {
  OpDesc Op = makeOp("triton_poi_fused__to_copy_cat_slice_1",
                     "[[2, 256], [2, 256], []]",
                     "['float', 'c10::BFloat16', 'Scalar']", "",
                     "['', '', '512']");
  PerfModelResult R = model(Op);
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(M.ComputeSpec, "vector_bfloat16");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "0.0009765625");
  EXPECT_EQ(pyRepr(M.GFLOPS), "0.0");
  // Only 'float' inputs (triton_poi_fused_arange_..._0 of the same file):
  // no spec, and cos / sin are fused ops of cost 0: (div 1 + exp 4 +
  // mul 1) * 512 = 3072 flops -> 3.072e-06 GFLOPS.
  OpDesc F = makeOp("triton_poi_fused_arange_cat_cos_div_exp_mul_sin_unsqueeze_0",
                    "[[2], [2, 256], []]", "['float', 'float', 'Scalar']", "",
                    "['', '', '512']");
  PerfModelResult RF = model(F);
  PerfMetrics MF = fwdMetrics(RF);
  EXPECT_EQ(MF.ComputeSpec, "");
  EXPECT_EQ(pyRepr(MF.GFLOPS), "3.072e-06");
  EXPECT_EQ(pyRepr(PyValue::dict(RF.Params)),
            "{'fused_ops': 'aten.arange, aten.cat, aten.cos, aten.div, "
            "aten.exp, aten.mul, aten.sin, aten.unsqueeze', 'xnumel': 512, "
            "'rnumel': 1}");
}

// Same file, triton_poi_fused_addmm_gelu_view_15: the reference keeps
// aten.addmm (cost 0): gelu 8 * 79691776 flops.
TEST(Triton, FusedAddmmKept) {
  OpDesc Op = makeOp("triton_poi_fused_addmm_gelu_view_15",
                     "[[2, 4096, 9728], [9728], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'Scalar']", "",
                     "['', '', '79691776']");
  PerfModelResult R = model(Op);
  EXPECT_EQ(pyRepr(PyValue::dict(R.Params)),
            "{'fused_ops': 'aten.addmm, aten.gelu, aten.view', 'xnumel': "
            "79691776, 'rnumel': 1}");
  EXPECT_EQ(pyRepr(fwdMetrics(R).GFLOPS), "0.637534208");
}

// inference/vllm_decode_full/perf_csvs/unified_perf_summary.csv, row
// triton_poi_fused_constant_pad_nd_moe_forward_0: `moe` and `forward` are
// no ATen ops, so the name does not segment and the reference's fused_ops
// is '' (not the known prefix constant_pad_nd); 0 GFLOPS; bytes =
// 32*2880*2 + 32*3072*2 + 2*98304 = 577536 -> 0.55078125 MB.
TEST(Triton, UnsegmentedNameHasNoFusedOps) {
  OpDesc Op = makeOp("triton_poi_fused_constant_pad_nd_moe_forward_0",
                     "[[32, 2880], [32, 3072], []]",
                     "['c10::BFloat16', 'c10::BFloat16', 'Scalar']", "",
                     "['', '', '98304']");
  PerfModelResult R = model(Op);
  EXPECT_EQ(pyRepr(PyValue::dict(R.Params)),
            "{'fused_ops': '', 'xnumel': 98304, 'rnumel': 1}");
  PerfMetrics M = fwdMetrics(R);
  EXPECT_EQ(pyRepr(M.GFLOPS), "0.0");
  EXPECT_EQ(pyRepr(M.DataMovedMB), "0.55078125");
}
