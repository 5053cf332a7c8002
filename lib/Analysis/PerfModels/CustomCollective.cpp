//===- CustomCollective.cpp - custom all-reduce / gather (inference §D.7) -===//
//
// vLLM / SGLang / AITER custom collectives: no FLOPs except the fused
// all-reduce + RMSNorm, and the local buffer traffic as bytes. The class
// has neither maf nor precision, so Compute Spec is always "".
//
// Replicated reference quirks:
//  * an unknown dtype makes the bytes raise: the row is skipped (an error
//    here, not bytes None).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

using namespace tl;
using namespace tl::pm;

namespace {
struct Io {
  Shape In, Out;
  std::string Dtype;
  PyValue Stride;
  int64_t Bpe = 0;
};

llvm::Error read(const OpDesc &Op, size_t In, int Out, size_t Ty, Io &X) {
  auto S = shapeAt(Op, In);
  if (!S)
    return S.takeError();
  X.In = *S;
  if (Out >= 0) {
    auto O = shapeAt(Op, Out);
    if (!O)
      return O.takeError();
    X.Out = *O;
  }
  auto T = typeAt(Op, Ty);
  if (!T)
    return T.takeError();
  X.Dtype = *T;
  auto B = bpe(*T);
  if (!B)
    return err(Op.Name + ": unknown dtype '" + *T + "'");
  X.Bpe = *B;
  return llvm::Error::success();
}
} // namespace

llvm::Expected<PerfModelResult> pm::buildCustomCollective(const OpDesc &Op) {
  llvm::StringRef Name = Op.Name;
  PerfModelResult R;
  R.ModelClass = "custom_collective";
  R.Category = "CustomCollective";
  R.Flops = 0;
  Io X;
  if (Name == "aiter::fused_allreduce_rmsnorm" ||
      Name == "aiter::fused_allreduce_rmsnorm_") {
    bool Under = Name.ends_with("_");
    size_t I = Under ? 0 : 2, CI = Under ? 2 : 6;
    if (auto E = read(Op, I, -1, I, X))
      return E;
    auto C = shapeAt(Op, CI);
    if (!C)
      return C.takeError();
    if (C->empty() || (*C)[0] == 0)
      return err(Name + ": no channel count");
    int64_t c = (*C)[0], n = prod(X.In);
    // The reduction's adds, then RMSNorm over the n // c rows.
    R.Flops = 1.0 * n + 1.0 * floorDiv(n, c) * (2 * c + 2) + 2.0 * n;
    R.Bytes = 4.0 * n * X.Bpe + 1.0 * c * X.Bpe;
    R.Params = {{"op_shape", shapeValue(X.In)},
                {"dtype_in", PyValue::str(X.Dtype)},
                {"stride_input", strideAt(Op, I)},
                {"num_channels", PyValue::integer(c)}};
    return R;
  }
  if (Name == "_C_custom_ar::all_reduce" ||
      Name == "_C_custom_ar::qr_all_reduce" ||
      Name == "sgl_kernel::all_reduce_reg" || Name == "sgl_kernel::qr_all_reduce") {
    if (auto E = read(Op, 1, -1, 1, X))
      return E;
    R.Bytes = 2.0 * prod(X.In) * X.Bpe;
    R.Params = {{"op_shape", shapeValue(X.In)},
                {"dtype_in", PyValue::str(X.Dtype)},
                {"stride_input", strideAt(Op, 1)}};
    return R;
  }
  if (Name == "aiter::reduce_scatter" || Name == "aiter::all_gather_reg") {
    if (auto E = read(Op, 1, 2, 1, X))
      return E;
    R.Bytes = 1.0 * (prod(X.In) + prod(X.Out)) * X.Bpe;
    R.Params = {{"op_shape", shapeValue(X.In)},
                {"out_shape", shapeValue(X.Out)},
                {"dtype_in", PyValue::str(X.Dtype)},
                {"stride_input", strideAt(Op, 1)}};
    return R;
  }
  if (Name == "sglang::reg_all_gather_into_tensor") {
    if (auto E = read(Op, 1, 0, 0, X))
      return E;
    R.Bytes = 1.0 * (prod(X.In) + prod(X.Out)) * X.Bpe;
    R.Params = {{"out_shape", shapeValue(X.Out)},
                {"op_shape", shapeValue(X.In)},
                {"dtype_in", PyValue::str(X.Dtype)}};
    return R;
  }
  return err("no custom collective model for '" + Name + "'");
}
