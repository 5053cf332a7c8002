//===- Activation.cpp - gated activations and sampling (inference §D.6) ---===//
//
// `*_and_mul(out, x)`: x holds gate and up halves (2n values), out n:
// act(gate)·up costs 5 (silu), 8 (gelu) or 10 (gelu tanh) FLOPs a value.
// `aiter::mixed_sample_outer_exponential`: exponential-race sampling over
// (tokens, vocab) logits with an fp32 noise tensor.
//
//===----------------------------------------------------------------------===//
#include "ModelUtil.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tl;
using namespace tl::pm;

static llvm::Expected<PerfModelResult> andMul(const OpDesc &Op,
                                              int FlopsPerElem) {
  auto Out = shapeAt(Op, 0);
  if (!Out)
    return Out.takeError();
  auto T0 = typeAt(Op, 0);
  if (!T0)
    return T0.takeError();
  auto T1 = typeAt(Op, 1);
  if (!T1)
    return T1.takeError();
  int64_t N = prod(*Out);
  PerfModelResult R;
  R.ModelClass = "act_and_mul";
  R.Category = "elementwise";
  R.Flops = 1.0 * FlopsPerElem * N;
  auto BIn = bpe(*T1), BOut = bpe(*T0);
  if (BIn && BOut)
    R.Bytes = 2.0 * N * *BIn + 1.0 * N * *BOut;
  R.ComputeSpec = computeSpec("vector", *T1);
  R.Params = {{"op_shape", shapeValue(*Out)},
              {"dtype_in_out",
               PyValue::tuple({PyValue::str(*T1), PyValue::str(*T0)})},
              {"stride_input", strideAt(Op, 1)},
              {"stride_output", strideAt(Op, 0)}};
  return R;
}

static llvm::Expected<PerfModelResult> mixedSample(const OpDesc &Op) {
  int64_t T = 1, V = 1;
  if (auto S = shapeIfNonEmpty(Op, 1)) {
    if (!S->empty())
      T = (*S)[0];
    if (S->size() > 1)
      V = (*S)[1];
  }
  std::string TL = typeOr(Op, 1, "c10::BFloat16");
  std::string TN = typeOr(Op, 2, "float");
  PerfModelResult R;
  R.ModelClass = "mixed_sample_outer_exponential";
  R.Category = "elementwise";
  R.Flops = 2.0 * T * V;
  auto BL = bpe(TL), BN = bpe(TN);
  if (BL && BN)
    R.Bytes = 1.0 * T * V * *BL + 1.0 * T * V * *BN + 4.0 * T;
  R.ComputeSpec = computeSpec("vector", TL);
  R.Params = {{"T", PyValue::integer(T)},
              {"V", PyValue::integer(V)},
              {"dtype_logits", PyValue::str(TL)},
              {"dtype_noise", PyValue::str(TN)}};
  return R;
}

llvm::Expected<PerfModelResult> pm::buildActivation(const OpDesc &Op) {
  int F = llvm::StringSwitch<int>(Op.Name)
              .Cases("aiter::silu_and_mul", "_C::silu_and_mul",
                     "sgl_kernel::silu_and_mul", 5)
              .Case("aiter::gelu_and_mul", 8)
              .Case("aiter::gelu_tanh_and_mul", 10)
              .Default(0);
  if (F)
    return andMul(Op, F);
  if (Op.Name == "aiter::mixed_sample_outer_exponential")
    return mixedSample(Op);
  return err("no activation model for '" + Op.Name + "'");
}
