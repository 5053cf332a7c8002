//===- Elementwise.cpp - unary/binary elementwise models (spec §5.7) ------===//
//
// Replicated reference quirks:
//  * aten::copy_ dims are (dst, src) so "in" is dst (§5.7).
//  * binary out dtype only from a non-empty Dims[2] (an alpha scalar []
//    does not count); a Scalar input has bpe 4 (§5.7).
//  * the strides are indexed, not looked up: an op without 'Input Strides'
//    (or with fewer entries) raises, so its sheet row is skipped and its
//    unified row has Kernel Time only (strideRequired).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

using namespace tl;
using namespace tl::pm;

static PyValue optStr(const std::optional<std::string> &S) {
  return S ? PyValue::str(*S) : PyValue::none();
}

static llvm::Expected<PerfModelResult> buildPadOrUpsample(const OpDesc &Op,
                                                          bool IsPad) {
  auto In = shapeAt(Op, 0);
  if (!In)
    return In.takeError();
  auto T = typeAt(Op, 0);
  if (!T)
    return T.takeError();
  auto C1 = concreteAt(Op, 1);
  if (!C1)
    return C1.takeError();
  Shape Out = *In;
  PyValue Padding;
  if (IsPad) {
    auto P = parseIntList(*C1);
    if (!P)
      return P.takeError();
    // Innermost pair first: (left, right) of the last dim, then the one
    // before it, ...
    for (size_t I = 0; 2 * I + 1 < P->size(); ++I) {
      if (I >= Out.size())
        return err(Op.Name + ": padding longer than the input rank");
      Out[Out.size() - 1 - I] += (*P)[2 * I] + (*P)[2 * I + 1];
    }
    Padding = shapeValue(*P);
  } else {
    auto L = parsePyLiteral(*C1);
    if (!L)
      return L.takeError();
    if (In->size() < 2)
      return err(Op.Name + ": input rank below 2");
    Out = {(*In)[0], (*In)[1]};
    for (const PyValue &E : L->elems()) {
      if (E.kind() != PyValue::Kind::Int)
        return err(Op.Name + ": output size is not a list of ints");
      Out.push_back(E.getInt());
    }
  }
  auto SIn = strideRequired(Op, 0);
  if (!SIn)
    return SIn.takeError();
  auto B = bpe(*T);
  PerfModelResult R;
  R.ModelClass = IsPad ? "aten_replication_pad" : "aten_upsample_nearest";
  R.Category = "elementwise";
  R.ComputeSpec = computeSpec("vector", *T);
  R.Flops = static_cast<double>(prod(Out));
  if (B)
    R.Bytes = static_cast<double>(prod(*In) * *B + prod(Out) * *B);
  // The subclass sets its keys before the unary base ones (h100 timesformer
  // unified_perf_summary.csv, aten::upsample_nearest1d perf_params).
  R.Params = {{"input_shape", shapeValue(*In)}, {"output_shape", shapeValue(Out)}};
  if (IsPad)
    R.Params.push_back({"padding", Padding});
  // The output has the input's dtype (same row).
  R.Params.push_back({"op_shape", shapeValue(Out)});
  R.Params.push_back(
      {"dtype_in_out", PyValue::tuple({PyValue::str(*T), PyValue::str(*T)})});
  R.Params.push_back({"stride_input", *SIn});
  R.Params.push_back({"stride_output", PyValue::none()});
  return R;
}

static llvm::Expected<PerfModelResult> buildUnary(const OpDesc &Op) {
  auto S = shapeAt(Op, 0);
  if (!S)
    return S.takeError();
  auto TIn = typeAt(Op, 0);
  if (!TIn)
    return TIn.takeError();
  auto SIn = strideRequired(Op, 0);
  if (!SIn)
    return SIn.takeError();
  std::optional<std::string> TOut;
  PyValue StrideOut;
  if (Op.InputDims.size() > 1 && Op.InputDims[1].truthy()) {
    auto T = typeAt(Op, 1);
    if (!T)
      return T.takeError();
    TOut = *T;
    auto SO = strideRequired(Op, 1);
    if (!SO)
      return SO.takeError();
    StrideOut = *SO;
  }
  int64_t N = prod(*S);
  auto BIn = bpe(*TIn);
  auto BOut = TOut ? bpe(*TOut) : BIn;
  PerfModelResult R;
  R.ModelClass = "aten_unary_elementwise";
  R.Category = "elementwise";
  R.ComputeSpec = computeSpec("vector", *TIn);
  R.Flops = static_cast<double>(N);
  if (BIn && BOut)
    R.Bytes = static_cast<double>(N * *BIn + N * *BOut);
  R.Params = {{"op_shape", shapeValue(*S)},
              {"dtype_in_out", PyValue::tuple({PyValue::str(*TIn), optStr(TOut)})},
              {"stride_input", *SIn},
              {"stride_output", StrideOut}};
  return R;
}

