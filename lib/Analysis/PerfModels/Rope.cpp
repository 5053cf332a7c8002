//===- Rope.cpp - rotary-embedding models (inference §D.4) ----------------===//
//
// RoPE rotates every element of q and k once: 3 FLOPs (two multiplies, one
// add) and a read plus a write per element. The MLA variants also write
// the rotated keys into the KV cache, so they move q and k in and out.
//
// Replicated reference quirks:
//  * `sgl_kernel::rotary_embedding` counts only the rotated part of each
//    head (rot = D4[1], the cos/sin cache width) and sizes with bpe(T1).
//  * an unknown dtype counts as 2 bytes (rope_cached_positions, rotary).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

using namespace tl;
using namespace tl::pm;

static double bpeOr2(const OpDesc &Op, size_t I) {
  if (I < Op.InputTypes.size())
    if (auto B = bpe(Op.InputTypes[I]))
      return static_cast<double>(*B);
  return 2;
}

static PerfModelResult ropeResult(llvm::StringRef Dtype, double Num,
                                  double Bpe) {
  PerfModelResult R;
  R.ModelClass = "rope";
  R.Category = "RoPE_fwd";
  R.Flops = 3 * Num;
  R.Bytes = 2 * Num * Bpe;
  R.ComputeSpec = computeSpec("vector", Dtype);
  return R;
}

/// sgl_kernel::rotary_embedding(positions, query, key, head_size,
/// cos_sin_cache, is_neox).
static llvm::Expected<PerfModelResult> sglRotary(const OpDesc &Op) {
  auto Q = shapeAt(Op, 1);
  if (!Q)
    return Q.takeError();
  auto K = shapeAt(Op, 2);
  if (!K)
    return K.takeError();
  if (Q->size() < 2 || K->size() < 2 || Q->empty())
    return err(Op.Name + ": expected 2-D query and key");
  int64_t Head = Q->back();
  if (Op.ConcreteInputs.size() > 3 &&
      !llvm::StringRef(Op.ConcreteInputs[3]).trim().empty()) {
    auto H = parsePyInt(Op.ConcreteInputs[3]);
    if (!H)
      return err(Op.Name + ": head size '" + Op.ConcreteInputs[3] +
                 "' is not an int");
    Head = *H;
  }
  if (Head == 0)
    return err(Op.Name + ": zero head size");
  int64_t Rot = Head;
  if (auto C = shapeIfNonEmpty(Op, 4); C && C->size() > 1)
    Rot = (*C)[1];
  int64_t Num =
      (*Q)[0] * (floorDiv((*Q)[1], Head) + floorDiv((*K)[1], Head)) * Rot;
  std::string T1 = Op.InputTypes.size() > 1 ? Op.InputTypes[1] : "";
  PerfModelResult R = ropeResult(T1, Num, bpeOr2(Op, 1));
  R.Params = {{"num_elements", PyValue::integer(Num)}};
  return R;
}

/// aiter::rope_cached_positions_2c_fwd_impl: x = D2, y = D3.
static llvm::Expected<PerfModelResult> cached2c(const OpDesc &Op) {
  auto X = shapeAt(Op, 2);
  if (!X)
    return X.takeError();
  auto Y = shapeAt(Op, 3);
  if (!Y)
    return Y.takeError();
  int64_t Num = prod(*X) + prod(*Y);
  std::string T0 = Op.InputTypes.empty() ? "" : Op.InputTypes[0];
  PerfModelResult R = ropeResult(T0, Num, bpeOr2(Op, 0));
  R.Params = {{"x_shape", shapeValue(*X)},
              {"y_shape", shapeValue(*Y)},
              {"num_elements", PyValue::integer(Num)}};
  return R;
}

/// MLA: rope on the D_pe part of q (T, QH, .) and k, q and k concatenated
/// with their latent part and k written to the KV cache.
static llvm::Expected<PerfModelResult> mlaRope(const OpDesc &Op) {
  bool Concat = Op.Name == "aiter::fused_qk_rope_concat_and_cache_mla";
  auto Q = shapeAt(Op, 0);
  if (!Q)
    return Q.takeError();
  if (Q->size() < 3)
    return err(Op.Name + ": expected a 3-D q");
  auto Pe = shapeAt(Op, 1);
  if (!Pe)
    return Pe.takeError();
  if (Pe->size() < 3)
    return err(Op.Name + ": expected a 3-D q_pe");
  int64_t T = (*Q)[0], QH = (*Q)[1], DLora = (*Q)[2], DPe = (*Pe)[2];
  int64_t KH = 1;
  if (!Concat) {
    auto K = shapeAt(Op, 2);
    if (!K)
      return K.takeError();
    if (K->size() < 2)
      return err(Op.Name + ": expected a k with heads");
    KH = (*K)[1];
  }
  auto TIn = typeAt(Op, 0);
  if (!TIn)
    return TIn.takeError();
  std::string DtypeKV = typeOr(Op, 4, *TIn);
  std::string DtypeOut = typeOr(Op, 5, *TIn);
  std::optional<int64_t> BIn = bpe(*TIn);
  PerfModelResult R;
  R.ModelClass = "fused_qk_rope_mla";
  R.Category = "RoPE_fwd";
  R.Flops = 3.0 * (1.0 * T * QH * DPe + 1.0 * T * KH * DPe);
  if (BIn) {
    std::optional<int64_t> BKV = bpe(DtypeKV), BOut = bpe(DtypeOut);
    double bi = *BIn, bkv = BKV ? *BKV : bi, bo = BOut ? *BOut : bi;
    double QE = 1.0 * T * QH * (DLora + DPe), KE = 1.0 * T * KH * (DLora + DPe);
    R.Bytes = Concat ? QE * bi + QE * bo + KE * bi + KE * bkv
                     : QE * bi * 2 + KE * (bi + bkv);
  }
  R.ComputeSpec = computeSpec("vector", *TIn);
  R.Params = {{"T", PyValue::integer(T)},
              {"QH", PyValue::integer(QH)},
              {"D_lora", PyValue::integer(DLora)},
              {"D_pe", PyValue::integer(DPe)},
              {"KH", PyValue::integer(KH)},
              {"dtype_in", PyValue::str(*TIn)},
              {"dtype_kv", PyValue::str(DtypeKV)}};
  if (Concat)
    R.Params.push_back({"dtype_out", PyValue::str(DtypeOut)});
  return R;
}

llvm::Expected<PerfModelResult> pm::buildRope(const OpDesc &Op) {
  if (Op.Name == "sgl_kernel::rotary_embedding")
    return sglRotary(Op);
  if (Op.Name == "aiter::rope_cached_positions_2c_fwd_impl")
    return cached2c(Op);
  if (Op.Name == "aiter::fused_qk_rope_cat_and_cache_mla" ||
      Op.Name == "aiter::fused_qk_rope_concat_and_cache_mla")
    return mlaRope(Op);
  return err("no RoPE model for '" + Op.Name + "'");
}
