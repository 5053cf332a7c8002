//===- Rendering.cpp - args, kernel names, module and call chains ---------===//
//
// tracelens-analysis §5.2 / §5.4: the text fields of an operations[] record,
// computed from the Python-literal cells of the unified table.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ComputeCore.h"

#include "tl/Support/PyLiteral.h"

#include "llvm/ADT/StringExtras.h"

#include <string_view>

using namespace llvm;

namespace tl::compute {

std::string normalizeDType(StringRef Raw) {
  std::string L = Raw.lower();
  static constexpr std::pair<const char *, const char *> Map[] = {
      {"float", "fp32"},
      {"double", "fp64"},
      {"c10::half", "fp16"},
      {"c10::bfloat16", "bf16"},
      {"c10::float8_e4m3fnuz", "fp8"},
      {"c10::float8_e4m3fn", "fp8"},
      {"unsigned char", "fp8"},
      {"fp8", "fp8"},
      {"fp4", "fp4"},
      {"mxfp4", "fp4"},
      {"c10::float4_e2m1fn_x2", "fp4"}};
  for (auto [K, V] : Map)
    if (L == K)
      return V;
  return Raw.str();
}

std::optional<std::string> renderArgs(StringRef InputDims,
                                      StringRef InputType) {
  if (InputDims.empty() || InputType.empty())
    return std::nullopt;
  Expected<PyValue> Dims = parsePyLiteral(InputDims);
  Expected<PyValue> Types = parsePyLiteral(InputType);
  if (!Dims || !Types) {
    consumeError(Dims.takeError());
    consumeError(Types.takeError());
    return std::nullopt;
  }
  auto IsSeq = [](const PyValue &V) {
    return V.kind() == PyValue::Kind::List || V.kind() == PyValue::Kind::Tuple;
  };
  if (!IsSeq(*Dims) || !IsSeq(*Types))
    return std::nullopt;
  std::vector<std::string> Parts;
  size_t N = std::min(Dims->elems().size(), Types->elems().size());
  for (size_t I = 0; I < N; ++I) {
    const PyValue &D = Dims->elems()[I];
    const PyValue &T = Types->elems()[I];
    std::vector<std::string> Shape;
    if (IsSeq(D))
      for (const PyValue &E : D.elems())
        Shape.push_back(pyStr(E));
    std::string DType =
        T.kind() == PyValue::Kind::Str ? normalizeDType(T.getStr()) : "";
    if (T.isNone())
      DType = "";
    if (Shape.empty() && (DType.empty() || DType == "Scalar"))
      continue;
    // Python str(tuple) without spaces: "(2,3)", "(128,)", "()".
    std::string S = "(" + join(Shape, ",");
    if (Shape.size() == 1)
      S += ",";
    S += ")";
    if (!DType.empty())
      S += " " + DType;
    Parts.push_back(std::move(S));
  }
  if (Parts.empty())
    return std::nullopt;
  return join(Parts, "<br>");
}

namespace {

std::optional<PyValue> parseStackUncached(StringRef CallStack) {
  if (CallStack.empty() || CallStack == "Not found")
    return std::nullopt;
  Expected<PyValue> V = parsePyLiteral(CallStack);
  if (!V) {
    consumeError(V.takeError());
    return std::nullopt;
  }
  if (V->kind() != PyValue::Kind::List && V->kind() != PyValue::Kind::Tuple)
    return std::nullopt;
  return std::move(*V);
}

/// kernelNames, moduleChain and callChain read the same call_stack_full
/// cell one after the other; it is parsed once (stacks can be long).
const std::optional<PyValue> &parseStack(StringRef CallStack) {
  thread_local std::string Key;
  thread_local std::optional<PyValue> Value;
  thread_local bool Valid = false;
  if (!Valid || Key != CallStack) {
    Value = parseStackUncached(CallStack);
    Key = CallStack.str();
    Valid = true;
  }
  return Value;
}

std::string trunc75(const std::string &S) {
  // Python slices code points; kernel names are ASCII in practice, but cut
  // on a UTF-8 boundary anyway.
  size_t CodePoints = 0, Cut = S.size();
  for (size_t I = 0; I < S.size(); ++I) {
    if ((static_cast<unsigned char>(S[I]) & 0xC0) == 0x80)
      continue;
    if (CodePoints == 75) {
      Cut = I;
      break;
    }
    ++CodePoints;
  }
  if (Cut >= S.size())
    return S;
  return S.substr(0, Cut) + "...";
}

} // namespace

std::pair<std::string, std::string> kernelNames(StringRef CallStack) {
  const std::optional<PyValue> &V = parseStack(CallStack);
  if (!V || V->elems().empty())
    return {"", ""};
  std::vector<std::string> Kernels;
  bool HasSub = false;
  for (const PyValue &E : V->elems())
    if (E.kind() == PyValue::Kind::List || E.kind() == PyValue::Kind::Tuple) {
      HasSub = true;
      if (!E.elems().empty() && E.elems().back().kind() == PyValue::Kind::Str)
        Kernels.push_back(E.elems().back().getStr());
    }
  if (!HasSub) {
    const PyValue &Last = V->elems().back();
    if (Last.kind() == PyValue::Kind::Str)
      Kernels.push_back(Last.getStr());
  }
  if (Kernels.empty())
    return {"", ""};
  if (Kernels.size() == 1)
    return {Kernels[0], trunc75(Kernels[0])};
  std::string Full, Trunc;
  for (size_t I = 0; I < Kernels.size(); ++I) {
    std::string Prefix = (I ? "<br>" : "") + ("Kernel " + Twine(I + 1) + ": ").str();
    Full += Prefix + Kernels[I];
    Trunc += Prefix + trunc75(Kernels[I]);
  }
  return {Full, Trunc};
}

std::vector<std::string> moduleChain(StringRef CallStack) {
  std::vector<std::string> Out;
  const std::optional<PyValue> &V = parseStack(CallStack);
  if (!V)
    return Out;
  for (const PyValue &E : V->elems())
    if (E.kind() == PyValue::Kind::Str &&
        StringRef(E.getStr()).starts_with("nn.Module: "))
      Out.push_back(E.getStr().substr(strlen("nn.Module: ")));
  return Out;
}

std::vector<std::string> callChain(StringRef CallStack) {
  static constexpr const char *Skip[] = {
      "torch/nn/modules/module.py",  "torch/utils/_device.py",
      "torch/overrides.py",          "torch/_ops.py",
      "multiprocessing/spawn.py",    "torch/_dynamo/eval_frame.py",
      "torch/_functorch/",           "torch/autograd/function.py",
      "torch/_inductor/",            "torch/cuda/graphs.py",
      "torch/utils/_contextlib.py"};
  std::vector<std::string> Out;
  const std::optional<PyValue> &V = parseStack(CallStack);
  if (!V)
    return Out;
  for (const PyValue &E : V->elems()) {
    if (E.kind() != PyValue::Kind::Str)
      continue;
    StringRef F = E.getStr();
    // (std::string_view::find: StringRef::find sets up a skip table per
    // call, and every op's stack has a dozen frames.)
    std::string_view FV(F.data(), F.size());
    if (llvm::any_of(Skip, [&](const char *S) {
          return FV.find(S) != std::string_view::npos;
        }))
      continue;
    if (F.starts_with("nn.Module:") || F.contains(".py") || F.contains("::"))
      Out.push_back(F.str());
  }
  return Out;
}

std::string launcherPath(StringRef EntryPoint, ArrayRef<std::string> Chain,
                         StringRef Library) {
  if (!EntryPoint.empty() && EntryPoint != "Not found" &&
      EntryPoint != "nan")
    return EntryPoint.str();
  if (!Chain.empty())
    return join(Chain.take_front(3), " > ");
  if (!Library.empty())
    return (Library + " (vendor)").str();
  return "Not found";
}

} // namespace tl::compute

