//===- Moe.cpp - mixture-of-experts models (inference §D.5) ---------------===//
//
// M tokens, hidden K, expert width N, E experts, topk experts per token,
// g = 2 for gated (up + gate) first GEMMs. With uniform routing the number
// of experts that receive at least one token is
//   E_act = E·(1 − ((E − topk)/E)^M),
// and only their weights are read.
//   fused:  2MKN·topk·g + 2MKN·topk + MK·(2·topk − 1) FLOPs,
//           MK·ib + E_act·N·K·wb·(g + 1) + MK·ob bytes
//   up:     2MKN·topk·g,  MK·ib + E_act·g·K·N·wb + M·N·topk·ob
//   down:   2MNK·topk,    M·N·topk·ib + E_act·N·K·wb + MK·ob
// MoE_aux ops (routing, sorting, top-k) are vector work over their operands.
//
// Replicated reference quirks:
//  * bytes per element come from a case-sensitive table (DTB, §D.0) with a
//    per-op default, not from name2bpe: "float" is unknown there.
//  * fmoe precision is fp8 when the input dtype is literally "fp8" or
//    "bf16", else prec(input dtype).
//  * the ck_moe_stage2 weight bytes come from T2, not T1.
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace tl;
using namespace tl::pm;

/// DTB (case-sensitive).
static std::optional<double> dtb(llvm::StringRef T) {
  return llvm::StringSwitch<std::optional<double>>(T)
      .Cases("Float8_e4m3fn", "Float8_e4m3fnuz", "Float8_e5m2",
             "Float8_e5m2fnuz", "FP8", "c10::Float8_e4m3fn",
             "c10::Float8_e4m3fnuz", 1.0)
      .Cases("FP4", "c10::Float4_e2m1fn_x2", 0.5)
      .Cases("BFloat16", "Float16", "Half", "c10::BFloat16", "c10::Half", 2.0)
      .Cases("Float32", "Float", "c10::Float", 4.0)
      .Default(std::nullopt);
}

static double dtbOr(const OpDesc &Op, size_t I, double Default) {
  if (I < Op.InputTypes.size())
    if (auto B = dtb(Op.InputTypes[I]))
      return *B;
  return Default;
}

namespace {
enum class Form { Fused, Up, Down };

struct Moe {
  int64_t M = 0, K = 0, N = 0, E = 0, TopK = 0;
  bool Gated = false, HasGated = true;
  double Ib = 2, Wb = 1, Ob = 2;
  std::string InDtype, WDtype, OutDtype, PrecDtype;
  bool HasOut = true;
  Form F = Form::Up;
};
} // namespace

static double activeExperts(const Moe &X) {
  if (X.E == 0)
    return 0;
  double E = X.E;
  return E * (1 - std::pow((E - X.TopK) / E, static_cast<double>(X.M)));
}

static llvm::Expected<Shape> dims(const OpDesc &Op, size_t I, size_t Rank) {
  auto S = shapeAt(Op, I);
  if (!S)
    return S.takeError();
  if (S->size() < Rank)
    return err(Op.Name + ": Input Dims[" + llvm::Twine(I) + "] has rank " +
               llvm::Twine(S->size()) + ", expected " + llvm::Twine(Rank));
  return *S;
}

/// w1 = (E, rows, K'), w2 = (E, K, N'): N = w2[2]·(w2[1] // w1[-1])
/// (packed weights), gated when w1 holds 2N rows.
static llvm::Error fromWeights(const OpDesc &Op, size_t W1, size_t W2,
                               Moe &X) {
  auto A = dims(Op, W1, 2);
  if (!A)
    return A.takeError();
  auto B = dims(Op, W2, 3);
  if (!B)
    return B.takeError();
  if (A->back() == 0)
    return err(Op.Name + ": zero weight width");
  X.K = (*B)[1];
  X.N = (*B)[2] * floorDiv((*B)[1], A->back());
  X.E = (*A)[0];
  X.Gated = (*A)[1] == 2 * X.N;
  return llvm::Error::success();
}