static llvm::Expected<PerfModelResult> buildBinary(const OpDesc &Op) {
  auto S1 = shapeAt(Op, 0);
  if (!S1)
    return S1.takeError();
  auto S2 = shapeAt(Op, 1);
  if (!S2)
    return S2.takeError();
  auto T1 = typeAt(Op, 0);
  if (!T1)
    return T1.takeError();
  auto T2 = typeAt(Op, 1);
  if (!T2)
    return T2.takeError();
  auto SIn1 = strideRequired(Op, 0);
  if (!SIn1)
    return SIn1.takeError();
  auto SIn2 = strideRequired(Op, 1);
  if (!SIn2)
    return SIn2.takeError();
  bool IsLiger = Op.Name == "LigerSiLUMulFunction";
  std::optional<std::string> TOut;
  PyValue StrideOut;
  if (!IsLiger && Op.InputDims.size() > 2 && Op.InputDims[2].truthy()) {
    auto T = typeAt(Op, 2);
    if (!T)
      return T.takeError();
    TOut = *T;
    auto SO = strideRequired(Op, 2);
    if (!SO)
      return SO.takeError();
    StrideOut = *SO;
  }
  // Broadcast: right-align with 1s.
  size_t Rank = std::max(S1->size(), S2->size());
  Shape Out(Rank);
  for (size_t I = 0; I < Rank; ++I) {
    int64_t A = I < Rank - S1->size() ? 1 : (*S1)[I - (Rank - S1->size())];
    int64_t B = I < Rank - S2->size() ? 1 : (*S2)[I - (Rank - S2->size())];
    if (A != B && A != 1 && B != 1)
      return err(Op.Name + ": shapes cannot be broadcast");
    Out[I] = std::max(A, B);
  }
  auto B1 = bpe(*T1), B2 = bpe(*T2);
  std::optional<int64_t> BOut;
  if (TOut)
    BOut = bpe(*TOut);
  else if (B1 && B2)
    BOut = (!S1->empty() && !S2->empty()) ? std::max(*B1, *B2) : *B1;
  PerfModelResult R;
  R.ModelClass = "aten_binary_elementwise";
  R.Category = "elementwise";
  R.ComputeSpec = computeSpec("vector", *T1);
  R.Flops = static_cast<double>(prod(Out));
  if (B1 && B2 && BOut)
    R.Bytes = static_cast<double>(prod(*S1) * *B1 + prod(*S2) * *B2 +
                                  prod(Out) * *BOut);
  R.Params = {{"shape_in1", shapeValue(*S1)},
              {"shape_in2", shapeValue(*S2)},
              {"dtype_in1_in2_out", PyValue::tuple({PyValue::str(*T1),
                                                    PyValue::str(*T2),
                                                    optStr(TOut)})},
              {"stride_input1", *SIn1},
              {"stride_input2", *SIn2},
              {"stride_output", StrideOut}};
  return R;
}

llvm::Expected<PerfModelResult> pm::buildElementwise(const OpDesc &Op) {
  llvm::StringRef N = Op.Name;
  if (N.starts_with("aten::replication_pad"))
    return buildPadOrUpsample(Op, true);
  if (N.starts_with("aten::upsample_nearest"))
    return buildPadOrUpsample(Op, false);
  static const char *const Binary[] = {
      "aten::div",  "aten::div_",  "aten::mul",
      "aten::mul_", "aten::add",   "aten::add_",
      "aten::sigmoid_backward", "aten::threshold_backward",
      "LigerSiLUMulFunction"};
  for (const char *B : Binary)
    if (N == B)
      return buildBinary(Op);
  return buildUnary(Op);
}
