//===- Gemm.cpp - GEMM family perf models (spec §5.3, §5.4) ---------------===//
//
// Replicated reference quirks:
//  * aten::mm sizes every operand with bpe(Types[0]) (a type mismatch only
//    warns) (§5.3).
//  * param order is the extractor's keys, then B (added when missing), then
//    transpose (§5.3; quirk 10 follows from it).
//  * core aten GEMMs have no backward: NotImplementedError (§5.3).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tl;
using namespace tl::pm;

std::optional<PyValue> tl::parseGemmTranspose(llvm::StringRef Name) {
  // Tensile: ^.*C[a-z]{3}_A[a-z]{3}_B[a-z]{3}.*$
  auto isLower = [](char C) { return C >= 'a' && C <= 'z'; };
  bool Tensile = false;
  for (size_t I = 0; I + 14 <= Name.size() && !Tensile; ++I) {
    llvm::StringRef W = Name.substr(I, 14);
    Tensile = W[0] == 'C' && isLower(W[1]) && isLower(W[2]) && isLower(W[3]) &&
              W[4] == '_' && W[5] == 'A' && isLower(W[6]) && isLower(W[7]) &&
              isLower(W[8]) && W[9] == '_' && W[10] == 'B' &&
              isLower(W[11]) && isLower(W[12]) && isLower(W[13]);
  }
  if (Tensile) {
    PyValue TA = Name.contains("_Ailk_")   ? PyValue::boolean(false)
                 : Name.contains("_Alik_") ? PyValue::boolean(true)
                                           : PyValue::none();
    PyValue TB = Name.contains("_Bljk_")   ? PyValue::boolean(false)
                 : Name.contains("_Bjlk_") ? PyValue::boolean(true)
                                           : PyValue::none();
    return PyValue::tuple({TA, TB});
  }
  if (Name.starts_with("nvjet")) {
    size_t P = Name.rfind('_');
    llvm::StringRef Tail = P == llvm::StringRef::npos ? Name : Name.substr(P + 1);
    if (Tail.size() < 2)
      return std::nullopt;
    return PyValue::tuple(
        {PyValue::boolean(Tail[0] == 'T'), PyValue::boolean(Tail[1] == 'T')});
  }
  return std::nullopt;
}

namespace {
struct GemmShape {
  int64_t B = 1, M = 0, N = 0, K = 0;
  bool Bias = false;
  bool Batched = false;
  // Bytes per element of A, B, out, bias (None when unknown).
  std::optional<int64_t> BpeA, BpeB, BpeOut, BpeBias;
};
} // namespace

/// flops = 2MNK + MN·bias, times B.
static int64_t gemmFlops(const GemmShape &G) {
  return G.B * (2 * G.M * G.N * G.K + (G.Bias ? G.M * G.N : 0));
}

static std::optional<double> gemmBytes(const GemmShape &G) {
  if (!G.BpeA || !G.BpeB || !G.BpeOut || (G.Bias && !G.BpeBias))
    return std::nullopt;
  int64_t Per = G.M * G.K * *G.BpeA + G.K * G.N * *G.BpeB +
                G.M * G.N * *G.BpeOut + (G.Bias ? G.N * *G.BpeBias : 0);
  return static_cast<double>(G.B * Per);
}

