//===- Conv.cpp - convolution perf models (spec §5.5) ---------------------===//
//
// Replicated reference quirks:
//  * aten::convolution: bias = (len(Input Dims) == 3), so it is False for the
//    9-input op even when a bias tensor is passed (§5.5; seen in the h100
//    Falconsai CONV_fwd sheet).
//  * aten::convolution_backward: param bias is the Python value of
//    `len(Dims)>3 and Dims[3] and len(Dims[3])>0`, i.e. [] when empty
//    (quirk 5).
//  * bytes_bwd adds the bias gradient as an element count, not bytes
//    (quirk 9).
//  * output spatial size = int(true division) (§5.5).
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

using namespace tl;
using namespace tl::pm;

namespace {
struct ConvParams {
  Shape X, W;
  bool Transposed = false;
  Shape Stride, Padding, Dilation, OutputPadding;
  int64_t Groups = 1;
};
} // namespace

static Shape convOutput(const ConvParams &P) {
  size_t ND = P.X.size() - 2;
  Shape Out = {P.X[0], P.Transposed ? P.W[1] : P.W[0]};
  for (size_t I = 0; I < ND; ++I) {
    int64_t In = P.X[I + 2], K = P.W[I + 2];
    if (P.Transposed) {
      Out.push_back((In - 1) * P.Stride[I] - 2 * P.Padding[I] +
                    P.Dilation[I] * (K - 1) + P.OutputPadding[I] + 1);
    } else {
      double V = static_cast<double>(In + 2 * P.Padding[I] -
                                     P.Dilation[I] * (K - 1) - 1) /
                     static_cast<double>(P.Stride[I]) +
                 1;
      Out.push_back(static_cast<int64_t>(V)); // int() truncates toward zero
    }
  }
  return Out;
}

static int64_t prodFrom1(const Shape &S) {
  int64_t P = 1;
  for (size_t I = 1; I < S.size(); ++I)
    P *= S[I];
  return P;
}

static int64_t convFlops(const Shape &X, const Shape &W, const Shape &Out,
                         bool Bias, bool Transposed) {
  int64_t F = (Transposed ? prod(X) : prod(Out)) * 2 * prodFrom1(W);
  return F + (Bias ? prod(Out) : 0);
}

static Shape swap01(const Shape &S) {
  Shape T = S;
  if (T.size() >= 2)
    std::swap(T[0], T[1]);
  return T;
}

/// A literal list argument: "" gives Default repeated, a single value is
/// repeated ND times.
static llvm::Expected<Shape> listArg(const std::string &S, size_t ND,
                                     int64_t Default) {
  if (llvm::StringRef(S).trim().empty())
    return Shape(ND, Default);
  auto L = parseIntList(S);
  if (!L)
    return L.takeError();
  if (L->size() == 1)
    return Shape(ND, (*L)[0]);
  if (L->size() != ND)
    return err("conv list argument '" + S + "' does not match the rank");
  return *L;
}

