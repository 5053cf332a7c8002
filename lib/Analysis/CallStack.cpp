//===- CallStack.cpp - Python call stacks of ops and kernels --------------===//
//
// The rules below were read off the agent references (unified_perf_summary
// with --include_call_stack, all ten shared traces): see the header.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/CallStack.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tl;

/// re.sub(r'_\d+', '', N): every `_` followed by digits goes, also inside a
/// name ("_prepare_4d_attention_mask" -> "_prepared_attention_mask").
static std::string stripIndices(llvm::StringRef N) {
  std::string Out;
  Out.reserve(N.size());
  for (size_t I = 0; I < N.size();) {
    if (N[I] == '_' && I + 1 < N.size() && llvm::isDigit(N[I + 1])) {
      I += 2;
      while (I < N.size() && llvm::isDigit(N[I]))
        ++I;
      continue;
    }
    Out += N[I++];
  }
  return Out;
}

bool tl::isStackPythonFrame(llvm::StringRef Name) {
  return Name.starts_with("nn.Module:") || Name.contains('/');
}

std::vector<std::string> tl::hostFrames(const Trace &T, EventId E) {
  std::vector<std::string> Out;
  for (EventId X = E; X != NoEvent; X = T.parent(X)) {
    EventKind K = T.kind(X);
    if (K == EventKind::CpuOp ||
        (K == EventKind::PythonFunction && isStackPythonFrame(T.name(X))))
      Out.push_back(stripIndices(T.name(X)));
  }
  std::reverse(Out.begin(), Out.end());
  return Out;
}

static std::string listText(llvm::ArrayRef<std::string> Items) {
  std::string S = "[";
  for (size_t I = 0; I < Items.size(); ++I) {
    if (I)
      S += ", ";
    S += pyReprString(Items[I]);
  }
  return S + "]";
}

std::string tl::kernelOnlyStack(const Trace &T, EventId Kernel) {
  return listText({T.name(Kernel).str()});
}

std::string tl::callStackFull(const Trace &T, llvm::ArrayRef<EventId> Kernels) {
  if (Kernels.empty())
    return "Not found";
  std::vector<std::vector<std::string>> Paths;
  for (EventId K : Kernels) {
    std::vector<std::string> P = hostFrames(T, T.parent(K));
    P.push_back(T.name(K).str());
    if (std::find(Paths.begin(), Paths.end(), P) == Paths.end())
      Paths.push_back(std::move(P));
  }
  if (Paths.size() == 1)
    return listText(Paths.front());
  size_t Common = Paths.front().size();
  for (const auto &P : Paths) {
    size_t I = 0;
    while (I < Common && I < P.size() && P[I] == Paths.front()[I])
      ++I;
    Common = I;
  }
  std::string S = "[";
  bool First = true;
  for (size_t I = 0; I < Common; ++I, First = false)
    S += (First ? "" : ", ") + pyReprString(Paths.front()[I]);
  std::vector<std::vector<std::string>> Tails;
  for (const auto &P : Paths) {
    std::vector<std::string> Tail(P.begin() + Common, P.end());
    if (std::find(Tails.begin(), Tails.end(), Tail) == Tails.end())
      Tails.push_back(std::move(Tail));
  }
  for (const auto &Tail : Tails) {
    S += First ? "" : ", ";
    First = false;
    S += listText(Tail);
  }
  return S + "]";
}

bool tl::isDispatchFrame(llvm::StringRef Frame) {
  // The call_chain skip fragments (tracelens-analysis §5.2) plus the torch
  // dispatch layers the references step over.
  static const char *const Skip[] = {
      "torch/nn/modules/module.py", "torch/utils/_device.py",
      "torch/overrides.py",         "torch/_ops.py",
      "multiprocessing/spawn.py",   "torch/_dynamo/eval_frame.py",
      "torch/_functorch/",          "torch/autograd/function.py",
      "torch/_inductor/",           "torch/cuda/graphs.py",
      "torch/utils/_contextlib.py", "torch/_tensor.py",
      "torch/functional.py",        "__torch_function__"};
  for (const char *F : Skip)
    if (Frame.contains(F))
      return true;
  return false;
}

/// Function part of a `file.py(line): func` frame.
static llvm::StringRef frameFunction(llvm::StringRef Frame) {
  size_t P = Frame.find("): ");
  return P == llvm::StringRef::npos ? llvm::StringRef() : Frame.drop_front(P + 3);
}

std::string tl::entryPoint(const Trace &T, EventId E, EventId FirstKernel) {
  // An op implemented in python (vllm::moe_forward -> layer.py(2074):
  // moe_forward) is entered at the frame named like the op, below it.
  llvm::StringRef Op = T.name(E);
  size_t Sep = Op.rfind("::");
  if (FirstKernel != NoEvent && Sep != llvm::StringRef::npos) {
    llvm::StringRef Fn = Op.drop_front(Sep + 2);
    std::string Found;
    for (EventId X = T.parent(FirstKernel); X != NoEvent && X != E;
         X = T.parent(X))
      if (T.kind(X) == EventKind::PythonFunction &&
          T.name(X).contains(".py(") && frameFunction(T.name(X)) == Fn)
        Found = T.name(X).str(); // keep the outermost
    if (!Found.empty())
      return stripIndices(Found);
  }
  for (EventId X = T.parent(E); X != NoEvent; X = T.parent(X)) {
    if (T.kind(X) != EventKind::PythonFunction)
      continue;
    llvm::StringRef N = T.name(X);
    if (N.contains(".py(") && isStackPythonFrame(N) && !isDispatchFrame(N))
      return stripIndices(N);
  }
  return "Not found";
}
