//===- InferenceAttention.cpp - serving attention models (inference §D.2) -===//
//
// Paged / varlen / prefill / decode attention of vLLM, AITER and SGLang.
// The token aggregates (c_/g_ sq, sk, sqsq, sqsk) come from the iteration
// annotation around the op (OpDesc::Annotation, §A.1), not from the shapes:
// a paged KV cache's shape says nothing about how much of it is read.
//
// Replicated reference quirks:
//  * the base class takes d_h_v from K's last dim (D1[-1]); only the
//    prefill classes read V (D2) (§E.12).
//  * an unparseable annotation gives the "no-perf" params and no FLOPs: the
//    row leaves the sheets with a warning and keeps its kernel time in the
//    unified table (a plain error here); no tokens at all (c_sq == g_sq ==
//    0) is NotImplementedError, which drops the row everywhere (§D.0).
//  * `sglang_profiler::tilelang_kernel_tilelang_sparse_fwd` always has
//    d_h_v = 512 (the reference reads a key that never exists, §E.12).
//  * `vllm::gdn_attention_core` has no error handling: an unparseable
//    annotation is NotImplementedError (§E.11).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

#include "tl/Analysis/IterationAnnotation.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace tl;
using namespace tl::pm;

namespace {
enum class Kind {
  Base,        // unified_attention_with_output, mha_varlen_fwd, mla decode
  PrefillV,    // fmha_v3_varlen_fwd, mha_batch_prefill, mla prefill
  TileLang,    // tilelang sparse MLA
  Ragged,      // paged_attention_ragged
  DecodeGluon, // pa_decode_gluon
  SparseOpus,  // pa_sparse_prefill_opus_fwd
  Gdn,         // gated delta-net linear attention
  StoreCache,  // sglang::store_cache
  None,
};

Kind kindOf(llvm::StringRef Name) {
  return llvm::StringSwitch<Kind>(Name)
      .Cases("vllm::unified_attention_with_output", "aiter::mha_varlen_fwd",
             "pseudo_mla_decode_fwd", Kind::Base)
      .Cases("aiter::fmha_v3_varlen_fwd", "aiter::mha_batch_prefill",
             "pseudo_mla_prefill_fwd", Kind::PrefillV)
      .Case("sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
            Kind::TileLang)
      .Case("sglang_profiler::attention_paged_attention_ragged", Kind::Ragged)
      .Case("aiter::pa_decode_gluon", Kind::DecodeGluon)
      .Case("aiter::pa_sparse_prefill_opus_fwd", Kind::SparseOpus)
      .Cases("vllm::gdn_attention_core",
             "aiter::linear_attention_with_output_base", Kind::Gdn)
      .Case("sglang::store_cache", Kind::StoreCache)
      .Default(Kind::None);
}

struct Attn {
  int64_t NQ = 0, HQ = 0, NKV = 0, HKV = 0, Dqk = 0, Dv = 0;
  ChunkStats S;
  std::string DtypeQ, DtypeKV;
  bool HasDtypeKV = true;
  int64_t SlidingWindow = 0;
  bool HasSlidingWindow = false;
};

/// shape[-3:] as (a, b, c); error when shorter.
llvm::Error last3(const OpDesc &Op, size_t I, int64_t &A, int64_t &B,
                  int64_t &C) {
  auto S = shapeAt(Op, I);
  if (!S)
    return S.takeError();
  if (S->size() < 3)
    return err(Op.Name + ": Input Dims[" + llvm::Twine(I) +
               "] has fewer than 3 dims");
  A = (*S)[S->size() - 3];
  B = (*S)[S->size() - 2];
  C = (*S)[S->size() - 1];
  return llvm::Error::success();
}

/// Python's `shape[i]` with negative indices.
llvm::Expected<int64_t> dimAt(const OpDesc &Op, size_t I, int Idx) {
  auto S = shapeAt(Op, I);
  if (!S)
    return S.takeError();
  int64_t N = static_cast<int64_t>(S->size());
  int64_t J = Idx < 0 ? N + Idx : Idx;
  if (J < 0 || J >= N)
    return err(Op.Name + ": Input Dims[" + llvm::Twine(I) +
               "] index out of range");
  return (*S)[J];
}

/// The parameters of the annotation-driven classes; any failure is the
/// reference's caught parse error.
llvm::Error parse(const OpDesc &Op, Kind K, Attn &A) {
  auto Stats = parseChunkStats(Op.Annotation);
  if (!Stats)
    return err(Op.Name + ": annotation '" + Op.Annotation +
               "' has no chunk statistics");
  A.S = *Stats;
  const size_t NT = Op.InputTypes.size();
  if (K == Kind::Ragged) {
    if (auto E = last3(Op, 2, A.NQ, A.HQ, A.Dqk))
      return E;
    auto H = dimAt(Op, 3, -2);
    if (!H)
      return H.takeError();
    A.HKV = *H;
    auto Dv = dimAt(Op, 4, -1);
    if (!Dv)
      return Dv.takeError();
    A.Dv = *Dv;
    A.NKV = A.S.CSk + A.S.GSk;
    auto T2 = typeAt(Op, 2);
    if (!T2)
      return T2.takeError();
    A.DtypeQ = *T2;
    A.HasDtypeKV = false;
    return llvm::Error::success();
  }
  if (K == Kind::DecodeGluon) {
    if (auto E = last3(Op, 0, A.NQ, A.HQ, A.Dqk))
      return E;
    auto H = dimAt(Op, 2, 1);
    if (!H)
      return H.takeError();
    A.HKV = *H;
    A.Dv = A.Dqk;
    A.S.CSq = A.S.CSk = A.S.CSqSq = A.S.CSqSk = 0;
    A.NKV = A.S.GSk;
    auto T0 = typeAt(Op, 0);
    if (!T0)
      return T0.takeError();
    A.DtypeQ = *T0;
    A.DtypeKV = NT > 2 ? Op.InputTypes[2] : *T0;
    A.HasSlidingWindow = true;
    if (Op.ConcreteInputs.size() > 19)
      if (auto W = parsePyInt(Op.ConcreteInputs[19]))
        A.SlidingWindow = *W;
    return llvm::Error::success();
  }
  // Base: q = D0 -> (N_Q, H_Q, d_qk); k = D1[-3:] -> (N_KV, H_KV, d_v).
  if (auto E = last3(Op, 0, A.NQ, A.HQ, A.Dqk))
    return E;
  if (auto E = last3(Op, 1, A.NKV, A.HKV, A.Dv))
    return E;
  if (K == Kind::PrefillV && dimsNonEmpty(Op, 2)) {
    auto Dv = dimAt(Op, 2, -1);
    if (!Dv)
      return Dv.takeError();
    A.Dv = *Dv;
  }
  if (K == Kind::TileLang)
    A.Dv = 512;
  auto T0 = typeAt(Op, 0);
  if (!T0)
    return T0.takeError();
  A.DtypeQ = *T0;
  A.DtypeKV = NT > 1 ? Op.InputTypes[1] : *T0;
  return llvm::Error::success();
}

void pushStats(ParamList &P, const ChunkStats &S) {
  for (auto [K, V] :
       {std::pair<const char *, int64_t>{"c_sq", S.CSq}, {"c_sk", S.CSk},
        {"c_sqsq", S.CSqSq}, {"c_sqsk", S.CSqSk}, {"g_sq", S.GSq},
        {"g_sk", S.GSk}, {"g_sqsq", S.GSqSq}, {"g_sqsk", S.GSqSk}})
    P.push_back({K, PyValue::integer(V)});
}

void pushFlags(ParamList &P) {
  P.push_back({"dropout", PyValue::real(0.0)});
  P.push_back({"causal", PyValue::boolean(false)});
  P.push_back({"flash_impl", PyValue::boolean(true)});
}

/// The annotation-driven classes (base, prefill, tilelang, ragged, gluon).
llvm::Expected<PerfModelResult> annotated(const OpDesc &Op, Kind K) {
  Attn A;
  if (auto E = parse(Op, K, A)) {
    // The reference's no-perf set: zero params, flops None.
    llvm::consumeError(std::move(E));
    return err(Op.Name + ": no perf model without an iteration annotation "
                         "with token statistics (annotation '" +
               Op.Annotation + "')");
  }
  const ChunkStats &S = A.S;
  if (S.CSq == 0 && S.GSq == 0)
    return notImpl(Op.Name + ": the annotation has no query tokens");
  // Sliding window: decode attention reads at most W keys per query.
  bool Cap = A.HasSlidingWindow && A.SlidingWindow > 0 && S.GSq > 0;
  auto cap = [&](int64_t X) {
    return Cap ? std::min(X, S.GSq * A.SlidingWindow) : X;
  };
  double HQ = A.HQ, Dqk = A.Dqk, Dv = A.Dv, HKV = A.HKV;
  // Context: QK^T and PV over the causal triangle (sqsk - sqsq/2 per
  // head dim, times 2 FLOPs); generation: every query sees all its keys.
  double Flops = HQ * (2.0 * S.CSqSk * Dqk + 2.0 * S.CSqSk * Dv -
                       1.0 * S.CSqSq * Dqk - 1.0 * S.CSqSq * Dv) +
                 HQ * (2.0 * cap(S.GSqSk) * Dqk + 2.0 * cap(S.GSqSk) * Dv);
  std::optional<int64_t> B0 = bpe(A.DtypeQ);
  double Bpe = B0 ? *B0 : 2;
  double BpeKV = Bpe;
  if (A.HasDtypeKV)
    if (auto BK = bpe(A.DtypeKV))
      BpeKV = *BK;
  // Q, O and the new K/V of every token, plus the cached keys and values
  // read once per new key position.
  double Bytes =
      1.0 * (S.CSq + S.GSq) * (HQ * Dqk + HQ * Dv + HKV * Dqk + HKV * Dv) *
          Bpe +
      1.0 * ((S.CSk - S.CSq) + (cap(S.GSk) - S.GSq)) * HKV * (Dqk + Dv) *
          BpeKV;

  PerfModelResult R;
  R.ModelClass = "inference_attention";
  R.Category = "InferenceAttention";
  R.Flops = Flops;
  R.Bytes = Bytes;
  R.ComputeSpec = computeSpec("matrix", A.DtypeQ);
  ParamList &P = R.Params;
  P.push_back({"B", PyValue::integer(1)});
  P.push_back({"N_Q", PyValue::integer(A.NQ)});
  P.push_back({"H_Q", PyValue::integer(A.HQ)});
  P.push_back({"H_V", PyValue::integer(A.HKV)});
  P.push_back({"H_K", PyValue::integer(A.HKV)});
  P.push_back({"N_KV", PyValue::integer(A.NKV)});
  P.push_back({"H_KV", PyValue::integer(A.HKV)});
  P.push_back({"d_h_qk", PyValue::integer(A.Dqk)});
  P.push_back({"d_h_v", PyValue::integer(A.Dv)});
  pushFlags(P);
  pushStats(P, S);
  P.push_back({"dtype_Q", PyValue::str(A.DtypeQ)});
  if (A.HasDtypeKV)
    P.push_back({"dtype_KV", PyValue::str(A.DtypeKV)});
  if (A.HasSlidingWindow)
    P.push_back({"sliding_window", PyValue::integer(A.SlidingWindow)});
  return R;
}

/// Sparse prefill: every (query, key) pair listed explicitly.
llvm::Expected<PerfModelResult> sparseOpus(const OpDesc &Op) {
  Attn A;
  if (auto E = last3(Op, 0, A.NQ, A.HQ, A.Dqk))
    return E;
  A.Dv = A.Dqk;
  auto P2 = dimAt(Op, 2, 0);
  if (!P2)
    return P2.takeError();
  auto P5 = dimAt(Op, 5, 0);
  if (!P5)
    return P5.takeError();
  int64_t Pairs = *P2 + *P5;
  std::string T0 = typeOr(Op, 0, ""), T1 = typeOr(Op, 1, "");
  std::optional<int64_t> B0 = bpe(T0), B1 = bpe(T1);
  double Bpe = B0 ? *B0 : 2, BpeKV = B1 ? *B1 : Bpe;
  PerfModelResult R;
  R.ModelClass = "pa_sparse_prefill_opus_fwd";
  R.Category = "InferenceAttention";
  R.Flops = 1.0 * Pairs * A.HQ * 2 * (A.Dqk + A.Dv);
  R.Bytes = 2.0 * A.NQ * A.HQ * A.Dqk * Bpe + 1.0 * Pairs * A.Dv * BpeKV;
  R.ComputeSpec = computeSpec("matrix", T0);
  if (R.ComputeSpec.empty())
    R.ComputeSpec = "matrix_bf16";
  ParamList &P = R.Params;
  P.push_back({"B", PyValue::integer(1)});
  P.push_back({"N_Q", PyValue::integer(A.NQ)});
  P.push_back({"H_Q", PyValue::integer(A.HQ)});
  P.push_back({"H_V", PyValue::integer(1)});
  P.push_back({"H_K", PyValue::integer(1)});
  P.push_back({"N_KV", PyValue::integer(Pairs)});
  P.push_back({"H_KV", PyValue::integer(1)});
  P.push_back({"d_h_qk", PyValue::integer(A.Dqk)});
  P.push_back({"d_h_v", PyValue::integer(A.Dv)});
  pushFlags(P);
  P.push_back({"prefill_pairs", PyValue::integer(Pairs)});
  P.push_back({"dtype_Q", PyValue::str(T0)});
  P.push_back({"dtype_KV", PyValue::str(T1)});
  return R;
}

/// Gated delta-net: a recurrent state update per token, no KV cache.
llvm::Expected<PerfModelResult> gdn(const OpDesc &Op) {
  auto Stats = parseChunkStats(Op.Annotation);
  if (!Stats)
    return notImpl(Op.Name + ": annotation '" + Op.Annotation +
                   "' has no chunk statistics");
  auto D = dimAt(Op, 0, 1);
  if (!D)
    return D.takeError();
  auto HV = dimAt(Op, 1, 1);
  if (!HV)
    return HV.takeError();
  auto Dv = dimAt(Op, 3, 2);
  if (!Dv)
    return Dv.takeError();
  int64_t HK = floorDiv(*HV, 2);
  if (HK == 0)
    return err(Op.Name + ": zero key heads");
  int64_t Dk = floorDiv(floorDiv(*D - *HV * *Dv, 2), HK);
  int64_t Ttok = Stats->CSq + Stats->GSq;
  if (Ttok == 0)
    return notImpl(Op.Name + ": the annotation has no tokens");
  auto T0 = typeAt(Op, 0);
  if (!T0)
    return T0.takeError();
  PerfModelResult R;
  R.ModelClass = "gdn_attention_core";
  R.Category = "InferenceAttention";
  R.Flops = 1.0 * Ttok * *HV * 7 * *Dv * Dk;
  R.Bytes = 1.0 * Ttok * *HV * (Dk + 2 * *Dv + 2) * 2;
  R.ComputeSpec = computeSpec("matrix", *T0);
  ParamList &P = R.Params;
  P.push_back({"B", PyValue::integer(1)});
  P.push_back({"N_Q", PyValue::integer(Ttok)});
  P.push_back({"H_Q", PyValue::integer(HK)});
  P.push_back({"N_KV", PyValue::integer(0)});
  P.push_back({"H_KV", PyValue::integer(HK)});
  P.push_back({"H_V", PyValue::integer(*HV)});
  P.push_back({"H_K", PyValue::integer(HK)});
  P.push_back({"d_h_qk", PyValue::integer(Dk)});
  P.push_back({"d_h_v", PyValue::integer(*Dv)});
  ChunkStats S;
  S.CSq = S.CSk = Stats->CSq;
  S.GSq = S.GSk = Stats->GSq;
  pushStats(P, S);
  P.push_back({"dtype_Q", PyValue::str(*T0)});
  return R;
}

/// KV-cache write: read K and V, write both into the cache.
llvm::Expected<PerfModelResult> storeCache(const OpDesc &Op) {
  auto S = shapeAt(Op, 0);
  if (!S)
    return S.takeError();
  auto T0 = typeAt(Op, 0);
  if (!T0)
    return T0.takeError();
  int64_t N = prod(*S);
  std::optional<int64_t> B = bpe(*T0);
  PerfModelResult R;
  R.ModelClass = "sglang_store_cache";
  R.Category = "InferenceAttention";
  R.Flops = 0;
  R.Bytes = 4.0 * N * (B ? *B : 2);
  R.ComputeSpec = computeSpec("vector", *T0);
  R.Params = {{"op_shape", shapeValue(*S)},
              {"nelems", PyValue::integer(N)},
              {"dtype", PyValue::str(*T0)}};
  return R;
}
} // namespace

llvm::Expected<PerfModelResult> pm::buildInferenceAttention(const OpDesc &Op) {
  switch (Kind K = kindOf(Op.Name)) {
  case Kind::SparseOpus:
    return sparseOpus(Op);
  case Kind::Gdn:
    return gdn(Op);
  case Kind::StoreCache:
    return storeCache(Op);
  case Kind::None:
    return err("no inference attention model for '" + Op.Name + "'");
  default:
    return annotated(Op, K);
  }
}