llvm::Expected<PerfModelResult> pm::buildConv(const OpDesc &Op) {
  llvm::StringRef Name = Op.Name;
  bool IsBwd = Name == "aten::convolution_backward";
  bool IsFusedBias = Name == "ConvBias_" || Name == "ConvBiasReLU_";
  if (!IsBwd && !IsFusedBias && Name != "aten::convolution")
    return err("no convolution model for '" + Name + "'");
  size_t XI = IsBwd ? 1 : 0, WI = XI + 1;
  ConvParams P;
  auto X = shapeAt(Op, XI);
  if (!X)
    return X.takeError();
  auto W = shapeAt(Op, WI);
  if (!W)
    return W.takeError();
  P.X = *X;
  P.W = *W;
  if (P.X.size() < 3 || P.X.size() > 5 || P.W.size() != P.X.size())
    return err(Name + ": unsupported input rank");
  size_t ND = P.X.size() - 2;

  PyValue BiasParam;
  if (IsBwd) {
    // `len(Dims) > 3 and Dims[3] and len(Dims[3]) > 0`
    if (Op.InputDims.size() <= 3)
      BiasParam = PyValue::boolean(false);
    else if (!Op.InputDims[3].truthy())
      BiasParam = PyValue::list({}); // the raw JSON value: always a list
    else
      BiasParam = PyValue::boolean(true);
  } else if (IsFusedBias) {
    BiasParam = PyValue::boolean(true);
  } else {
    BiasParam = PyValue::boolean(Op.InputDims.size() == 3);
  }
  bool Bias = BiasParam.truthy();

  auto TX = typeAt(Op, XI);
  if (!TX)
    return TX.takeError();
  auto TW = typeAt(Op, WI);
  if (!TW)
    return TW.takeError();
  if (!IsBwd && *TX != *TW)
    return err(Name + ": input and weight dtypes differ");

  if (IsFusedBias) {
    auto S = concreteAt(Op, 3), Pd = concreteAt(Op, 4);
    if (!S)
      return S.takeError();
    if (!Pd)
      return Pd.takeError();
    auto SV = parsePyInt(*S), PV = parsePyInt(*Pd);
    if (!SV || !PV)
      return err(Name + ": stride/padding are not integers");
    P.Stride = Shape(ND, *SV);
    P.Padding = Shape(ND, *PV);
    P.Dilation = Shape(ND, 1);
    P.OutputPadding = Shape(ND, 0);
  } else {
    size_t Base = IsBwd ? 4 : 3;
    std::string C[6];
    for (size_t I = 0; I < 6; ++I) {
      auto V = concreteAt(Op, Base + I);
      if (!V)
        return V.takeError();
      C[I] = *V;
    }
    auto S = listArg(C[0], ND, 1);
    if (!S)
      return S.takeError();
    auto Pd = listArg(C[1], ND, 0);
    if (!Pd)
      return Pd.takeError();
    auto D = listArg(C[2], ND, 1);
    if (!D)
      return D.takeError();
    auto T = parsePyLiteral(C[3]);
    if (!T)
      return T.takeError();
    auto OP = listArg(C[4], ND, 0);
    if (!OP)
      return OP.takeError();
    auto G = parsePyInt(C[5]);
    if (!G)
      return err(Name + ": groups '" + C[5] + "' is not an integer");
    P.Stride = *S;
    P.Padding = *Pd;
    P.Dilation = *D;
    P.Transposed = T->truthy();
    P.OutputPadding = *OP;
    P.Groups = *G;
  }
  for (int64_t S : P.Stride)
    if (S == 0)
      return err(Name + ": zero stride");

  Shape Out = convOutput(P);
  auto Bpe = bpe(*TX);

  int64_t Flops = convFlops(P.X, P.W, Out, Bias, P.Transposed);
  std::optional<double> Bytes;
  if (Bpe)
    Bytes = static_cast<double>(
        (prod(P.X) + prod(P.W) + (Bias ? Out[1] : 0) + prod(Out)) * *Bpe);
  // Backward: dX (out as input, flipped transposition, no bias) + dW on the
  // channel-swapped shapes + prod(out) if bias.
  int64_t DX = convFlops(Out, P.W, P.X, false, !P.Transposed);
  int64_t DW = P.Transposed
                   ? convFlops(swap01(Out), swap01(P.X), swap01(P.W), false, false)
                   : convFlops(swap01(P.X), swap01(Out), swap01(P.W), false, false);
  int64_t FlopsBwd = DX + DW + (Bias ? prod(Out) : 0);
  std::optional<double> BytesBwd;
  if (Bpe) {
    int64_t B1 = (prod(Out) + prod(P.W) + prod(P.X)) * *Bpe;
    int64_t B2 = (prod(Out) + prod(P.X) + prod(P.W)) * *Bpe;
    BytesBwd = static_cast<double>(B1 + B2 + (Bias ? prod(Out) + Out[1] : 0));
  }

  PerfModelResult R;
  R.ModelClass = IsBwd ? "aten_conv_bwd" : IsFusedBias ? "conv_bias" : "aten_conv";
  R.Category = IsBwd ? "CONV_bwd" : "CONV_fwd";
  R.ComputeSpec = computeSpec("matrix", *TX);
  if (IsBwd) {
    R.Flops = static_cast<double>(FlopsBwd);
    R.Bytes = BytesBwd;
  } else {
    R.Flops = static_cast<double>(Flops);
    R.Bytes = Bytes;
  }
  R.HasBwd = !IsFusedBias;
  R.FlopsBwd = static_cast<double>(FlopsBwd);
  R.BytesBwd = BytesBwd;

  static const char *const NdNames[] = {"conv1d", "conv2d", "conv3d"};
  R.Params = {
      {"convNd", PyValue::str(NdNames[ND - 1])},
      {"input_shape", shapeValue(P.X)},
      {"filter_shape", shapeValue(P.W)},
      {"dtype_input_weight",
       PyValue::tuple({PyValue::str(*TX), PyValue::str(*TW)})},
      {"input_stride", strideAt(Op, XI)},
      {"weight_stride", strideAt(Op, WI)},
      {"bias", BiasParam},
      {"stride", shapeValue(P.Stride)},
      {"padding", shapeValue(P.Padding)},
      {"dilation", shapeValue(P.Dilation)},
      {"transposed_conv", PyValue::boolean(P.Transposed)},
      {"output_padding", shapeValue(P.OutputPadding)},
      {"groups", PyValue::integer(P.Groups)},
  };
  return R;
}
