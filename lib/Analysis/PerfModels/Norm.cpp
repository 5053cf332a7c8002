//===- Norm.cpp - normalization perf models (spec §5.8) -------------------===//
//
// Replicated reference quirks (quirk 7):
//  * BatchNorm/InstanceNorm is_training = bool(Concrete string): any
//    non-empty string is true, "False" included.
//  * is_affine / has_bias test `Dims[i] is not None`; absent tensors are []
//    in traces, so they come out True.
//  * the default output_mask is the string "[False]", whose first character
//    is truthy.
//  * GroupNormBwd num_channels = op_shape[1] / groups is a float.
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

using namespace tl;
using namespace tl::pm;

namespace {
enum class NormKind { Batch, Layer, Group, Instance, Rms };

struct NormParams {
  Shape OpShape;
  std::string Dtype;
  PyValue StrideIn;
  PyValue NumChannels; // int, or float for GroupNormBwd
  bool HasBias = true, IsAffine = true, IsTraining = true;
  /// output_mask as the Python value (list of bools or the default string).
  PyValue Mask = PyValue::str("[False]");
  bool MaskGiven = false;
};
} // namespace

/// Python `m[i]` truthiness for a list or a string mask.
static bool maskAt(const PyValue &M, size_t I) {
  if (M.kind() == PyValue::Kind::Str)
    return I < M.getStr().size(); // every character is truthy
  if (I < M.elems().size())
    return M.elems()[I].truthy();
  return false;
}

static double channels(const NormParams &P) { return P.NumChannels.asDouble(); }

/// Generic forward FLOPs/bytes (Batch/Layer/Group/Instance).
static void genericFwd(const NormParams &P, int64_t Bpe, bool BpeKnown,
                       PerfModelResult &R) {
  int64_t N = prod(P.OpShape);
  double C = channels(P);
  // flops = 3c + (3n if training) + 3c + 2n
  R.Flops = 3 * C + (P.IsTraining ? 3.0 * N : 0) + 3 * C + 2.0 * N;
  if (P.NumChannels.kind() == PyValue::Kind::Int) {
    int64_t CI = P.NumChannels.getInt();
    R.Flops = static_cast<double>(3 * CI + (P.IsTraining ? 3 * N : 0) +
                                  3 * CI + 2 * N);
  }
  if (!BpeKnown)
    return;
  int64_t W = 2 + (P.IsAffine ? 1 : 0) + (P.IsAffine && P.HasBias ? 1 : 0) +
              (P.IsTraining ? 2 : 0);
  if (P.NumChannels.kind() == PyValue::Kind::Int)
    R.Bytes = static_cast<double>(N * Bpe + N * Bpe +
                                  W * P.NumChannels.getInt() * Bpe);
  else
    R.Bytes = static_cast<double>(N * Bpe + N * Bpe) +
              static_cast<double>(W) * C * static_cast<double>(Bpe);
}

/// Generic backward FLOPs/bytes; evaluated in Python's order (n/c is float).
static void genericBwd(const NormParams &P, int64_t Bpe, bool BpeKnown,
                       double &Flops, std::optional<double> &Bytes) {
  double N = static_cast<double>(prod(P.OpShape));
  double C = channels(P);
  bool M0 = maskAt(P.Mask, 0);
  double NC = N / C;
  double Inner = (!P.IsTraining ? 3 : 0) + 4 * NC +
                 (M0 && P.IsTraining ? 5 * NC : 0) + (!M0 ? 2 * NC : 0);
  // `(3 if ... else 0) + 4*(n/c)`: int + float -> float in Python.
  Flops = C * Inner;
  if (!BpeKnown) {
    Bytes.reset();
    return;
  }
  int64_t NI = prod(P.OpShape);
  if (P.NumChannels.kind() == PyValue::Kind::Int) {
    int64_t CI = P.NumChannels.getInt();
    int64_t B = NI * Bpe + NI * Bpe * (M0 && P.IsTraining ? 2 : 1) +
                (P.IsTraining ? CI * Bpe : 0) + (P.IsAffine ? CI * Bpe : 0) +
                (P.IsAffine && P.IsTraining ? CI * Bpe * (P.HasBias ? 2 : 1) : 0);
    Bytes = static_cast<double>(B);
  } else {
    double B = static_cast<double>(NI * Bpe + NI * Bpe * (M0 && P.IsTraining ? 2 : 1));
    if (P.IsTraining)
      B += C * Bpe;
    if (P.IsAffine)
      B += C * Bpe;
    if (P.IsAffine && P.IsTraining)
      B += C * Bpe * (P.HasBias ? 2 : 1);
    Bytes = B;
  }
}

