//===- CallStack.cpp - Python call stacks of ops and kernels --------------===//
#include "tl/Analysis/CallStack.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tl;

static llvm::StringRef stripIndex(llvm::StringRef N) {
  size_t I = N.size();
  while (I > 0 && llvm::isDigit(N[I - 1]))
    --I;
  if (I < N.size() && I > 0 && N[I - 1] == '_')
    return N.take_front(I - 1);
  return N;
}

std::vector<std::string> tl::hostFrames(const Trace &T, EventId E) {
  std::vector<std::string> Out;
  for (EventId X = E; X != NoEvent; X = T.parent(X)) {
    EventKind K = T.kind(X);
    if (K == EventKind::CpuOp || K == EventKind::PythonFunction)
      Out.push_back(stripIndex(T.name(X)).str());
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

std::string tl::entryPoint(const Trace &T, EventId E) {
  for (EventId X = T.parent(E); X != NoEvent; X = T.parent(X))
    if (T.kind(X) == EventKind::PythonFunction && T.name(X).contains(".py("))
      return T.name(X).str();
  return "Not found";
}
