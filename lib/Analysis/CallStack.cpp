//===- CallStack.cpp - Python call stacks of ops and kernels --------------===//
//
// The rules below were read off the agent references (unified_perf_summary
// with --include_call_stack, all ten shared traces): see the header.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/CallStack.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/PyLiteral.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace tl;

std::string tl::stripIndices(llvm::StringRef N) {
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

std::string CallStackBuilder::callStackFull(llvm::ArrayRef<EventId> Kernels,
                                            EventId Above) {
  if (Kernels.empty())
    return "Not found";
  // Paths are nodes of a trie of frame names (equal texts, equal node), so
  // distinct paths and the common prefix cost O(1) per kernel.
  std::vector<uint32_t> KNode;
  KNode.reserve(Kernels.size());
  for (EventId K : Kernels) {
    uint32_t Node;
    if (Above == NoEvent) {
      Node = hostPath(T.parent(K));
    } else {
      Node = hostPath(Above);
      for (const std::string &F : hostFrames(T, T.parent(K)))
        Node = child(Node, F);
    }
    KNode.push_back(child(Node, T.name(K)));
  }
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

bool tl::isEntryWrapperFrame(llvm::StringRef Frame) {
  // The reference's wrapper test of entry_point (tracelens-inference §A.6,
  // step 5), fragment for fragment.
  if (Frame.starts_with("<built-in") || Frame.starts_with("pybind11_builtins") ||
      Frame.starts_with("nn.Module:"))
    return true;
  static const char *const Paths[] = {
      "torch/_ops.py",          "torch/nn/modules/module.py",
      "torch/utils/_contextlib.py", "torch/utils/_device.py",
      "torch/_tensor.py",       "torch/functional.py",
      "torch/overrides.py",     "torch/_inductor/",
      "torch/_functorch/",      "torch/distributed/c10d_logger.py",
      "triton/backends/"};
  for (const char *P : Paths)
    if (Frame.contains(P))
      return true;
  static const char *const Functions[] = {
      "__torch_function__", "_call_impl",         "_wrapped_call_impl",
      "decorate_context",   "dispatch_wrapper",   "handle_torch_function",
      "wrapper",            "custom_wrapper",     "wrapper_custom",
      "outer_wrapper"};
  llvm::StringRef Fn = frameFunction(Frame);
  return llvm::is_contained(Functions, Fn);
}

/// Function part of a frame as the reference reads it: the text after the
/// last "): ", or the whole frame.
llvm::StringRef tl::frameFunction(llvm::StringRef Frame) {
  size_t P = Frame.rfind("): ");
  return P == llvm::StringRef::npos ? Frame : Frame.drop_front(P + 3);
}

/// Flattens a parsed call_stack_full (nested lists of strings) in order,
/// without recursion.
static void flattenFrames(const PyValue &V, std::vector<std::string> &Out) {
  std::vector<std::pair<const PyValue *, size_t>> Work{{&V, 0}};
  while (!Work.empty()) {
    auto &[L, I] = Work.back();
    if (I == L->elems().size()) {
      Work.pop_back();
      continue;
    }
    const PyValue &E = L->elems()[I++];
    if (E.kind() == PyValue::Kind::List || E.kind() == PyValue::Kind::Tuple)
      Work.push_back({&E, 0});
    else if (E.kind() == PyValue::Kind::Str)
      Out.push_back(E.getStr());
  }
}

std::string tl::entryPoint(llvm::StringRef OpName,
                           llvm::StringRef CallStackFull) {
  auto L = parsePyLiteral(CallStackFull);
  if (!L) {
    llvm::consumeError(L.takeError());
    return "Not found";
  }
  if (L->kind() != PyValue::Kind::List)
    return "Not found";
  std::vector<std::string> F;
  flattenFrames(*L, F);
  // The op's own frame: the last one equal to its name, else to the name
  // without a trailing _<digits>.
  auto lastIndexOf = [&](llvm::StringRef N) -> std::optional<size_t> {
    for (size_t I = F.size(); I-- > 0;)
      if (F[I] == N)
        return I;
    return std::nullopt;
  };
  std::optional<size_t> Op = lastIndexOf(OpName);
  if (!Op) {
    llvm::StringRef Base = OpName;
    size_t U = Base.rfind('_');
    if (U != llvm::StringRef::npos && U + 1 < Base.size() &&
        llvm::all_of(Base.drop_front(U + 1), llvm::isDigit))
      Base = Base.take_front(U);
    if (Base != OpName)
      Op = lastIndexOf(Base);
  }
  if (!Op)
    return "Not found";
  size_t Sep = OpName.rfind("::");
  std::string Local =
      (Sep == llvm::StringRef::npos ? OpName : OpName.drop_front(Sep + 2))
          .lower();
  // Inward: an op implemented in python is entered at the first frame
  // below it whose function is named like the op.
  for (size_t I = *Op + 1; I < F.size(); ++I)
    if (llvm::StringRef(F[I]).contains(".py") &&
        frameFunction(F[I]).lower().find(Local) != std::string::npos)
      return F[I];
  // Outward: the nearest python frame above it that is not a wrapper.
  for (size_t I = *Op; I-- > 0;)
    if (llvm::StringRef(F[I]).contains(".py") && !isEntryWrapperFrame(F[I]))
      return F[I];
  return "Not found";
}
