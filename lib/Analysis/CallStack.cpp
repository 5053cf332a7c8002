//===- CallStack.cpp - Python call stacks of ops and kernels --------------===//
//
// The rules below were read off the agent references (unified_perf_summary
// with --include_call_stack, all ten shared traces): see the header.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/CallStack.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

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

/// A host event that is a frame of call_stack_full.
static bool isFrame(const Trace &T, EventId X) {
  EventKind K = T.kind(X);
  return K == EventKind::CpuOp ||
         (K == EventKind::PythonFunction && isStackPythonFrame(T.name(X)));
}

std::vector<std::string> tl::hostFrames(const Trace &T, EventId E) {
  std::vector<std::string> Out;
  for (EventId X = E; X != NoEvent; X = T.parent(X))
    if (isFrame(T, X))
      Out.push_back(stripIndices(T.name(X)));
  std::reverse(Out.begin(), Out.end());
  return Out;
}

std::string tl::kernelOnlyStack(const Trace &T, EventId Kernel) {
  return "[" + pyReprString(T.name(Kernel)) + "]";
}

CallStackBuilder::CallStackBuilder(const Trace &T) : T(T) {
  Nodes.push_back({0, ~0u, 0}); // the empty path
}
CallStackBuilder::~CallStackBuilder() = default;

uint32_t CallStackBuilder::child(uint32_t Parent, llvm::StringRef Frame) {
  auto [NI, NewName] = NameIds.try_emplace(Frame, uint32_t(Names.size()));
  if (NewName)
    Names.push_back(NI->getKey());
  uint32_t Name = NI->second;
  auto [It, New] = Children.try_emplace({Parent, Name}, uint32_t(Nodes.size()));
  if (New)
    Nodes.push_back({Parent, Name, Nodes[Parent].Depth + 1});
  return It->second;
}

uint32_t CallStackBuilder::hostPath(EventId E) {
  // Walk up to the first event whose path is known, then down again.
  std::vector<EventId> Up;
  uint32_t Node = 0;
  for (EventId X = E; X != NoEvent; X = T.parent(X)) {
    auto It = PathOf.find(X);
    if (It != PathOf.end()) {
      Node = It->second;
      break;
    }
    Up.push_back(X);
  }
  for (size_t I = Up.size(); I-- > 0;) {
    EventId X = Up[I];
    if (isFrame(T, X))
      Node = child(Node, stripIndices(T.name(X)));
    PathOf[X] = Node;
  }
  return Node;
}

void CallStackBuilder::appendPath(uint32_t Node, size_t From,
                                  std::vector<llvm::StringRef> &Out) const {
  size_t D = Nodes[Node].Depth;
  size_t Start = Out.size();
  Out.resize(Start + (D > From ? D - From : 0));
  for (; Node && Nodes[Node].Depth > From; Node = Nodes[Node].Parent)
    Out[Start + Nodes[Node].Depth - From - 1] = Names[Nodes[Node].Name];
}

static void appendListText(std::string &S,
                           llvm::ArrayRef<llvm::StringRef> Items) {
  S += '[';
  for (size_t I = 0; I < Items.size(); ++I) {
    if (I)
      S += ", ";
    appendPyReprString(S, Items[I]);
  }
  S += ']';
}

static std::string listText(llvm::ArrayRef<llvm::StringRef> Items) {
  std::string S;
  appendListText(S, Items);
  return S;
}

std::string CallStackBuilder::callStackFull(llvm::ArrayRef<EventId> Kernels) {
  if (Kernels.empty())
    return "Not found";
  // Paths are nodes of a trie of frame names (equal texts, equal node), so
  // distinct paths and the common prefix cost O(1) per kernel.
  std::vector<uint32_t> KNode;
  KNode.reserve(Kernels.size());
  for (EventId K : Kernels)
    KNode.push_back(child(hostPath(T.parent(K)), T.name(K)));
  // Common prefix: the depth of the trie LCA of all paths. Nodes on the
  // first path's chain are marked; each other path walks up to a marked
  // node (or one already walked, which points to where it met the chain).
  uint32_t First = KNode.front();
  llvm::DenseMap<uint32_t, uint32_t> Meet; // node -> chain node reached
  for (uint32_t N = First;; N = Nodes[N].Parent) {
    Meet[N] = N;
    if (!N)
      break;
  }
  uint32_t Common = Nodes[First].Depth;
  llvm::DenseSet<uint32_t> Distinct;
  for (uint32_t N : KNode) {
    if (!Distinct.insert(N).second)
      continue;
    std::vector<uint32_t> Walk;
    uint32_t X = N;
    auto It = Meet.find(X);
    while (It == Meet.end()) {
      Walk.push_back(X);
      X = Nodes[X].Parent;
      It = Meet.find(X);
    }
    uint32_t M = It->second;
    for (uint32_t W : Walk)
      Meet[W] = M;
    Common = std::min(Common, Nodes[M].Depth);
  }
  std::vector<llvm::StringRef> Items;
  appendPath(First, 0, Items);
  if (Distinct.size() == 1)
    return listText(Items);
  Items.resize(Common);
  std::string S = "[";
  bool FirstItem = true;
  for (llvm::StringRef F : Items) {
    S += FirstItem ? "" : ", ";
    FirstItem = false;
    appendPyReprString(S, F);
  }
  // Distinct paths share the prefix, so their tails are distinct too.
  llvm::DenseSet<uint32_t> Listed;
  size_t Frames = 0;
  for (size_t I = 0; I < KNode.size(); ++I) {
    uint32_t N = KNode[I];
    if (!Listed.insert(N).second)
      continue;
    size_t Len = Nodes[N].Depth - Common;
    if (Frames && Frames + Len > CallStackFrameBudget) {
      S += ", " + pyReprString("... " + std::to_string(KNode.size() - I) +
                               " more kernels");
      break;
    }
    Frames += Len;
    Items.clear();
    appendPath(N, Common, Items);
    S += FirstItem ? "" : ", ";
    FirstItem = false;
    appendListText(S, Items);
  }
  S += ']';
  return S;
}

std::string tl::callStackFull(const Trace &T, llvm::ArrayRef<EventId> Kernels) {
  return CallStackBuilder(T).callStackFull(Kernels);
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
