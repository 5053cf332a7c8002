//===- Reduce.cpp - reduction perf models (spec §5.9) ---------------------===//
//
// Replicated reference quirk 6: the output size is derived only from
// non-string Concrete Inputs, and PyTorch writes every Concrete Input as a
// string, so num_output_elems is always 1 (cumsum/cumprod: = input).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

using namespace tl;
using namespace tl::pm;

llvm::Expected<PerfModelResult> pm::buildReduce(const OpDesc &Op) {
  llvm::StringRef Name = Op.Name;
  PerfModelResult R;
  R.ModelClass = "reduce";
  R.Category = "reduce";
  std::string ReduceType = Name.contains("mean")  ? "mean"
                           : Name.contains("max") ? "max"
                           : Name.contains("min") ? "min"
                           : Name.contains("norm") ? "norm"
                                                   : "sum";
  int64_t NIn = 0, NOut = 0;
  PyValue DtypeInOut = PyValue::tuple({PyValue::none(), PyValue::none()});
  if (!Op.InputDims.empty()) {
    auto S = shapeAt(Op, 0);
    if (!S)
      return S.takeError();
    NIn = prod(*S);
    bool Scan = Name.contains("cumsum") || Name.contains("cumprod");
    NOut = Scan ? NIn : 1;
    auto T = typeAt(Op, 0);
    if (!T)
      return T.takeError();
    std::optional<std::string> TOut;
    if (Op.OutputTypes && !Op.OutputTypes->empty())
      TOut = (*Op.OutputTypes)[0];
    DtypeInOut = PyValue::tuple(
        {PyValue::str(*T), TOut ? PyValue::str(*TOut) : PyValue::none()});
    R.ComputeSpec = computeSpec("vector", *T);
    auto BIn = bpe(*T);
    auto BOut = TOut ? bpe(*TOut) : BIn;
    if (BIn && BOut)
      R.Bytes = static_cast<double>(NIn * *BIn + NOut * *BOut);
  }
  R.Flops = static_cast<double>(NIn);
  R.HasBwd = true;
  R.FlopsBwd = R.Flops;
  R.BytesBwd = R.Bytes;
  R.Params = {{"num_input_elems", PyValue::integer(NIn)},
              {"num_output_elems", PyValue::integer(NOut)},
              {"dtype_in_out", DtypeInOut}};
  // The reference sets reduce_type only on the branch that reads Input
  // Dims (spec §5.9: 0/0/(None, None) without them): no reduce_type param,
  // and no 'param: reduce_type' column from such a row alone.
  if (!Op.InputDims.empty())
    R.Params.push_back({"reduce_type", PyValue::str(ReduceType)});
  return R;
}
