//===- RmsNorm.cpp - AITER / vLLM RMSNorm models (inference §D.3) ---------===//
//
// Core RMSNorm (n = prod(op_shape), c = num_channels, always affine):
//   flops = (n/c)·(2c + 2) + 2n      (a float: n/c is a true division)
//   bytes = 2n·bpe + c·bpe           (read x, write y, read the weight)
// The fused variants add the residual add and/or an output quantisation,
// each with the extra traffic its formula in the spec lists.
//
// Replicated reference quirks:
//  * `dtype_in_out` is (dtype_in, None) and `stride_output` None for every
//    variant, even those that write a second (quantised) output.
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace tl;
using namespace tl::pm;

namespace {
enum class Variant {
  Plain,          // rms_norm, rmsnorm2d_fwd_ck (x = D0), rmsnorm (x = D1)
  Add,            // residual add in place
  DynQuant,       // + per-row dynamic quant
  GroupQuant,     // + per-group quant (group size from Concrete Inputs)
  AddGroupQuant,  // residual add + per-group quant
  AddPad,         // residual add, output padded to a multiple
  Fp4Quant,       // mxfp4 quant, optional second input and residual
};

struct Recipe {
  Variant V;
  unsigned X;       // Input Dims / type / stride index of x
  unsigned C;       // Input Dims index whose [0] is num_channels
  int GroupArg;     // Concrete Inputs index of the group size / pad (-1)
};

std::optional<Recipe> recipeOf(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Recipe>>(Name)
      .Cases("aiter::rms_norm", "aiter::rmsnorm2d_fwd_ck",
             Recipe{Variant::Plain, 0, 1, -1})
      .Case("aiter::rmsnorm", Recipe{Variant::Plain, 1, 2, -1})
      .Cases("aiter::rmsnorm2d_fwd_with_add_ck", "aiter::add_rmsnorm",
             Recipe{Variant::Add, 1, 4, -1})
      .Case("aiter::rmsnorm2d_fwd_with_dynamicquant_ck",
            Recipe{Variant::DynQuant, 1, 3, -1})
      .Case("aiter::rmsnorm_quant", Recipe{Variant::GroupQuant, 1, 3, 5})
      .Case("vllm::rocm_aiter_rmsnorm_fp8_group_quant",
            Recipe{Variant::GroupQuant, 0, 1, 3})
      .Case("vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
            Recipe{Variant::AddGroupQuant, 0, 2, 4})
      .Cases("vllm::rocm_aiter_triton_add_rmsnorm_pad",
             "aiter::fused_add_rmsnorm_pad_", Recipe{Variant::AddPad, 0, 1, 4})
      .Cases("sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant",
             "aiter::_fuse_rmsnorm_fp4_quant",
             Recipe{Variant::Fp4Quant, 0, 1, -1})
      .Default(std::nullopt);
}

/// int(C[I]); `gs = int(C5) if > 0 else c` for rmsnorm_quant (Lenient).
llvm::Expected<int64_t> intArg(const OpDesc &Op, int I) {
  auto C = concreteAt(Op, I);
  if (!C)
    return C.takeError();
  auto V = parsePyInt(*C);
  if (!V)
    return err(Op.Name + ": Concrete Inputs[" + llvm::Twine(I) +
               "] is not an int");
  return *V;
}
} // namespace