llvm::Expected<PerfModelResult> pm::buildGemm(const OpDesc &Op) {
  llvm::StringRef Name = Op.Name;
  PerfModelResult R;
  R.Category = "GEMM";
  GemmShape G;
  std::string DtypeFirst;
  PyValue DtypeParam, StrideA, StrideB;

  bool IsMM = Name == "aten::mm";
  bool IsScaled = Name == "aten::_scaled_mm" ||
                  Name == "trtllm::cublas_scaled_mm" ||
                  Name == "bitsandbytes::int8_linear_matmul";
  bool IsTEPseudo = Name.starts_with("_Linear") ||
                    Name.starts_with("_LayerNormLinear");
  if (IsMM || IsScaled || IsTEPseudo) {
    auto A = shapeAt(Op, 0);
    if (!A)
      return A.takeError();
    auto Bm = shapeAt(Op, 1);
    if (!Bm)
      return Bm.takeError();
    if (A->size() != 2 || Bm->size() != 2)
      return err(Name + ": expected 2-D operands");
    G.M = (*A)[0];
    G.K = (*A)[1];
    G.N = (*Bm)[1];
    auto TA = typeAt(Op, 0);
    if (!TA)
      return TA.takeError();
    auto TB = typeAt(Op, 1);
    if (!TB)
      return TB.takeError();
    DtypeFirst = *TA;
    DtypeParam = PyValue::tuple({PyValue::str(*TA), PyValue::str(*TB)});
    if (IsMM) {
      R.ModelClass = "aten_mm";
      G.BpeA = G.BpeB = G.BpeOut = G.BpeBias = bpe(*TA);
      StrideA = strideAt(Op, 0);
      StrideB = strideAt(Op, 1);
    } else if (IsScaled) {
      R.ModelClass = "aten_scaled_mm";
      G.Bias = Op.InputDims.size() == 3;
      auto In = bpe(*TA);
      if (!In || !bpe(*TB))
        return err(Name + ": unknown input dtype");
      G.BpeA = G.BpeB = In;
      if (*In == 1)
        G.BpeOut = 2;
      else if (*In == 2 || *In == 4)
        G.BpeOut = In;
      G.BpeBias = G.BpeOut;
      StrideA = strideAt(Op, 0);
      StrideB = strideAt(Op, 1);
    } else {
      R.ModelClass = "te_pseudo_gemm";
      if (*TA != *TB)
        return err(Name + ": A and B dtypes differ");
      G.BpeA = G.BpeB = bpe(*TA);
      G.BpeOut = 2;
      G.BpeBias = 2;
    }
  } else if (Name == "aten::addmm" || Name == "aten::bmm" ||
             Name == "aten::baddbmm") {
    bool Batched = Name != "aten::addmm";
    bool HasC = Name != "aten::bmm";
    size_t IA = HasC ? 1 : 0, IB = IA + 1;
    auto A = shapeAt(Op, IA);
    if (!A)
      return A.takeError();
    auto Bm = shapeAt(Op, IB);
    if (!Bm)
      return Bm.takeError();
    size_t Rank = Batched ? 3 : 2;
    if (A->size() != Rank || Bm->size() != Rank)
      return err(Name + ": unexpected operand rank");
    G.Batched = Batched;
    if (Batched) {
      G.B = (*A)[0];
      G.M = (*A)[1];
      G.K = (*A)[2];
      G.N = (*Bm)[2];
    } else {
      G.M = (*A)[0];
      G.K = (*A)[1];
      G.N = (*Bm)[1];
    }
    G.Bias = HasC;
    auto TA = typeAt(Op, IA);
    if (!TA)
      return TA.takeError();
    auto TB = typeAt(Op, IB);
    if (!TB)
      return TB.takeError();
    DtypeFirst = *TA;
    DtypeParam = PyValue::tuple({PyValue::str(*TA), PyValue::str(*TB)});
    G.BpeA = G.BpeB = G.BpeOut = G.BpeBias = bpe(*TA);
    StrideA = strideAt(Op, IA);
    StrideB = strideAt(Op, IB);
    R.ModelClass = Name == "aten::addmm" ? "aten_addmm"
                   : Name == "aten::bmm" ? "aten_bmm"
                                         : "aten_baddbmm";
  } else if (Name == "tex_ts::te_gemm_ts") {
    R.ModelClass = "tex_ts_te_gemm_ts";
    auto A = shapeAt(Op, 0);
    if (!A)
      return A.takeError();
    auto Bm = shapeAt(Op, 5);
    if (!Bm)
      return Bm.takeError();
    if (A->size() != 2 || Bm->size() != 2)
      return err(Name + ": expected 2-D operands");
    auto C4 = concreteAt(Op, 4), C9 = concreteAt(Op, 9), C14 = concreteAt(Op, 14);
    if (!C4)
      return C4.takeError();
    if (!C9)
      return C9.takeError();
    if (!C14)
      return C14.takeError();
    bool TransA = *C4 == "1", TransB = *C9 == "1";
    G.M = TransA ? (*A)[0] : (*A)[1];
    G.K = TransA ? (*A)[1] : (*A)[0];
    G.N = TransB ? (*Bm)[1] : (*Bm)[0];
    G.Bias = !C14->empty();
    std::vector<PyValue> Types;
    std::optional<int64_t> Bpes[4];
    int Slot = 0;
    for (size_t I : {0, 5, 10, 18}) {
      auto T = typeAt(Op, I);
      if (!T)
        return T.takeError();
      Types.push_back(PyValue::str(*T));
      Bpes[Slot++] = bpe(*T);
    }
    DtypeFirst = Types[0].getStr();
    DtypeParam = PyValue::tuple(Types);
    G.BpeA = Bpes[0];
    G.BpeB = Bpes[1];
    G.BpeOut = Bpes[2];
    G.BpeBias = Bpes[3];
    StrideA = strideAt(Op, 0);
    StrideB = strideAt(Op, 5);
  } else {
    return err("no GEMM model for '" + Name + "'");
  }

  R.Flops = static_cast<double>(gemmFlops(G));
  R.Bytes = gemmBytes(G);
  R.ComputeSpec = computeSpec("matrix", DtypeFirst);
  if (G.Batched)
    R.Params.push_back({"B", PyValue::integer(G.B)});
  R.Params.push_back({"M", PyValue::integer(G.M)});
  R.Params.push_back({"N", PyValue::integer(G.N)});
  R.Params.push_back({"K", PyValue::integer(G.K)});
  R.Params.push_back({"bias", PyValue::boolean(G.Bias)});
  R.Params.push_back({"stride_A", StrideA});
  R.Params.push_back({"stride_B", StrideB});
  R.Params.push_back({"dtype_A_B", DtypeParam});
  if (!G.Batched)
    R.Params.push_back({"B", PyValue::integer(1)});
  for (const std::string &K : Op.KernelNames)
    if (auto T = parseGemmTranspose(K)) {
      R.Params.push_back({"transpose", *T});
      break;
    }
  R.HasBwd = false; // core GEMMs raise NotImplementedError for backward
  return R;
}