/// vLLM's GPT-OSS expert GEMMs (§B.3 #2 pseudo ops): M, K from the
/// moe_forward input, E = D1[1] (the router logits), N = K (the reference
/// assumes inter = hidden); topk and gated come from the pseudo op's args
/// and the weight dtype from its first kernel's name.
static llvm::Error tritonUnfused(const OpDesc &Op, Moe &X) {
  if (Op.InputDims.size() < 2 || Op.InputTypes.size() < 2)
    return err(Op.Name + ": expected at least 2 inputs with types");
  if (!Op.MoeTopK || !Op.MoeGated)
    return err(Op.Name + ": no 'MoE topk' / 'MoE GEMM gated' arg");
  auto In = dims(Op, 0, 2);
  if (!In)
    return In.takeError();
  auto Logits = dims(Op, 1, 2);
  if (!Logits)
    return Logits.takeError();
  // Both arms StringRef: a "" arm would make the other a temporary string.
  llvm::StringRef K0 = Op.KernelNames.empty()
                           ? llvm::StringRef()
                           : llvm::StringRef(Op.KernelNames.front());
  if (K0.contains_insensitive("mxfp4") || K0.contains_insensitive("fp4"))
    X.WDtype = "FP4";
  else if (K0.contains_insensitive("fp8") || K0.contains_insensitive("e4m3"))
    X.WDtype = "FP8";
  else
    return err(Op.Name + ": no weight dtype in kernel name '" + K0 + "'");
  auto Ib = dtb(Op.InputTypes[0]);
  if (!Ib)
    return err(Op.Name + ": unknown input dtype '" + Op.InputTypes[0] + "'");
  X.F = Op.Name == "pseudo_op::moe_triton_unfused_up" ? Form::Up : Form::Down;
  X.M = (*In)[0];
  X.K = X.N = (*In)[1];
  X.E = (*Logits)[1];
  X.TopK = *Op.MoeTopK;
  X.Gated = *Op.MoeGated;
  X.InDtype = X.OutDtype = Op.InputTypes[0];
  X.HasOut = false;
  X.Ib = X.Ob = *Ib;
  X.Wb = *dtb(X.WDtype);
  X.PrecDtype = X.WDtype;
  return llvm::Error::success();
}