namespace tl::compute {

bool containsAnyCI(StringRef Text, ArrayRef<const char *> Needles) {
  std::string L = Text.lower();
  return llvm::any_of(Needles,
                      [&](const char *N) { return StringRef(L).contains(N); });
}

std::optional<std::vector<std::pair<std::string, PyValue>>>
parsePyDict(StringRef Text) {
  Text = Text.trim();
  if (!Text.consume_front("{") || !Text.consume_back("}"))
    return std::nullopt;
  // Split at top-level commas, then each item at its first top-level colon.
  std::vector<std::pair<std::string, PyValue>> Out;
  auto SplitTop = [](StringRef S, char Sep, bool First) {
    std::vector<StringRef> Parts;
    int Depth = 0;
    char Quote = 0;
    size_t Start = 0;
    for (size_t I = 0; I < S.size(); ++I) {
      char C = S[I];
      if (Quote) {
        if (C == '\\')
          ++I;
        else if (C == Quote)
          Quote = 0;
        continue;
      }
      if (C == '\'' || C == '"')
        Quote = C;
      else if (C == '(' || C == '[' || C == '{')
        ++Depth;
      else if (C == ')' || C == ']' || C == '}')
        --Depth;
      else if (C == Sep && Depth == 0) {
        Parts.push_back(S.slice(Start, I));
        Start = I + 1;
        if (First)
          break;
      }
    }
    Parts.push_back(S.substr(Start));
    return Parts;
  };
  if (Text.trim().empty())
    return Out;
  for (StringRef Item : SplitTop(Text, ',', false)) {
    if (Item.trim().empty())
      continue;
    std::vector<StringRef> KV = SplitTop(Item, ':', true);
    if (KV.size() != 2)
      return std::nullopt;
    Expected<PyValue> K = parsePyLiteral(KV[0].trim());
    Expected<PyValue> V = parsePyLiteral(KV[1].trim());
    if (!K || !V || K->kind() != PyValue::Kind::Str) {
      if (!K)
        consumeError(K.takeError());
      if (!V)
        consumeError(V.takeError());
      return std::nullopt;
    }
    Out.push_back({K->getStr(), std::move(*V)});
  }
  return Out;
}

} // namespace tl::compute
