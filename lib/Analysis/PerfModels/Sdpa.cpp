//===- Sdpa.cpp - attention perf models (spec §5.6) -----------------------===//
//
// Replicated reference quirks:
//  * bytes use 2 bytes per element regardless of dtype, except
//    flash_attn::_flash_attn_backward which passes bpe(Types[0]) (quirk 8).
//  * aten efficient/cudnn attention use flash_impl=False (quirk 8).
//  * causal halves the FLOPs, making them a float (§5.6).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tl;
using namespace tl::pm;

namespace {
enum class CausalParse { AtenString, Literal };

/// Per-op extraction recipe (one row of the §5.6 table).
struct SdpaSpec {
  const char *Name;
  unsigned Q, K, V;        // Input Dims indices of q, k, v
  unsigned IB, IH, IN, ID; // layout positions of B, H, N, d
  int DropoutIdx;          // -1: always 0.0
  int CausalIdx;
  CausalParse Causal;
  double DropoutDefault;
  bool CausalDefault;
  bool FlashImpl;
  bool Bwd;           // category SDPA_bwd: flops()=flops_bwd
  bool HasDtype;      // dtype_A_B from Types[0:2] (else Compute Spec "")
  bool HasStrides;    // q/k/v_stride params (flash_attn ops)
  bool BwdBytesFromType; // bytes_bwd(bpe(Types[0]))
};

constexpr SdpaSpec Specs[] = {
    {"aten::_scaled_dot_product_flash_attention", 0, 1, 2, 0, 1, 2, 3, 3, 4,
     CausalParse::AtenString, 0.0, false, true, false, true, false, false},
    {"aten::_scaled_dot_product_efficient_attention", 0, 1, 2, 0, 1, 2, 3, 5,
     6, CausalParse::AtenString, 0.0, false, false, false, true, false, false},
    {"aten::_scaled_dot_product_cudnn_attention", 0, 1, 2, 0, 1, 2, 3, 5, 6,
     CausalParse::AtenString, 0.0, false, false, false, true, false, false},
    {"flash_attn::_flash_attn_forward", 0, 1, 2, 0, 2, 1, 3, 3, 5,
     CausalParse::Literal, 0.0, false, true, false, true, true, false},
    {"FlashAttnFunc", 0, 1, 2, 0, 2, 1, 3, 3, 5, CausalParse::Literal, 0.0,
     false, true, false, true, true, false},
    {"flash_attn::_flash_attn_backward", 1, 2, 3, 0, 2, 1, 3, 8, 10,
     CausalParse::Literal, 0.0, true, true, true, true, true, true},
    {"aiter::_flash_attn_forward", 0, 1, 2, 0, 2, 1, 3, 3, 5,
     CausalParse::Literal, 0.0, false, true, false, false, false, false},
    {"aiter::_flash_attn_backward", 0, 1, 2, 0, 2, 1, 3, 10, 12,
     CausalParse::Literal, 0.0, false, true, true, false, false, false},
    {"aiter::wrapper_fmha_v3_fwd", 1, 2, 3, 0, 2, 1, 3, 4, 6,
     CausalParse::Literal, 0.0, false, true, false, false, false, false},
    {"aiter::wrapper_fmha_v3_bwd", 1, 2, 3, 0, 2, 1, 3, 7, 9,
     CausalParse::Literal, 0.0, false, true, true, false, false, false},
    {"aiter::mha_fwd", 0, 1, 2, 0, 2, 1, 3, 3, 5, CausalParse::Literal, 0.0,
     false, true, false, false, false, false},
    {"aiter::fmha_v3_fwd", 0, 1, 2, 0, 2, 1, 3, 3, 5, CausalParse::Literal,
     0.0, false, true, false, false, false, false},
    {"flash_attn_3::fwd", 0, 1, 2, 0, 2, 1, 3, -1, 24, CausalParse::Literal,
     0.0, false, true, false, false, false, false},
};
} // namespace

static const SdpaSpec *findSpec(llvm::StringRef Name) {
  for (const SdpaSpec &S : Specs)
    if (Name == S.Name)
      return &S;
  return nullptr;
}

namespace {
struct Attn {
  int64_t B, NQ, HQ, NKV, HKV, Dqk, Dv;
};
} // namespace

static int64_t fwdFlopsInt(const Attn &A) {
  return A.B * A.HQ * (2 * A.NQ * A.NKV * A.Dqk) +
         A.B * A.HQ * (2 * A.NQ * A.Dv * A.NKV);
}

static int64_t bwdFlopsInt(const Attn &A, bool Flash) {
  int64_t G = A.HQ / A.HKV - 1; // Python floor division of positive ints
  int64_t F = Flash ? A.B * A.HQ * 2 * A.NQ * A.NKV * A.Dqk : 0;
  F += A.B * A.HQ * 2 * A.NKV * A.NQ * A.Dv + A.B * A.NKV * A.Dv * G; // dV
  F += A.B * A.HQ * 2 * A.NQ * A.NKV * A.Dv;                          // dP
  F += A.B * A.HQ * 2 * A.NQ * A.NKV * A.Dqk;                         // dQ
  F += A.B * A.HQ * 2 * A.NKV * A.NQ * A.Dqk + A.B * A.NKV * A.Dqk * G; // dK
  return F;
}