static llvm::Error extract(const OpDesc &Op, Moe &X) {
  llvm::StringRef Name = Op.Name;
  auto T = [&](size_t I) { return typeOr(Op, I, ""); };
  if (Name == "aiter::fmoe_g1u1" || Name == "aiter::fmoe_fp8_blockscale_g1u1") {
    X.F = Form::Fused;
    auto In = dims(Op, 0, 1);
    if (!In)
      return In.takeError();
    X.M = (*In)[0];
    if (auto E = fromWeights(Op, 2, 3, X))
      return E;
    auto C = concreteAt(Op, 8);
    if (!C)
      return C.takeError();
    auto K = parsePyInt(*C);
    if (!K)
      return err(Name + ": topk '" + *C + "' is not an int");
    X.TopK = *K;
    X.OutDtype = T(0);
    X.InDtype = T(1);
    X.WDtype = T(2);
    X.Ib = dtbOr(Op, 1, 1);
    X.Wb = dtbOr(Op, 2, 1);
    X.Ob = dtbOr(Op, 0, 2);
    X.PrecDtype = X.InDtype == "fp8" || X.InDtype == "bf16" ? "fp8" : X.InDtype;
    return llvm::Error::success();
  }
  if (Name == "pseudo_op::moe_aiter_fused_1stage") {
    X.F = Form::Fused;
    auto In = dims(Op, 0, 1);
    if (!In)
      return In.takeError();
    X.M = (*In)[0];
    if (auto E = fromWeights(Op, 1, 2, X))
      return E;
    auto Ids = dims(Op, 3, 2);
    if (!Ids)
      return Ids.takeError();
    X.TopK = (*Ids)[1];
    X.InDtype = X.OutDtype = T(0);
    X.WDtype = T(1);
    X.HasOut = false;
    X.Ib = X.Ob = dtbOr(Op, 0, 2);
    X.Wb = dtbOr(Op, 1, 1);
    X.PrecDtype = X.InDtype;
    return llvm::Error::success();
  }
  if (Name == "pseudo_op::moe_triton_unfused_up" ||
      Name == "pseudo_op::moe_triton_unfused_down")
    return tritonUnfused(Op, X);
  if (Name == "aiter::moe_cktile2stages_gemm1_ck") {
    X.F = Form::Up;
    auto A = dims(Op, 0, 2);
    if (!A)
      return A.takeError();
    auto W = dims(Op, 1, 2);
    if (!W)
      return W.takeError();
    auto O = dims(Op, 2, 3);
    if (!O)
      return O.takeError();
    X.M = (*A)[0];
    X.K = (*A)[1];
    X.E = (*W)[0];
    X.TopK = (*O)[1];
    X.N = (*O)[2];
    X.Gated = (*W)[1] == 2 * X.N;
    X.InDtype = T(0);
    X.WDtype = T(1);
    X.OutDtype = T(2);
    X.Ib = dtbOr(Op, 0, 2);
    X.Wb = dtbOr(Op, 1, 1);
    X.Ob = dtbOr(Op, 2, 2);
    X.PrecDtype = X.InDtype;
    return llvm::Error::success();
  }
  if (Name == "aiter::moe_cktile2stages_gemm2_ck") {
    X.F = Form::Down;
    X.HasGated = false;
    auto A = dims(Op, 0, 3);
    if (!A)
      return A.takeError();
    auto W = dims(Op, 1, 2);
    if (!W)
      return W.takeError();
    X.M = (*A)[0];
    X.TopK = (*A)[1];
    X.N = (*A)[2];
    X.E = (*W)[0];
    X.K = (*W)[1];
    X.InDtype = T(0);
    X.WDtype = T(1);
    X.OutDtype = T(2);
    X.Ib = dtbOr(Op, 0, 2);
    X.Wb = dtbOr(Op, 1, 1);
    X.Ob = dtbOr(Op, 2, 2);
    X.PrecDtype = X.InDtype;
    return llvm::Error::success();
  }
  if (Name == "aiter::ck_moe_stage1") {
    X.F = Form::Up;
    auto In = dims(Op, 0, 1);
    if (!In)
      return In.takeError();
    auto W1 = dims(Op, 1, 2);
    if (!W1)
      return W1.takeError();
    auto W = dims(Op, 2, 3);
    if (!W)
      return W.takeError();
    auto Ids = dims(Op, 6, 2);
    if (!Ids)
      return Ids.takeError();
    if (W1->back() == 0)
      return err(Name + ": zero weight width");
    X.M = (*In)[0];
    X.E = (*W)[0];
    X.K = (*W)[1];
    X.N = (*W)[2] * floorDiv(X.K, W1->back());
    X.TopK = (*Ids)[1];
    X.Gated = (*W1)[1] == 2 * X.N;
    X.InDtype = X.OutDtype = T(0);
    X.WDtype = T(1);
    X.HasOut = false;
    X.Ib = X.Ob = dtbOr(Op, 0, 2);
    X.Wb = dtbOr(Op, 1, 1);
    X.PrecDtype = X.InDtype;
    return llvm::Error::success();
  }
  if (Name == "aiter::ck_moe_stage2") {
    X.F = Form::Down;
    X.HasGated = false;
    auto A = dims(Op, 0, 3);
    if (!A)
      return A.takeError();
    auto W = dims(Op, 2, 2);
    if (!W)
      return W.takeError();
    X.M = (*A)[0];
    X.TopK = (*A)[1];
    X.N = (*A)[2];
    X.E = (*W)[0];
    X.K = (*W)[1];
    if (auto W1 = shapeIfNonEmpty(Op, 1)) {
      if (W1->back() == 0)
        return err(Name + ": zero weight width");
      X.N *= floorDiv(X.K, W1->back());
    }
    X.InDtype = X.OutDtype = T(0);
    X.WDtype = T(2);
    X.HasOut = false;
    X.Ib = X.Ob = dtbOr(Op, 0, 2);
    X.Wb = dtbOr(Op, 2, 1);
    X.PrecDtype = X.InDtype;
    return llvm::Error::success();
  }
  return err("no MoE model for '" + Name + "'");
}