llvm::Expected<PerfModelResult> pm::buildRmsNorm(const OpDesc &Op) {
  std::optional<Recipe> Rc = recipeOf(Op.Name);
  if (!Rc)
    return err("no RMSNorm model for '" + Op.Name + "'");
  auto X = shapeAt(Op, Rc->X);
  if (!X)
    return X.takeError();
  auto CS = shapeAt(Op, Rc->C);
  if (!CS)
    return CS.takeError();
  if (CS->empty())
    return err(Op.Name + ": empty weight shape");
  auto T = typeAt(Op, Rc->X);
  if (!T)
    return T.takeError();
  int64_t C = CS->front();
  if (C == 0)
    return err(Op.Name + ": zero channels");
  int64_t N = prod(*X);
  int64_t M = floorDiv(N, C);
  std::optional<int64_t> B = bpe(*T);
  if (!B)
    return err(Op.Name + ": unknown dtype '" + *T + "'");
  double n = N, c = C, b = *B;
  double RmsFlops = (n / c) * (2 * c + 2) + 2 * n;
  double Flops = RmsFlops, Bytes = 2 * n * b + c * b;

  // The group-quant variants write one fp32 scale per group of a row.
  auto groupScales = [&](int64_t Gs) { return 4.0 * M * ceilDiv(C, Gs); };
  switch (Rc->V) {
  case Variant::Plain:
    break;
  case Variant::Add:
    Flops = n + RmsFlops;
    Bytes = 4 * n * b + c * b;
    break;
  case Variant::DynQuant:
    Flops = RmsFlops + 2 * n;
    Bytes = n * b + c * b + n + 4.0 * M;
    break;
  case Variant::GroupQuant:
  case Variant::AddGroupQuant: {
    auto G = intArg(Op, Rc->GroupArg);
    int64_t Gs;
    if (Op.Name == "aiter::rmsnorm_quant") {
      // Lenient: a missing or non-positive group size means one group.
      Gs = G && *G > 0 ? *G : C;
      if (!G)
        llvm::consumeError(G.takeError());
    } else {
      if (!G)
        return G.takeError();
      Gs = *G;
    }
    if (Gs <= 0)
      return err(Op.Name + ": group size must be positive");
    bool WithAdd = Rc->V == Variant::AddGroupQuant;
    Flops = RmsFlops + (WithAdd ? 3 : 2) * n;
    Bytes = (WithAdd ? 3 : 1) * n * b + c * b + n + groupScales(Gs);
    break;
  }
  case Variant::AddPad: {
    auto P = intArg(Op, Rc->GroupArg);
    if (!P)
      return P.takeError();
    int64_t NOut = *P <= 0 ? C : ceilDiv(C, *P) * *P;
    Flops = n + RmsFlops;
    Bytes = 2 * n * b + c * b + 1.0 * M * NOut * b + 1.0 * M * C * b;
    break;
  }
  case Variant::Fp4Quant: {
    bool X2 = Op.InputDims.size() > 3 && shapeIfNonEmpty(Op, 3) &&
              shapeIfNonEmpty(Op, 3)->size() == 2;
    bool Res1 = Op.InputDims.size() > 6 && shapeIfNonEmpty(Op, 6) &&
                shapeIfNonEmpty(Op, 6)->size() == 2;
    int64_t N2 = X2 ? (*shapeIfNonEmpty(Op, 3))[1] : 0;
    Flops = RmsFlops + (Res1 ? 1.0 * M * C : 0) +
            (X2 ? static_cast<double>(static_cast<int64_t>(
                      RmsFlops * M * N2 / std::max<double>(n, 1)))
                : 0) +
            2 * n;
    // fp4 payload (half a byte) and one e8m0 scale per 32 values.
    Bytes = n * b + c * b + 0.5 * n + floorDiv(N, 32) +
            (Res1 ? 2 * n * b : 0) +
            (X2 ? 2.0 * M * N2 * b + N2 * b : 0);
    break;
  }
  }

  PerfModelResult R;
  R.ModelClass = "rmsnorm";
  R.Category = "RMSNorm";
  R.Flops = Flops;
  R.Bytes = Bytes;
  R.ComputeSpec = computeSpec("vector", *T);
  R.Params = {{"op_shape", shapeValue(*X)},
              {"dtype_in_out",
               PyValue::tuple({PyValue::str(*T), PyValue::none()})},
              {"stride_input", strideAt(Op, Rc->X)},
              {"stride_output", PyValue::none()},
              {"num_channels", PyValue::integer(C)},
              {"has_bias", PyValue::boolean(false)},
              {"is_affine", PyValue::boolean(true)},
              {"is_training", PyValue::boolean(false)}};
  return R;
}