static llvm::Expected<int64_t> prodOfLiteral(const std::string &S) {
  auto L = parsePyLiteral(S);
  if (!L)
    return L.takeError();
  if (L->kind() == PyValue::Kind::Int)
    return L->getInt();
  int64_t P = 1;
  for (const PyValue &E : L->elems()) {
    if (E.kind() != PyValue::Kind::Int)
      return err("normalized shape '" + S + "' is not a list of ints");
    P *= E.getInt();
  }
  return P;
}

/// prod(literal_eval(Concrete[I])): the normalized-shape argument.
static llvm::Expected<int64_t> prodAt(const OpDesc &Op, size_t I) {
  auto S = concreteAt(Op, I);
  if (!S)
    return S.takeError();
  return prodOfLiteral(*S);
}

/// literal_eval(Concrete[I]): the output_mask argument.
static llvm::Expected<PyValue> literalAt(const OpDesc &Op, size_t I) {
  auto S = concreteAt(Op, I);
  if (!S)
    return S.takeError();
  return parsePyLiteral(*S);
}

static NormKind kindOf(llvm::StringRef Name) {
  if (Name.contains("batch_norm"))
    return NormKind::Batch;
  if (Name.contains("layer_norm") || Name.contains("fused_ln"))
    return NormKind::Layer;
  if (Name.contains("group_norm") || Name.contains("groupnorm"))
    return NormKind::Group;
  if (Name.contains("instance_norm"))
    return NormKind::Instance;
  return NormKind::Rms;
}