/// sglang's triton fused_moe kernel: one GEMM over the routed token copies.
static llvm::Expected<PerfModelResult> tritonInvoke(const OpDesc &Op) {
  if (Op.InputDims.size() < 9)
    return err(Op.Name + ": expected at least 9 inputs");
  auto W = dims(Op, 1, 3);
  if (!W)
    return W.takeError();
  auto Ids = dims(Op, 8, 2);
  if (!Ids)
    return Ids.takeError();
  Moe X;
  X.E = (*W)[0];
  X.N = (*W)[1];
  X.K = (*W)[2];
  X.M = (*Ids)[0];
  X.TopK = (*Ids)[1];
  int64_t Work = X.M * X.TopK;
  std::string T0 = typeOr(Op, 0, ""), T1 = typeOr(Op, 1, "");
  std::string T3 = typeOr(Op, 3, T0);
  double Ib = dtbOr(Op, 0, 2), Wb = dtbOr(Op, 1, 1);
  std::optional<double> O = dtb(T3);
  double Ob = O ? *O : 2;
  double EAct = activeExperts(X), N = X.N, K = X.K;
  PerfModelResult R;
  R.ModelClass = "moe_triton_invoke";
  R.Category = "MoE_unfused";
  R.Flops = 2.0 * Work * N * K;
  R.Bytes = Work * K * Ib + EAct * N * K * Wb + Work * N * Ob;
  R.ComputeSpec = computeSpec("matrix", T1);
  R.Params = {{"m_work", PyValue::integer(Work)},
              {"num_tokens", PyValue::integer(X.M)},
              {"topk", PyValue::integer(X.TopK)},
              {"N", PyValue::integer(X.N)},
              {"K", PyValue::integer(X.K)},
              {"num_experts", PyValue::integer(X.E)},
              {"input_dtype", PyValue::str(T0)},
              {"weight_dtype", PyValue::str(T1)},
              {"output_dtype", PyValue::str(T3)}};
  return R;
}

/// Routing / sorting helpers: vector work over their integer-shaped
/// operands (FLOPs = the largest operand, bytes = all of them once).
static llvm::Expected<PerfModelResult> aux(const OpDesc &Op) {
  std::vector<PyValue> Operands;
  int64_t MaxN = -1;
  std::string MaxType;
  double Bytes = 0;
  for (size_t I = 0; I < Op.InputDims.size(); ++I) {
    std::optional<Shape> S = shapeIfNonEmpty(Op, I);
    if (!S)
      continue;
    std::string Ty = typeOr(Op, I, "");
    Operands.push_back(
        PyValue::tuple({shapeValue(*S), PyValue::str(Ty)}));
    int64_t N = prod(*S);
    if (N > MaxN) {
      MaxN = N;
      MaxType = Ty;
    }
    if (auto B = bpe(Ty))
      Bytes += 1.0 * N * *B;
  }
  PerfModelResult R;
  R.ModelClass = "moe_aux";
  R.Category = "MoE_aux";
  R.Flops = MaxN < 0 ? 0 : static_cast<double>(MaxN);
  if (Bytes != 0)
    R.Bytes = Bytes;
  R.ComputeSpec = computeSpec("vector", MaxType);
  R.Params = {{"operands", PyValue::tuple(std::move(Operands))}};
  return R;
}