llvm::Expected<PerfModelResult> pm::buildSdpa(const OpDesc &Op) {
  const SdpaSpec *S = findSpec(Op.Name);
  if (!S)
    return err("no attention model for '" + Op.Name + "'");
  auto Q = shapeAt(Op, S->Q);
  if (!Q)
    return Q.takeError();
  auto K = shapeAt(Op, S->K);
  if (!K)
    return K.takeError();
  auto V = shapeAt(Op, S->V);
  if (!V)
    return V.takeError();
  if (Q->size() != 4 || K->size() != 4 || V->size() != 4)
    return err(Op.Name + ": q/k/v must be 4-D");
  Attn A;
  A.B = (*Q)[S->IB];
  A.HQ = (*Q)[S->IH];
  A.NQ = (*Q)[S->IN];
  A.Dqk = (*Q)[S->ID];
  A.HKV = (*K)[S->IH];
  A.NKV = (*K)[S->IN];
  A.Dv = (*V)[S->ID];
  if (A.B != (*K)[S->IB] || A.B != (*V)[S->IB])
    return err(Op.Name + ": batch sizes of q, k, v differ");
  if ((*K)[S->IH] != (*V)[S->IH] || (*K)[S->IN] != (*V)[S->IN])
    return err(Op.Name + ": k and v shapes differ");
  if (A.Dqk != (*K)[S->ID])
    return err(Op.Name + ": q and k head dims differ");
  if (A.HKV == 0)
    return err(Op.Name + ": zero kv heads");

  // dropout / causal from Concrete Inputs.
  double Dropout = S->DropoutDefault;
  if (S->DropoutIdx >= 0 &&
      static_cast<size_t>(S->DropoutIdx) < Op.ConcreteInputs.size()) {
    const std::string &D = Op.ConcreteInputs[S->DropoutIdx];
    if (S->Causal == CausalParse::AtenString) {
      if (auto F = parsePyFloat(D))
        Dropout = *F;
    } else if (!llvm::StringRef(D).trim().empty()) {
      auto F = parsePyFloat(D);
      if (!F)
        return err(Op.Name + ": dropout '" + D + "' is not a float");
      Dropout = *F;
    }
  }
  bool Causal = S->CausalDefault;
  if (static_cast<size_t>(S->CausalIdx) < Op.ConcreteInputs.size()) {
    llvm::StringRef C = Op.ConcreteInputs[S->CausalIdx];
    if (S->Causal == CausalParse::AtenString) {
      Causal = C.trim().equals_insensitive("true");
    } else if (!C.trim().empty()) {
      auto L = parsePyLiteral(C);
      if (!L)
        return L.takeError();
      Causal = L->truthy();
    }
  } else if (S->Causal == CausalParse::AtenString) {
    return err(Op.Name + ": Concrete Inputs has no causal flag");
  }
  if (Causal && A.NQ != A.NKV)
    return err(Op.Name + ": causal attention needs N_Q == N_KV");

  double Flops = static_cast<double>(fwdFlopsInt(A));
  double FlopsBwd = static_cast<double>(bwdFlopsInt(A, S->FlashImpl));
  if (Causal) {
    Flops /= 2;
    FlopsBwd /= 2;
  }
  int64_t QE = A.B * A.NQ * A.HQ * A.Dqk, KE = A.B * A.NKV * A.HKV * A.Dqk,
          VE = A.B * A.NKV * A.HKV * A.Dv, OE = A.B * A.NQ * A.HQ * A.Dv;
  int64_t FwdBpe = 2;
  std::optional<int64_t> BwdBpe = 2;
  std::string T0;
  if (S->HasDtype || S->BwdBytesFromType) {
    auto T = typeAt(Op, 0);
    if (!T)
      return T.takeError();
    T0 = *T;
  }
  if (S->BwdBytesFromType)
    BwdBpe = bpe(T0);
  double Bytes = static_cast<double>((QE + KE + VE + OE) * FwdBpe);
  std::optional<double> BytesBwd;
  if (BwdBpe)
    BytesBwd = static_cast<double>((QE + KE + VE + OE + QE + KE + VE) * *BwdBpe);

  PerfModelResult R;
  R.ModelClass = "sdpa";
  R.Category = S->Bwd ? "SDPA_bwd" : "SDPA_fwd";
  if (S->Bwd) {
    R.Flops = FlopsBwd;
    R.Bytes = BytesBwd;
  } else {
    R.Flops = Flops;
    R.Bytes = Bytes;
  }
  R.HasBwd = true;
  R.FlopsBwd = FlopsBwd;
  R.BytesBwd = BytesBwd;
  R.Params = {{"B", PyValue::integer(A.B)},     {"N_Q", PyValue::integer(A.NQ)},
              {"H_Q", PyValue::integer(A.HQ)},  {"N_KV", PyValue::integer(A.NKV)},
              {"H_KV", PyValue::integer(A.HKV)}, {"d_h_qk", PyValue::integer(A.Dqk)},
              {"d_h_v", PyValue::integer(A.Dv)}};
  if (S->HasStrides) {
    R.Params.push_back({"q_stride", strideAt(Op, S->Q)});
    R.Params.push_back({"k_stride", strideAt(Op, S->K)});
    R.Params.push_back({"v_stride", strideAt(Op, S->V)});
  }
  R.Params.push_back({"dropout", PyValue::real(Dropout)});
  R.Params.push_back({"causal", PyValue::boolean(Causal)});
  R.Params.push_back({"flash_impl", PyValue::boolean(S->FlashImpl)});
  if (S->HasDtype) {
    auto T1 = typeAt(Op, 1);
    if (!T1)
      return T1.takeError();
    R.Params.push_back(
        {"dtype_A_B", PyValue::tuple({PyValue::str(T0), PyValue::str(*T1)})});
    R.ComputeSpec = computeSpec("matrix", T0);
  }
  return R;
}
