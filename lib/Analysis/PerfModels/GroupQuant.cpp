//===- GroupQuant.cpp - dynamic quantisation models (inference §D.6) ------===//
//
// Quantisation kernels read the input once and write the narrow output
// plus its scales. Two shapes of model:
//  * Binary-style (sheet BinaryElementwise): AITER's per-token / per-group /
//    per-tensor scaled quant (out, in, scale) and vLLM's triton per-token
//    group fp8 quant.
//  * Unary-style mxfp4 (sheet GroupQuant): half a byte a value plus one
//    e8m0 scale byte per 32 values.
//
// Replicated reference quirks:
//  * the AITER scaled quants count 2.59375 FLOPs an output element (the
//    reference's empirical constant).
//  * `aiter::fused_dynamic_mxfp4_quant_moe_sort_hip` is modelled here but
//    categorised MoE_aux by the category-only map (§D.0, §E.15).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace tl;
using namespace tl::pm;

/// AITER `dynamic_per_*_quant(out, input, scale, ...)`.
static llvm::Expected<PerfModelResult> scaledQuant(const OpDesc &Op) {
  Shape S[3];
  std::string T[3];
  for (size_t I = 0; I < 3; ++I) {
    auto D = shapeAt(Op, I);
    if (!D)
      return D.takeError();
    S[I] = *D;
    auto Ty = typeAt(Op, I);
    if (!Ty)
      return Ty.takeError();
    T[I] = *Ty;
  }
  auto B0 = bpe(T[0]), B1 = bpe(T[1]), B2 = bpe(T[2]);
  if (!B0 || !B1 || !B2)
    return err(Op.Name + ": unknown dtype");
  int64_t NOut = prod(S[0]);
  PerfModelResult R;
  R.ModelClass = "aiter_scaled_quant";
  R.Category = "GroupQuant";
  R.Flops = 2.59375 * NOut;
  R.Bytes = 1.0 * NOut * *B0 + 1.0 * prod(S[1]) * *B1 + 1.0 * prod(S[2]) * *B2;
  R.ComputeSpec = computeSpec("vector", T[1]);
  R.Params = {{"shape_in1", shapeValue(S[1])},
              {"shape_in2", shapeValue(S[2])},
              {"shape_out", shapeValue(S[0])},
              {"dtype_in1_in2_out",
               PyValue::tuple({PyValue::str(T[1]), PyValue::str(T[2]),
                               PyValue::str(T[0])})},
              {"stride_input1", strideAt(Op, 1)},
              {"stride_input2", strideAt(Op, 2)},
              {"stride_output", strideAt(Op, 0)}};
  return R;
}

/// vllm::triton_per_token_group_quant_fp8(x, group_size, ...): x viewed as
/// (M, N), one fp32 scale per group of a row.
static llvm::Expected<PerfModelResult> tritonGroupFp8(const OpDesc &Op) {
  auto X = shapeAt(Op, 0);
  if (!X)
    return X.takeError();
  int64_t M = 1, N = 1;
  if (X->size() == 1) {
    N = (*X)[0];
  } else if (X->size() >= 2) {
    N = X->back();
    M = prod(Shape(X->begin(), X->end() - 1));
  }
  int64_t Gs = 128;
  if (Op.ConcreteInputs.size() > 1) {
    llvm::StringRef C = llvm::StringRef(Op.ConcreteInputs[1]).trim();
    if (!C.empty() && !C.equals_insensitive("none"))
      if (auto V = parsePyInt(C))
        Gs = *V;
  }
  if (Gs <= 0)
    return err(Op.Name + ": group size must be positive");
  int64_t Groups = std::max<int64_t>(1, ceilDiv(N, Gs));
  std::string Tx = typeOr(Op, 0, "");
  PerfModelResult R;
  R.ModelClass = "vllm_triton_per_token_group_quant_fp8";
  R.Category = "GroupQuant";
  R.Flops = 6.0 * M * N;
  if (auto B = bpe(Tx))
    R.Bytes = 1.0 * M * N * *B + 1.0 * M * N + 4.0 * M * Groups;
  R.ComputeSpec = computeSpec("vector", Tx);
  PyValue Shp = shapeValue(*X);
  R.Params = {{"M", PyValue::integer(M)},
              {"N", PyValue::integer(N)},
              {"group_size", PyValue::integer(Gs)},
              {"num_groups", PyValue::integer(Groups)},
              {"shape_x", Shp},
              {"dtype_x", PyValue::str(Tx)},
              {"shape_in1", Shp},
              {"shape_in2", PyValue::tuple({})},
              {"shape_out", Shp},
              {"dtype_in1_in2_out",
               PyValue::tuple({PyValue::str(Tx), PyValue::none(),
                               PyValue::str("c10::float8_e4m3fn")})},
              {"stride_input1", PyValue::none()},
              {"stride_input2", PyValue::none()},
              {"stride_output", PyValue::none()}};
  return R;
}

/// mxfp4 quantisation of the input at Idx (stride read when WithStride).
static llvm::Expected<PerfModelResult> mxfp4(const OpDesc &Op, size_t Idx,
                                             bool WithStride) {
  auto S = shapeAt(Op, Idx);
  if (!S)
    return S.takeError();
  auto T = typeAt(Op, Idx);
  if (!T)
    return T.takeError();
  int64_t N = prod(*S);
  PerfModelResult R;
  R.ModelClass = "mxfp4_quant";
  R.Category = "GroupQuant";
  R.Flops = 2.0 * N;
  if (auto B = bpe(*T))
    R.Bytes = 1.0 * N * *B + 0.5 * N + floorDiv(N, 32);
  R.ComputeSpec = computeSpec("vector", *T);
  R.Params = {{"op_shape", shapeValue(*S)},
              {"dtype_in_out", PyValue::tuple({PyValue::str(*T),
                                               PyValue::str(*T)})},
              {"stride_input", WithStride ? strideAt(Op, Idx) : PyValue::none()},
              {"stride_output", PyValue::none()}};
  return R;
}

llvm::Expected<PerfModelResult> pm::buildGroupQuant(const OpDesc &Op) {
  llvm::StringRef N = Op.Name;
  if (N == "aiter::dynamic_per_token_scaled_quant" ||
      N == "aiter::dynamic_per_group_scaled_quant" ||
      N == "aiter::dynamic_per_tensor_quant")
    return scaledQuant(Op);
  if (N == "vllm::triton_per_token_group_quant_fp8")
    return tritonGroupFp8(Op);
  if (N == "sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant")
    return mxfp4(Op, 0, true);
  if (N == "aiter::fused_dynamic_mx_quant_moe_sort_hip")
    return mxfp4(Op, 2, true);
  if (N == "sglang_profiler::quant_dynamic_mxfp4_quant")
    return mxfp4(Op, 0, false);
  if (N == "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip")
    return mxfp4(Op, 2, false);
  if (N == "aiter::dynamic_per_group_scaled_quant_fp4")
    return mxfp4(Op, 1, false);
  return err("no quantisation model for '" + N + "'");
}
