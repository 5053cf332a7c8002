//===- ArgStore.cpp - Compact args objects --------------------------------===//
#include "tl/IR/ArgStore.h"

#include <cstring>

using namespace tl;

uint32_t ArgStore::internSchema(const SchemaMember *M, uint32_t Count) {
  uint64_t H = Count;
  for (uint32_t I = 0; I < Count; ++I) {
    H = (H ^ M[I].Key ^ uint64_t(M[I].Ty) << 32 ^ uint64_t(M[I].Words) << 40) *
        0x9E3779B97F4A7C15ull;
    H ^= H >> 29;
  }
  H &= ~0ull >> 2; // keep clear of DenseMap's reserved keys
  auto It = SchemaIndex.find(H);
  if (It != SchemaIndex.end()) {
    llvm::ArrayRef<SchemaMember> Old = schema(It->second);
    bool Same = Old.size() == Count;
    for (uint32_t I = 0; Same && I < Count; ++I)
      Same = Old[I].Key == M[I].Key && Old[I].Ty == M[I].Ty &&
             Old[I].Words == M[I].Words;
    if (Same)
      return It->second;
  }
  uint32_t Id = uint32_t(Schemas.size());
  Schemas.push_back({uint32_t(SchemaMembers.size()), Count});
  SchemaMembers.insert(SchemaMembers.end(), M, M + Count);
  if (It == SchemaIndex.end())
    SchemaIndex[H] = Id;
  return Id;
}

ArgNode ArgStore::makeCompact(const ArgNode *R, uint32_t Count) {
  SchemaMember Layout[MaxCompactMembers];
  uint32_t Words = 0;
  for (uint32_t I = 0; I < Count; ++I) {
    const ArgNode &C = R[I];
    uint8_t W = 1;
    if (C.Ty == ArgValue::Type::Null)
      W = 0;
    else if (C.Ty == ArgValue::Type::Double ||
             (C.Ty == ArgValue::Type::Int &&
              (C.I < INT32_MIN || C.I > INT32_MAX)))
      W = 2;
    Layout[I] = {C.Key, C.Ty, W, uint16_t(Words)};
    Words += W;
  }
  ArgNode N;
  N.Ty = ArgValue::Type::Object;
  N.Compact = true;
  N.C.Count = internSchema(Layout, Count);
  N.C.First = this->Words.allocate(Words);
  for (uint32_t I = 0; I < Count; ++I) {
    const ArgNode &C = R[I];
    uint32_t *Dst = Layout[I].Words ? this->Words.mut(N.C.First +
                                                      Layout[I].Offset)
                                    : nullptr;
    switch (C.Ty) {
    case ArgValue::Type::Null:
      break;
    case ArgValue::Type::Bool:
      Dst[0] = uint32_t(C.I != 0);
      break;
    case ArgValue::Type::Int:
      if (Layout[I].Words == 1)
        Dst[0] = uint32_t(int32_t(C.I));
      else
        std::memcpy(Dst, &C.I, 8);
      break;
    case ArgValue::Type::Double:
      std::memcpy(Dst, &C.D, 8);
      break;
    case ArgValue::Type::String:
      Dst[0] = C.Str;
      break;
    case ArgValue::Type::Array:
    case ArgValue::Type::Object: {
      // A nested container becomes its own node (key-less, so identical
      // shape lists share one node).
      ArgNode Child = C;
      Child.Key = 0;
      Dst[0] = Nodes.internRange(&Child, 1);
      break;
    }
    }
  }
  return N;
}

ArgNode ArgStore::compactScalar(uint32_t Obj, uint32_t I) const {
  const ArgNode &O = Nodes[Obj];
  const SchemaMember &M = schema(O.C.Count)[I];
  ArgNode N;
  N.Ty = M.Ty;
  if (!M.Words)
    return N;
  const uint32_t *W = Words.at(O.C.First + M.Offset);
  switch (M.Ty) {
  case ArgValue::Type::Bool:
  case ArgValue::Type::String:
    N.I = 0;
    if (M.Ty == ArgValue::Type::Bool)
      N.I = W[0];
    else
      N.Str = W[0];
    break;
  case ArgValue::Type::Int:
    if (M.Words == 1)
      N.I = int32_t(W[0]);
    else
      std::memcpy(&N.I, W, 8);
    break;
  case ArgValue::Type::Double:
    std::memcpy(&N.D, W, 8);
    break;
  default:
    break;
  }
  return N;
}

ArgValue ArgStore::memberAt(uint32_t Obj, uint32_t I) const {
  const ArgNode &O = Nodes[Obj];
  if (!O.Compact)
    return ArgValue(this, O.C.First + I);
  const SchemaMember &M = schema(O.C.Count)[I];
  return compactMember(
      Obj, I, M.Ty == ArgValue::Type::Array || M.Ty == ArgValue::Type::Object,
      M.Offset);
}

ArgValue ArgStore::memberByKey(uint32_t Obj, StrId K, bool *Found) const {
  const ArgNode &O = Nodes[Obj];
  if (Found)
    *Found = false;
  if (O.Ty != ArgValue::Type::Object || !K)
    return ArgValue();
  if (O.Compact) {
    llvm::ArrayRef<SchemaMember> Sch = schema(O.C.Count);
    for (uint32_t I = 0, E = uint32_t(Sch.size()); I < E; ++I)
      if (Sch[I].Key == K) {
        if (Found)
          *Found = true;
        return memberAt(Obj, I);
      }
    return ArgValue();
  }
  for (uint32_t I = 0; I < O.C.Count; ++I)
    if (Nodes[O.C.First + I].Key == K) {
      if (Found)
        *Found = true;
      return ArgValue(this, O.C.First + I);
    }
  return ArgValue();
}

uint32_t tl::copyArgValue(ArgValue V, ArgStore &Dst) {
  if (!V || V.isNull())
    return 0;
  ArgBuilder B(Dst);
  appendArgValue(B, V, Dst);
  uint32_t Node = B.finish();
  Dst.mark(); // commit: the copy stays
  return Node;
}

void tl::appendArgValue(ArgBuilder &B, ArgValue V, ArgStore &Dst) {
  struct Frame {
    ArgValue Container;
    size_t Next;
    bool IsObject;
  };
  std::vector<Frame> Open;
  auto Emit = [&](ArgValue X) {
    switch (X.type()) {
    case ArgValue::Type::Null:
      B.null();
      break;
    case ArgValue::Type::Bool:
      B.boolean(X.getBool());
      break;
    case ArgValue::Type::Int:
      B.integer(X.getInt());
      break;
    case ArgValue::Type::Double:
      B.real(X.getDouble());
      break;
    case ArgValue::Type::String:
      B.string(Dst.Strings->intern(X.getString()));
      break;
    case ArgValue::Type::Array:
    case ArgValue::Type::Object: {
      bool Obj = X.isObject();
      B.startContainer(Obj);
      Open.push_back({X, 0, Obj});
      break;
    }
    }
  };
  Emit(V);
  while (!Open.empty()) {
    Frame F = Open.back();
    if (F.Next == F.Container.size()) {
      B.endContainer();
      Open.pop_back();
      continue;
    }
    ++Open.back().Next;
    if (F.IsObject) {
      B.key(Dst.Strings->intern(F.Container.keyAt(F.Next)));
      Emit(F.Container.valueAt(F.Next));
    } else {
      Emit(F.Container[F.Next]);
    }
  }
}
