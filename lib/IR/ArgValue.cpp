//===- ArgValue.cpp - Views of args nodes ---------------------------------===//
#include "tl/IR/ArgValue.h"
#include "tl/IR/ArgStore.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <charconv>
#include <cmath>

using namespace tl;

ArgNode ArgValue::resolve() const {
  if (!S)
    return ArgNode();
  if (Member)
    return S->compactScalar(Node, Member - 1);
  return S->node(Node);
}

ArgValue::Type ArgValue::type() const {
  if (!S)
    return Type::Null;
  if (Member)
    return S->schema(S->node(Node).C.Count)[Member - 1].Ty;
  return S->node(Node).Ty;
}

bool ArgValue::getBool() const {
  ArgNode N = resolve();
  return N.Ty == Type::Bool && N.I != 0;
}

int64_t ArgValue::getInt() const {
  ArgNode N = resolve();
  switch (N.Ty) {
  case Type::Int:
  case Type::Bool:
    return N.I;
  case Type::Double: {
    double D = N.D;
    if (!(D > -9.2e18 && D < 9.2e18))
      return 0;
    return int64_t(D);
  }
  default:
    return 0;
  }
}

double ArgValue::getDouble() const {
  ArgNode N = resolve();
  switch (N.Ty) {
  case Type::Int:
    return double(N.I);
  case Type::Double:
    return N.D;
  default:
    return 0.0;
  }
}

llvm::StringRef ArgValue::getString() const {
  ArgNode N = resolve();
  return N.Ty == Type::String ? S->strings().get(N.Str) : llvm::StringRef();
}

std::optional<int64_t> ArgValue::asInt() const {
  ArgNode N = resolve();
  if (N.Ty == Type::Int)
    return N.I;
  if (N.Ty == Type::Double) {
    double D = N.D;
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
  if (!S || Member)
    return 0;
  const ArgNode &N = S->node(Node);
  if (N.Ty != Type::Array && N.Ty != Type::Object)
    return 0;
  return N.Compact ? S->schema(N.C.Count).size() : N.C.Count;
}

ArgValue ArgValue::operator[](size_t I) const {
  if (type() != Type::Array || I >= size())
    return ArgValue();
  return ArgValue(S, S->node(Node).C.First + uint32_t(I));
}

llvm::StringRef ArgValue::keyAt(size_t I) const {
  if (type() != Type::Object || I >= size())
    return llvm::StringRef();
  const ArgNode &N = S->node(Node);
  StrId K = N.Compact ? S->schema(N.C.Count)[I].Key
                      : S->node(N.C.First + uint32_t(I)).Key;
  return S->strings().get(K);
}

ArgValue ArgValue::valueAt(size_t I) const {
  if (type() != Type::Object || I >= size())
    return ArgValue();
  return S->memberAt(Node, uint32_t(I));
}

ArgValue ArgValue::get(llvm::StringRef Key) const {
  if (type() != Type::Object)
    return ArgValue();
  return S->memberByKey(Node, S->strings().lookup(Key));
}

ArgValue ArgValue::getByKeyId(uint32_t KeyId, bool *Found) const {
  if (Found)
    *Found = false;
  if (type() != Type::Object)
    return ArgValue();
  return S->memberByKey(Node, KeyId, Found);
}

void ArgValue::getByKeyIds(const uint32_t *KeyIds, unsigned N, ArgValue *Out,
                           ArgKeySlots &Slots, bool *Found) const {
  assert(N <= ArgKeySlots::MaxKeys && "too many keys");
  const ArgNode *O = S && !Member ? &S->node(Node) : nullptr;
  if (!O || O->Ty != Type::Object) {
    for (unsigned J = 0; J < N; ++J) {
      Out[J] = ArgValue();
      if (Found)
        Found[J] = false;
    }
    return;
  }
  if (!O->Compact) {
    for (unsigned J = 0; J < N; ++J)
      Out[J] = S->memberByKey(Node, KeyIds[J], Found ? &Found[J] : nullptr);
    return;
  }
  if (Slots.Layout != O->C.Count) {
    // First match per key, as memberByKey finds it (0 = absent key).
    llvm::ArrayRef<SchemaMember> Sch = S->schema(O->C.Count);
    for (unsigned J = 0; J < N; ++J) {
      Slots.Pos[J] = -1;
      for (uint32_t I = 0, E = uint32_t(Sch.size()); KeyIds[J] && I < E; ++I)
        if (Sch[I].Key == KeyIds[J]) {
          Slots.Pos[J] = int32_t(I);
          Slots.Offset[J] = Sch[I].Offset;
          Slots.Container[J] =
              Sch[I].Ty == Type::Array || Sch[I].Ty == Type::Object;
          break;
        }
    }
    Slots.Layout = O->C.Count;
  }
  // ArgStore::memberAt without its schema lookups.
  for (unsigned J = 0; J < N; ++J) {
    if (Found)
      Found[J] = Slots.Pos[J] >= 0;
    Out[J] = Slots.Pos[J] < 0
                 ? ArgValue()
                 : S->compactMember(Node, uint32_t(Slots.Pos[J]),
                                    Slots.Container[J], Slots.Offset[J]);
  }
}

bool ArgValue::hasKey(llvm::StringRef Key) const {
  if (type() != Type::Object)
    return false;
  bool Found = false;
  S->memberByKey(Node, S->strings().lookup(Key), &Found);
  return Found;
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
  // Explicit stack of (container, next child index): no recursion.
  struct Frame {
    ArgValue V;
    uint32_t Next, Size;
    bool IsObject;
  };
  std::vector<Frame> Stack;
  auto Emit = [&](const ArgValue &V) {
    Type T = V.type();
    if (T == Type::Array || T == Type::Object) {
      OS << (T == Type::Array ? '[' : '{');
      Stack.push_back({V, 0, uint32_t(V.size()), T == Type::Object});
    } else {
      writeScalar(OS, *S, V.resolve());
    }
  };
  Emit(*this);
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.Next == F.Size) {
      OS << (F.IsObject ? '}' : ']');
      Stack.pop_back();
      continue;
    }
    if (F.Next)
      OS << ',';
    uint32_t I = F.Next++;
    if (F.IsObject) {
      writeJsonString(OS, F.V.keyAt(I));
      OS << ':';
      ArgValue C = F.V.valueAt(I);
      Emit(C);
    } else {
      ArgValue C = F.V[I];
      Emit(C);
    }
  }
  return Out;
}
