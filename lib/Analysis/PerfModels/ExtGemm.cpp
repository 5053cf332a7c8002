//===- ExtGemm.cpp - AITER / vLLM / SGLang GEMM models (inference §D.1) ---===//
//
// The base GEMM formulas of §5.3 with each extension op's own extraction.
// Bytes per element may be fractional (FP4 = 0.5), so this family sizes
// operands in double rather than through Gemm.cpp's integer shape.
//
// Replicated reference quirks:
//  * params are the class keys, then `B` (when the class has none), then
//    `transpose` from the first kernel name that parses (§D.1).
//  * `vllm::rocm_unquantized_gemm` sizes the output with bpe(T1) when there
//    is no bias, and its dtype_A_B third entry is T2 or "".
//  * the block-scale GEMMs always write bf16 (2 bytes) whatever T2 says.
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

#include "llvm/ADT/STLExtras.h"

using namespace tl;
using namespace tl::pm;

namespace {
struct ExtGemm {
  int64_t B = 1, M = 0, N = 0, K = 0;
  bool Bias = false;
  /// Bytes per element of A, B, out (= bias); nullopt when unknown.
  std::optional<double> BpeA, BpeB, BpeOut;
  /// Explicit bytes (the a4w4 models); replaces the base formula.
  std::optional<double> Bytes;
  std::string PrecisionDtype;
  ParamList Params;
  bool HasBatchKey = false;
};

constexpr const char *BlockScaleNames[] = {
    "sglang_profiler::fp8_utils_gemm_a8w8_blockscale",
    "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale",
    "vllm::rocm_aiter_triton_gemm_a8w8_blockscale",
    "aiter::gemm_a8w8_blockscale_ck",
    "aiter::gemm_a8w8_blockscale_cktile",
    "aiter::gemm_a8w8_blockscale_bpreshuffle_ck",
    "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile",
    "aiter::flatmm_a8w8_blockscale_asm",
    "aiter::gfx950_a8w8_blockscale_asm",
    "aiter::gemm_a8w8_ck",
    "aiter::gemm_a8w8_bpreshuffle_ck",
    "aiter::gemm_a8w8_bpreshuffle",
    "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm",
    "aiter::_gemm_a8w8_blockscale_bpreshuffle_asm",
};
} // namespace

static std::optional<double> bpeD(llvm::StringRef T) {
  if (auto B = bpe(T))
    return static_cast<double>(*B);
  return std::nullopt;
}

/// The bytes per element of A, B and the output, with A's type as the
/// precision: the common tail of the 16-bit and block-scale GEMMs.
static void setOperandBytes(ExtGemm &G, const std::string &TA,
                            const std::string &TB,
                            std::optional<double> BpeOut) {
  G.BpeA = bpeD(TA);
  G.BpeB = bpeD(TB);
  G.BpeOut = BpeOut;
  G.PrecisionDtype = TA;
}

static PyValue strTuple(std::initializer_list<std::string> L) {
  std::vector<PyValue> V;
  for (const std::string &S : L)
    V.push_back(PyValue::str(S));
  return PyValue::tuple(std::move(V));
}

/// M = D0[0], K = D0[1], N = D1[0] (the weight is N x K).
static llvm::Error readMKN(const OpDesc &Op, ExtGemm &G, int64_t KScale = 1) {
  auto A = shapeAt(Op, 0);
  if (!A)
    return A.takeError();
  auto W = shapeAt(Op, 1);
  if (!W)
    return W.takeError();
  if (A->size() < 2 || W->empty())
    return err(Op.Name + ": expected 2-D A and B");
  G.M = (*A)[0];
  G.K = KScale * (*A)[1];
  G.N = (*W)[0];
  return llvm::Error::success();
}

static void pushMNK(ExtGemm &G, bool WithB) {
  if (WithB) {
    G.Params.push_back({"B", PyValue::integer(G.B)});
    G.HasBatchKey = true;
  }
  G.Params.push_back({"M", PyValue::integer(G.M)});
  G.Params.push_back({"N", PyValue::integer(G.N)});
  G.Params.push_back({"K", PyValue::integer(G.K)});
  G.Params.push_back({"bias", PyValue::boolean(G.Bias)});
}

static bool hasBiasDims(const OpDesc &Op) {
  return Op.InputDims.size() > 2 && Op.InputDims[2].truthy();
}