llvm::Expected<PerfModelResult> pm::buildNorm(const OpDesc &Op) {
  llvm::StringRef Name = Op.Name;
  bool Bwd = Name.ends_with("_backward");
  NormKind Kind = kindOf(Name);
  if (Name.starts_with("primus::"))
    return err("no normalization model for '" + Name + "'");
  NormParams P;
  size_t ShapeIdx = Bwd ? 1 : 0;
  bool CudnnMiopen = Name.contains("cudnn_") || Name.contains("miopen_");
  if (Bwd && Kind == NormKind::Batch && CudnnMiopen)
    ShapeIdx = 0;
  if (Bwd && Kind == NormKind::Instance)
    return notImpl("InstanceNorm backward");
  auto S = shapeAt(Op, ShapeIdx);
  if (!S)
    return S.takeError();
  P.OpShape = *S;
  auto T = typeAt(Op, ShapeIdx);
  if (!T)
    return T.takeError();
  P.Dtype = *T;
  P.StrideIn = strideAt(Op, ShapeIdx);
  auto need = [&](size_t I) -> llvm::Expected<bool> { return dimsPresent(Op, I); };
  auto opChannels = [&]() -> llvm::Expected<int64_t> {
    if (P.OpShape.size() < 2)
      return err(Name + ": input rank below 2");
    return P.OpShape[1];
  };
  // num_channels (op_shape[1], or prod(Concrete[1]) when ShapeChannels),
  // then is_affine from Dims[2].
  auto channelsAndAffine = [&](bool ShapeChannels) -> llvm::Error {
    auto C = ShapeChannels ? prodAt(Op, 1) : opChannels();
    if (!C)
      return C.takeError();
    P.NumChannels = PyValue::integer(*C);
    auto A = need(2);
    if (!A)
      return A.takeError();
    P.IsAffine = *A;
    return llvm::Error::success();
  };

  if (!Bwd) {
    // Every forward class reads its channels, then is_affine from Dims[2].
    if (auto E =
            channelsAndAffine(Kind == NormKind::Layer || Kind == NormKind::Rms))
      return E;
    switch (Kind) {
    case NormKind::Batch:
    case NormKind::Instance: {
      P.HasBias = true;
      auto Tr = concreteAt(Op, 5);
      if (!Tr)
        return Tr.takeError();
      P.IsTraining = !Tr->empty(); // bool(str): "False" is truthy
      break;
    }
    case NormKind::Layer: {
      auto B = need(3);
      if (!B)
        return B.takeError();
      P.HasBias = *B;
      P.IsTraining = true;
      break;
    }
    case NormKind::Group:
      P.HasBias = true;
      P.IsTraining = true;
      break;
    case NormKind::Rms:
      P.HasBias = false;
      P.IsTraining = false;
      break;
    }
  } else {
    switch (Kind) {
    case NormKind::Batch: {
      if (auto E = channelsAndAffine(/*ShapeChannels=*/false))
        return E;
      P.HasBias = true;
      if (CudnnMiopen) {
        P.IsTraining = false;
        P.Mask = PyValue::list({PyValue::boolean(true)});
      } else {
        auto Tr = concreteAt(Op, 7);
        if (!Tr)
          return Tr.takeError();
        P.IsTraining = !Tr->empty();
        auto M = need(0);
        if (!M)
          return M.takeError();
        P.Mask = PyValue::list({PyValue::boolean(*M)});
      }
      P.MaskGiven = true;
      break;
    }
    case NormKind::Layer:
    case NormKind::Rms: {
      bool Rms = Kind == NormKind::Rms;
      auto C = prodAt(Op, 2);
      if (!C)
        return C.takeError();
      P.NumChannels = PyValue::integer(*C);
      auto M = literalAt(Op, Rms ? 5 : 7);
      if (!M)
        return M.takeError();
      P.Mask = *M;
      P.MaskGiven = true;
      if (Rms) {
        auto A = need(4);
        if (!A)
          return A.takeError();
        P.IsAffine = *A;
        P.HasBias = false;
        P.IsTraining = false;
      } else {
        P.IsAffine = maskAt(P.Mask, 1);
        P.HasBias = maskAt(P.Mask, 2);
        P.IsTraining = true;
      }
      break;
    }
    case NormKind::Group: {
      auto G = concreteAt(Op, 8);
      if (!G)
        return G.takeError();
      auto GI = parsePyInt(*G);
      if (!GI || *GI == 0)
        return err(Name + ": groups '" + *G + "' is not a positive integer");
      auto C = opChannels();
      if (!C)
        return C.takeError();
      P.NumChannels = PyValue::real(static_cast<double>(*C) /
                                    static_cast<double>(*GI));
      auto A = need(5);
      if (!A)
        return A.takeError();
      P.IsAffine = *A;
      P.HasBias = true;
      P.IsTraining = true;
      auto M = literalAt(Op, 9);
      if (!M)
        return M.takeError();
      P.Mask = *M;
      P.MaskGiven = true;
      break;
    }
    case NormKind::Instance:
      break; // handled above
    }
  }

  auto BpeOpt = bpe(P.Dtype);
  int64_t Bpe = BpeOpt.value_or(0);
  PerfModelResult R;
  R.ModelClass = "normalization";
  R.Category = Bwd ? "NORM_bwd" : "NORM_fwd";
  R.ComputeSpec = computeSpec("vector", P.Dtype);
  int64_t N = prod(P.OpShape);
  if (Kind == NormKind::Rms && !Bwd) {
    int64_t C = P.NumChannels.getInt();
    if (C == 0)
      return err(Name + ": zero channels");
    // (n/c)·(2c+2) + n·(2 if affine else 1)
    R.Flops = (static_cast<double>(N) / static_cast<double>(C)) *
                  static_cast<double>(2 * C + 2) +
              static_cast<double>(N * (P.IsAffine ? 2 : 1));
    if (BpeOpt)
      R.Bytes = static_cast<double>(2 * N * Bpe + (P.IsAffine ? C * Bpe : 0));
    R.HasBwd = false;
  } else if (Kind == NormKind::Rms && Bwd) {
    int64_t C = P.NumChannels.getInt();
    if (C == 0)
      return err(Name + ": zero channels");
    bool M0 = maskAt(P.Mask, 0), M1 = maskAt(P.Mask, 1);
    bool NcAboveOne = static_cast<double>(N) / static_cast<double>(C) > 1;
    int64_t F = (P.IsAffine ? N : 0) + N + (M0 ? 6 * N : 0) +
                (M1 && P.IsAffine ? N + (NcAboveOne ? N : 0) : 0);
    R.Flops = static_cast<double>(F);
    if (BpeOpt)
      R.Bytes = static_cast<double>(N * Bpe + 2 * N * Bpe +
                                    (P.IsAffine ? 2 * C * Bpe : 0));
    R.HasBwd = true;
    R.FlopsBwd = R.Flops;
    R.BytesBwd = R.Bytes;
  } else if (!Bwd) {
    if (channels(P) == 0)
      return err(Name + ": zero channels");
    genericFwd(P, Bpe, BpeOpt.has_value(), R);
    // Forward Batch/Layer classes raise for backward.
    R.HasBwd = Kind == NormKind::Group || Kind == NormKind::Instance;
    if (R.HasBwd)
      genericBwd(P, Bpe, BpeOpt.has_value(), R.FlopsBwd, R.BytesBwd);
  } else {
    if (channels(P) == 0)
      return err(Name + ": zero channels");
    genericBwd(P, Bpe, BpeOpt.has_value(), R.Flops, R.Bytes);
    R.HasBwd = true;
    R.FlopsBwd = R.Flops;
    R.BytesBwd = R.Bytes;
  }

  R.Params = {{"op_shape", shapeValue(P.OpShape)},
              {"dtype_in_out", PyValue::tuple({PyValue::str(P.Dtype), PyValue::none()})},
              {"stride_input", P.StrideIn},
              {"stride_output", PyValue::none()},
              {"num_channels", P.NumChannels},
              {"has_bias", PyValue::boolean(P.HasBias)},
              {"is_affine", PyValue::boolean(P.IsAffine)},
              {"is_training", PyValue::boolean(P.IsTraining)}};
  if (P.MaskGiven)
    R.Params.push_back({"output_mask", P.Mask});
  return R;
}
