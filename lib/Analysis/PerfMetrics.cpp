//===- PerfMetrics.cpp - Perf models applied to trace events --------------===//
#include "tl/Analysis/PerfMetrics.h"
#include "tl/Analysis/ArchSpec.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Support/Intervals.h"

#include <algorithm>

using namespace tl;

PyValue tl::argToPy(ArgValue V, bool ListsAsTuples) {
  // Explicit stack: each frame converts one array/object node.
  struct Frame {
    ArgValue Node;
    size_t Next = 0;
    std::vector<PyValue> Elems;
    std::vector<std::pair<std::string, PyValue>> Items;
  };
  auto Scalar = [](ArgValue A) -> PyValue {
    switch (A.type()) {
    case ArgValue::Type::Null:
      return PyValue::none();
    case ArgValue::Type::Bool:
      return PyValue::boolean(A.getBool());
    case ArgValue::Type::Int:
      return PyValue::integer(A.getInt());
    case ArgValue::Type::Double:
      return PyValue::real(A.getDouble());
    case ArgValue::Type::String:
      return PyValue::str(A.getString());
    default:
      return PyValue::none();
    }
  };
  if (!V || (!V.isArray() && !V.isObject()))
    return V ? Scalar(V) : PyValue::none();
  std::vector<Frame> Stack;
  Stack.push_back({V, 0, {}, {}});
  PyValue Result;
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.Next < F.Node.size()) {
      size_t I = F.Next++;
      ArgValue C = F.Node.isArray() ? F.Node[I] : F.Node.valueAt(I);
      if (C.isArray() || C.isObject()) {
        Stack.push_back({C, 0, {}, {}});
        continue;
      }
      if (F.Node.isArray())
        F.Elems.push_back(Scalar(C));
      else
        F.Items.emplace_back(F.Node.keyAt(I).str(), Scalar(C));
      continue;
    }
    PyValue Done = F.Node.isArray()
                       ? (ListsAsTuples ? PyValue::tuple(std::move(F.Elems))
                                        : PyValue::list(std::move(F.Elems)))
                       : PyValue::dict(std::move(F.Items));
    Stack.pop_back();
    if (Stack.empty()) {
      Result = std::move(Done);
      break;
    }
    Frame &P = Stack.back();
    if (P.Node.isArray())
      P.Elems.push_back(std::move(Done));
    else
      P.Items.emplace_back(P.Node.keyAt(P.Next - 1).str(), std::move(Done));
  }
  return Result;
}

OpDesc tl::opDescOf(const Trace &T, EventId E) {
  OpDesc Op;
  Op.Name = T.name(E).str();
  ArgValue A = T.args(E);
  if (!A || !A.isObject())
    return Op;
  // Calls Add on each element of args[Key] (none when it is not a list).
  auto forEach = [&](llvm::StringRef Key, auto Add) {
    ArgValue L = A.get(Key);
    for (size_t I = 0, N = L.isArray() ? L.size() : 0; I < N; ++I)
      Add(L[I]);
  };
  auto text = [](ArgValue V) {
    return V.isString() ? V.getString().str() : V.toJson();
  };
  forEach("Input Dims",
          [&](ArgValue V) { Op.InputDims.push_back(argToPy(V)); });
  forEach("Input type", [&](ArgValue V) {
    Op.InputTypes.push_back(V.isString() ? V.getString().str() : std::string());
  });
  forEach("Input Strides",
          [&](ArgValue V) { Op.InputStrides.push_back(argToPy(V)); });
  forEach("Concrete Inputs",
          [&](ArgValue V) { Op.ConcreteInputs.push_back(text(V)); });
  if (A.hasKey("Output type")) {
    std::vector<std::string> Out;
    forEach("Output type", [&](ArgValue V) { Out.push_back(text(V)); });
    Op.OutputTypes = std::move(Out);
  }
  return Op;
}

bool tl::eventHasPerfModel(const Trace &T, EventId E) {
  llvm::StringRef N = T.name(E);
  if (hasPerfModel(N))
    return true;
  // Extension ops (§5.11) are in the reference's model map, so the unified
  // table collects them; their formulas are not ported, so buildPerfModel
  // fails with a plain error and the row keeps only its kernel time, as
  // the reference's does when a model raises.
  if (CategoryRegistry::builtin().isModelOp(N))
    return true;
  return isTritonKernelName(N) && isTritonModelable(opDescOf(T, E));
}

std::vector<EventId> tl::subtreeKernels(const Trace &T, EventId E) {
  std::vector<EventId> Out;
  std::vector<EventId> Stack{E};
  while (!Stack.empty()) {
    EventId X = Stack.back();
    Stack.pop_back();
    if (isGpuKind(T.kind(X))) {
      Out.push_back(X);
      continue;
    }
    llvm::ArrayRef<EventId> C = T.children(X);
    for (size_t I = C.size(); I-- > 0;)
      Stack.push_back(C[I]);
  }
  return Out;
}

std::vector<EventId> tl::subtreeBwdEvents(const Trace &T, EventId E) {
  std::vector<EventId> Out;
  std::vector<EventId> Stack{E};
  while (!Stack.empty()) {
    EventId X = Stack.back();
    Stack.pop_back();
    for (EventId B : T.bwdEvents(X))
      Out.push_back(B);
    for (EventId C : T.children(X))
      if (!isGpuKind(T.kind(C)))
        Stack.push_back(C);
  }
  std::sort(Out.begin(), Out.end(), [&](EventId A, EventId B) {
    return T.uid(A) < T.uid(B);
  });
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

double tl::kernelBusyTime(const Trace &T, llvm::ArrayRef<EventId> Kernels) {
  if (Kernels.empty())
    return 0;
  std::vector<Interval> I;
  I.reserve(Kernels.size());
  for (EventId K : Kernels)
    I.push_back({T.ts(K), T.end(K)});
  return busyTime(std::move(I));
}

void tl::sortByTs(const Trace &T, std::vector<EventId> &Ks) {
  std::stable_sort(Ks.begin(), Ks.end(),
                   [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
}

std::string tl::bwdCategoryOf(llvm::StringRef C) {
  if (C.consume_back("_fwd"))
    return (C + "_bwd").str();
  return "";
}

llvm::Expected<OpPerf> tl::computeOpPerf(const Trace &T, EventId E, bool Bwd,
                                         const ArchSpec *Arch,
                                         std::vector<EventId> *KernelsOut) {
  OpPerf P;
  if (!Bwd) {
    P.Kernels = subtreeKernels(T, E);
  } else {
    for (EventId B : subtreeBwdEvents(T, E)) {
      std::vector<EventId> K = subtreeKernels(T, B);
      P.Kernels.insert(P.Kernels.end(), K.begin(), K.end());
    }
  }
  P.KernelTimeUs = kernelBusyTime(T, P.Kernels);
  sortByTs(T, P.Kernels);
  if (KernelsOut)
    *KernelsOut = P.Kernels;
  OpDesc Op = opDescOf(T, E);
  for (EventId K : P.Kernels)
    Op.KernelNames.push_back(T.name(K).str());
  auto M = buildPerfModel(Op);
  if (!M)
    return M.takeError();
  P.Model = std::move(*M);
  auto Met = computeMetrics(P.Model, P.KernelTimeUs, Bwd, Arch);
  if (!Met)
    return Met.takeError();
  P.Metrics = std::move(*Met);
  return P;
}