static llvm::Error extract(const OpDesc &Op, ExtGemm &G) {
  llvm::StringRef Name = Op.Name;
  const size_t NT = Op.InputTypes.size();
  if (Name == "vllm::rocm_unquantized_gemm") {
    if (auto E = readMKN(Op, G))
      return E;
    G.Bias = hasBiasDims(Op);
    std::string T0 = typeOr(Op, 0, ""), T1 = typeOr(Op, 1, ""),
                T2 = typeOr(Op, 2, "");
    pushMNK(G, false);
    G.Params.push_back({"dtype_A_B", strTuple({T0, T1, T2})});
    setOperandBytes(G, T0, T1, G.Bias ? bpeD(T2) : bpeD(T1));
    return llvm::Error::success();
  }
  if (Name == "aiter::gemm_a16w16") {
    if (auto E = readMKN(Op, G))
      return E;
    G.Bias = hasBiasDims(Op);
    std::string T0 = typeOr(Op, 0, ""), T1 = typeOr(Op, 1, "");
    pushMNK(G, true);
    G.Params.push_back({"dtype_A_B", strTuple({T0, T1, T0})});
    setOperandBytes(G, T0, T1, bpeD(T0));
    return llvm::Error::success();
  }
  if (Name == "aiter::gemm_a16w16_atomic_" ||
      Name == "sglang_profiler::gemm_kernels_flydsl_hgemm" ||
      Name == "aiter::_gemm_a16w16_asm") {
    if (auto E = readMKN(Op, G))
      return E;
    std::string T0 = typeOr(Op, 0, ""), T1 = typeOr(Op, 1, "");
    std::string Out;
    if (Name == "aiter::_gemm_a16w16_asm")
      Out = NT > 2 && bpe(Op.InputTypes[2]) ? Op.InputTypes[2] : T0;
    else
      Out = NT > 3 ? Op.InputTypes[3] : "c10::bfloat16";
    pushMNK(G, true);
    G.Params.push_back({"dtype_A_B", strTuple({T0, T1, Out})});
    setOperandBytes(G, T0, T1, bpeD(Out));
    return llvm::Error::success();
  }
  if (llvm::is_contained(BlockScaleNames, Name)) {
    if (auto E = readMKN(Op, G))
      return E;
    std::string T0 = typeOr(Op, 0, ""), T1 = typeOr(Op, 1, "");
    pushMNK(G, true);
    G.Params.push_back({"dtype_A_B", strTuple({T0, T1, "c10::bfloat16"})});
    if (Op.InputDims.size() > 3) {
      // Scale-tensor block counts: ceil(K / D2[-1]), ceil(N / D3[0]).
      auto blocks = [&](size_t I, bool Last, int64_t Extent) {
        auto S = shapeIfNonEmpty(Op, I);
        if (!S)
          return PyValue::none();
        int64_t D = Last ? S->back() : S->front();
        return D == 0 ? PyValue::none()
                      : PyValue::integer(ceilDiv(Extent, D));
      };
      G.Params.push_back({"quant_scheme", PyValue::str("a8w8_blockscale")});
      G.Params.push_back({"quant_granularity", PyValue::str("per_block")});
      G.Params.push_back({"block_k", blocks(2, true, G.K)});
      G.Params.push_back({"block_n", blocks(3, false, G.N)});
      G.Params.push_back(
          {"scale_dtype", PyValue::str(typeOr(Op, 2, "float32"))});
    }
    G.Params.push_back(
        {"output_shape", PyValue::intTuple({G.M, G.N})});
    G.Params.push_back({"output_dtype", PyValue::str("c10::bfloat16")});
    setOperandBytes(G, T0, T1, 2);
    return llvm::Error::success();
  }
  if (Name == "aiter::batched_gemm_a16wfp4_" ||
      Name == "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_"
              "w_per_batched_tensor_quant_batched_gemm_a8w8_a_per_token_"
              "group_prequant_w_per_batched_tensor_quant") {
    auto A = shapeAt(Op, 0);
    if (!A)
      return A.takeError();
    auto W = shapeAt(Op, 1);
    if (!W)
      return W.takeError();
    if (A->size() < 3 || W->size() < 2)
      return err(Name + ": expected batched operands");
    std::string T0 = typeOr(Op, 0, ""), T1 = typeOr(Op, 1, "");
    bool Fp4 = Name == "aiter::batched_gemm_a16wfp4_";
    if (Fp4) {
      G.B = (*A)[0];
      G.M = (*A)[1];
      G.N = (*W)[1];
      G.K = (*A)[2];
    } else {
      G.B = (*W)[0];
      G.N = (*W)[1];
      G.K = (*A)[2];
      G.M = (*A)[0] == G.B ? (*A)[1] : (*A)[0];
    }
    pushMNK(G, true);
    G.Params.push_back({"dtype_A_B", strTuple({T0, T1, "c10::bfloat16"})});
    G.BpeA = bpeD(T0);
    G.BpeB = Fp4 ? std::optional<double>(0.5) : bpeD(T1);
    G.BpeOut = 2;
    G.PrecisionDtype = Fp4 ? "fp4" : T1;
    return llvm::Error::success();
  }
  if (Name == "aiter::gemm_afp4wfp4_") {
    // A packs two FP4 values per byte: K = 2 * D0[1].
    if (auto E = readMKN(Op, G, 2))
      return E;
    std::string T0 = typeOr(Op, 0, ""), T1 = typeOr(Op, 1, "");
    pushMNK(G, true);
    G.Params.push_back({"dtype_A_B", strTuple({T0, T1, "c10::bfloat16"})});
    G.BpeA = G.BpeB = 0.5;
    G.BpeOut = 2;
    G.PrecisionDtype = "fp4";
    return llvm::Error::success();
  }
  if (Name == "aiter::gemm_a4w4" || Name == "aiter::_gemm_a4w4_asm") {
    if (auto E = readMKN(Op, G, 2))
      return E;
    auto T0 = typeAt(Op, 0);
    if (!T0)
      return T0.takeError();
    auto T1 = typeAt(Op, 1);
    if (!T1)
      return T1.takeError();
    auto BA = bpeD(*T0), BB = bpeD(*T1);
    if (!BA || !BB)
      return err(Name + ": unknown A/B dtype");
    PyValue SA = NT > 2 ? PyValue::str(Op.InputTypes[2]) : PyValue::none();
    PyValue SB = NT > 3 ? PyValue::str(Op.InputTypes[3]) : PyValue::none();
    auto scaleBpe = [&](size_t I) {
      std::optional<double> B = NT > I ? bpeD(Op.InputTypes[I]) : std::nullopt;
      return B ? *B : 1.0;
    };
    pushMNK(G, false);
    G.Params.push_back({"stride_A", strideAt(Op, 0)});
    G.Params.push_back({"stride_B", strideAt(Op, 1)});
    G.Params.push_back({"dtype_A_B", strTuple({*T0, *T1})});
    G.Params.push_back({"dtype_scaleA", SA});
    G.Params.push_back({"dtype_scaleB", SB});
    // Packed operands (K/2 bytes a row), one scale per 32 values, bf16 out.
    double M = G.M, N = G.N;
    int64_t KH = floorDiv(G.K, 2), KS = ceilDiv(G.K, 32);
    G.Bytes = M * KH * *BA + N * KH * *BB + M * KS * scaleBpe(2) +
              N * KS * scaleBpe(3) + 2 * M * N;
    G.PrecisionDtype = *T0;
    return llvm::Error::success();
  }
  if (Name == "vllm::gemm_with_dynamic_quant") {
    // A and B are the first two 2-D entries of Input Dims (else D0, D1).
    std::vector<Shape> TwoD;
    for (size_t I = 0; I < Op.InputDims.size() && TwoD.size() < 2; ++I)
      if (auto S = shapeIfNonEmpty(Op, I); S && S->size() == 2)
        TwoD.push_back(*S);
    if (TwoD.size() < 2) {
      TwoD.clear();
      for (size_t I = 0; I < 2; ++I) {
        auto S = shapeAt(Op, I);
        if (!S)
          return S.takeError();
        if (S->size() < 2)
          return err(Name + ": expected 2-D operands");
        TwoD.push_back(*S);
      }
    }
    G.M = TwoD[0][0];
    G.K = TwoD[0][1];
    G.N = TwoD[1][0];
    auto T0 = typeAt(Op, 0);
    if (!T0)
      return T0.takeError();
    auto T1 = typeAt(Op, 1);
    if (!T1)
      return T1.takeError();
    pushMNK(G, false);
    G.Params.push_back({"stride_A", strideAt(Op, 0)});
    G.Params.push_back({"stride_B", strideAt(Op, 1)});
    G.Params.push_back({"dtype_A_B", strTuple({*T0, *T1})});
    G.BpeA = G.BpeB = G.BpeOut = bpeD(*T0);
    G.PrecisionDtype = *T0;
    return llvm::Error::success();
  }
  return err("no extension GEMM model for '" + Name + "'");
}

llvm::Expected<PerfModelResult> pm::buildExtGemm(const OpDesc &Op) {
  ExtGemm G;
  if (auto E = extract(Op, G))
    return E;
  PerfModelResult R;
  R.ModelClass = "ext_gemm";
  R.Category = "GEMM";
  double M = G.M, N = G.N, K = G.K;
  R.Flops = G.B * (2 * M * N * K + (G.Bias ? M * N : 0));
  if (G.Bytes) {
    R.Bytes = G.Bytes;
  } else if (G.BpeA && G.BpeB && G.BpeOut) {
    R.Bytes = G.B * (M * K * *G.BpeA + K * N * *G.BpeB + M * N * *G.BpeOut +
                     (G.Bias ? N * *G.BpeOut : 0));
  }
  R.ComputeSpec = computeSpec("matrix", G.PrecisionDtype);
  R.Params = std::move(G.Params);
  if (!G.HasBatchKey)
    R.Params.push_back({"B", PyValue::integer(1)});
  for (const std::string &Kn : Op.KernelNames)
    if (auto T = parseGemmTranspose(Kn)) {
      R.Params.push_back({"transpose", *T});
      break;
    }
  return R;
}
