//===- ArgValue.cpp - Views of args nodes ---------------------------------===//
#include "tl/IR/ArgValue.h"
#include "tl/IR/ArgStore.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cmath>

using namespace tl;

ArgValue::Type ArgValue::type() const {
  return S ? S->node(Node).Ty : Type::Null;
}

bool ArgValue::getBool() const {
  return type() == Type::Bool && S->node(Node).I != 0;
}

int64_t ArgValue::getInt() const {
  switch (type()) {
  case Type::Int:
  case Type::Bool:
    return S->node(Node).I;
  case Type::Double: {
    double D = S->node(Node).D;
    if (!(D > -9.2e18 && D < 9.2e18))
      return 0;
    return int64_t(D);
  }
  default:
    return 0;
  }
}

double ArgValue::getDouble() const {
  switch (type()) {
  case Type::Int:
    return double(S->node(Node).I);
  case Type::Double:
    return S->node(Node).D;
  default:
    return 0.0;
  }
}

llvm::StringRef ArgValue::getString() const {
  return type() == Type::String ? S->strings().get(S->node(Node).Str)
                                : llvm::StringRef();
}

std::optional<int64_t> ArgValue::asInt() const {
  if (type() == Type::Int)
    return S->node(Node).I;
  if (type() == Type::Double) {
    double D = S->node(Node).D;
    if (D > -9.2e18 && D < 9.2e18 && std::trunc(D) == D)
      return int64_t(D);
  }
  return std::nullopt;
}

std::optional<double> ArgValue::asDouble() const {
  if (isNumber())
    return getDouble();
  return std::nullopt;
}

size_t ArgValue::size() const {
  Type T = type();
  return (T == Type::Array || T == Type::Object) ? S->node(Node).C.Count : 0;
}

ArgValue ArgValue::operator[](size_t I) const {
  if (type() != Type::Array || I >= size())
    return ArgValue();
  return ArgValue(S, S->node(Node).C.First + uint32_t(I));
}

llvm::StringRef ArgValue::keyAt(size_t I) const {
  if (type() != Type::Object || I >= size())
    return llvm::StringRef();
  return S->strings().get(S->node(S->node(Node).C.First + uint32_t(I)).Key);
}

ArgValue ArgValue::valueAt(size_t I) const {
  if (type() != Type::Object || I >= size())
    return ArgValue();
  return ArgValue(S, S->node(Node).C.First + uint32_t(I));
}

static uint32_t findMember(const ArgStore *S, uint32_t Node,
                           llvm::StringRef Key) {
  const ArgNode &N = S->node(Node);
  if (N.Ty != ArgValue::Type::Object)
    return ~0u;
  StrId K = S->strings().lookup(Key);
  if (!K)
    return ~0u;
  for (uint32_t I = 0; I < N.C.Count; ++I)
    if (S->node(N.C.First + I).Key == K)
      return N.C.First + I;
  return ~0u;
}

ArgValue ArgValue::get(llvm::StringRef Key) const {
  if (!S)
    return ArgValue();
  uint32_t M = findMember(S, Node, Key);
  return M == ~0u ? ArgValue() : ArgValue(S, M);
}

bool ArgValue::hasKey(llvm::StringRef Key) const {
  return S && findMember(S, Node, Key) != ~0u;
}

static void writeJsonString(llvm::raw_ostream &OS, llvm::StringRef Str) {
  OS << '"';
  for (unsigned char C : Str) {
    switch (C) {
    case '"':
      OS << "\\\"";
      break;
    case '\\':
      OS << "\\\\";
      break;
    case '\n':
      OS << "\\n";
      break;
    case '\r':
      OS << "\\r";
      break;
    case '\t':
      OS << "\\t";
      break;
    default:
      if (C < 0x20)
        OS << llvm::format("\\u%04x", C);
      else
        OS << C;
    }
  }
  OS << '"';
}

static void writeScalar(llvm::raw_ostream &OS, const ArgStore &S,
                        const ArgNode &N) {
  switch (N.Ty) {
  case ArgValue::Type::Null:
    OS << "null";
    break;
  case ArgValue::Type::Bool:
    OS << (N.I ? "true" : "false");
    break;
  case ArgValue::Type::Int:
    OS << N.I;
    break;
  case ArgValue::Type::Double: {
    // Shortest text that reads back to the same double.
    char Buf[64];
    auto R = std::to_chars(Buf, Buf + sizeof(Buf), N.D);
    *R.ptr = 0;
    llvm::StringRef T(Buf);
    OS << T;
    if (std::isfinite(N.D) && !T.contains_insensitive('e') && !T.contains('.'))
      OS << ".0";
    break;
  }
  case ArgValue::Type::String:
    writeJsonString(OS, S.strings().get(N.Str));
    break;
  default:
    break;
  }
}

std::string ArgValue::toJson() const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (!S) {
    OS << "null";
    return Out;
  }
  // Explicit stack of (container node, next child index): no recursion.
  struct Frame {
    uint32_t Node, Next;
  };
  std::vector<Frame> Stack;
  auto Emit = [&](uint32_t NId, bool InObject) {
    const ArgNode &N = S->node(NId);
    if (InObject) {
      writeJsonString(OS, S->strings().get(N.Key));
      OS << ':';
    }
    if (N.Ty == Type::Array || N.Ty == Type::Object) {
      OS << (N.Ty == Type::Array ? '[' : '{');
      Stack.push_back({NId, 0});
    } else {
      writeScalar(OS, *S, N);
    }
  };
  Emit(Node, false);
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    const ArgNode &N = S->node(F.Node);
    if (F.Next == N.C.Count) {
      OS << (N.Ty == Type::Array ? ']' : '}');
      Stack.pop_back();
      continue;
    }
    if (F.Next)
      OS << ',';
    uint32_t Child = N.C.First + F.Next++;
    Emit(Child, N.Ty == Type::Object);
  }
  return Out;
}