/// aiter::topk_softplus(topk_weights, topk_ids, gating (M, E), ...).
static llvm::Expected<PerfModelResult> topkSoftplus(const OpDesc &Op) {
  auto G = dims(Op, 2, 2);
  if (!G)
    return G.takeError();
  auto W = dims(Op, 0, 2);
  if (!W)
    return W.takeError();
  int64_t M = (*G)[0], E = (*G)[1], TopK = (*W)[1];
  std::string T2 = typeOr(Op, 2, "c10::BFloat16");
  auto B = bpe(T2);
  if (!B)
    return err(Op.Name + ": unknown dtype '" + T2 + "'");
  PerfModelResult R;
  R.ModelClass = "topk_softplus";
  R.Category = "MoE_aux";
  // Read the logits, the fp32 bias; write fp32 weights and int32 ids.
  R.Flops = 6.0 * M * E;
  R.Bytes = 1.0 * M * E * *B + 4.0 * E + 8.0 * M * TopK;
  R.ComputeSpec = computeSpec("vector", T2);
  R.Params = {{"M", PyValue::integer(M)},    {"n", PyValue::integer(1)},
              {"C", PyValue::integer(E)},    {"E", PyValue::integer(E)},
              {"topk", PyValue::integer(TopK)},
              {"dtype_in", PyValue::str(T2)}};
  return R;
}

llvm::Expected<PerfModelResult> pm::buildMoe(const OpDesc &Op) {
  llvm::StringRef Name = Op.Name;
  if (Name == "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_"
              "kernel")
    return tritonInvoke(Op);
  if (Name == "aiter::biased_grouped_topk_hip" ||
      Name == "aiter::moe_sorting_fwd" || Name == "aiter::mxfp4_moe_sort_hip")
    return aux(Op);
  if (Name == "aiter::topk_softplus")
    return topkSoftplus(Op);
  Moe X;
  if (auto E = extract(Op, X))
    return E;
  double M = X.M, K = X.K, N = X.N, TopK = X.TopK, G = X.Gated ? 2 : 1;
  double EAct = activeExperts(X);
  PerfModelResult R;
  R.ModelClass = "moe";
  switch (X.F) {
  case Form::Fused:
    R.Category = "MoE_fused";
    R.Flops = 2 * M * K * N * TopK * G + 2 * M * K * N * TopK +
              M * K * (2 * TopK - 1);
    R.Bytes = M * K * X.Ib + EAct * N * K * X.Wb * G + EAct * N * K * X.Wb +
              M * K * X.Ob;
    break;
  case Form::Up:
    R.Category = "MoE_unfused";
    R.Flops = 2 * M * K * N * TopK * G;
    R.Bytes = M * K * X.Ib + EAct * G * K * N * X.Wb + M * N * TopK * X.Ob;
    break;
  case Form::Down:
    R.Category = "MoE_unfused";
    R.Flops = 2 * M * N * K * TopK;
    R.Bytes = M * N * TopK * X.Ib + EAct * N * K * X.Wb + M * K * X.Ob;
    break;
  }
  R.ComputeSpec = computeSpec("matrix", X.PrecDtype);
  R.Params = {{"num_tokens", PyValue::integer(X.M)},
              {"hidden_dim", PyValue::integer(X.K)},
              {"inter_dim", PyValue::integer(X.N)},
              {"num_experts", PyValue::integer(X.E)},
              {"topk", PyValue::integer(X.TopK)}};
  if (X.HasGated)
    R.Params.push_back({"gated", PyValue::boolean(X.Gated)});
  R.Params.push_back({"input_dtype", PyValue::str(X.InDtype)});
  R.Params.push_back({"weight_dtype", PyValue::str(X.WDtype)});
  if (X.HasOut)
    R.Params.push_back({"output_dtype", PyValue::str(X.OutDtype)});
  return R;
}
