//===- ArgStore.h - Arena of args nodes ------------------------*- C++ -*-===//
//
// All `args` values of a trace live in one flat vector of 16-byte nodes.
// Array elements and object members are stored contiguously; each object
// member node carries its key in `Key`. Node 0 is a shared Null.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IR_ARGSTORE_H
#define TL_IR_ARGSTORE_H

#include "tl/IR/ArgValue.h"
#include "tl/IR/StringPool.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tl {

struct ArgNode {
  ArgValue::Type Ty = ArgValue::Type::Null;
  uint32_t Key = 0; // member key (StrId) when the node is an object member
  union {
    int64_t I; // Int, Bool
    double D;  // Double
    StrId Str; // String
    struct {
      uint32_t First, Count;
    } C; // Array, Object
  };
  ArgNode() : I(0) {}
};
static_assert(sizeof(ArgNode) == 16, "ArgNode must stay 16 bytes");

/// Append-only node array in fixed 1 MiB segments: growing never copies or
/// doubles the arena, which keeps peak memory close to the live size.
class NodeVector {
public:
  static constexpr unsigned SegBits = 16;
  static constexpr uint32_t SegSize = 1u << SegBits;

  size_t size() const { return Size; }
  const ArgNode &operator[](uint32_t I) const {
    return Segs[I >> SegBits][I & (SegSize - 1)];
  }
  void push_back(const ArgNode &N) {
    if ((Size & (SegSize - 1)) == 0 && (Size >> SegBits) == Segs.size())
      Segs.push_back(std::make_unique<ArgNode[]>(SegSize));
    Segs[Size >> SegBits][Size & (SegSize - 1)] = N;
    ++Size;
  }
  template <typename It> void append(It B, It E) {
    for (; B != E; ++B)
      push_back(*B);
  }
  /// Shrink to N nodes (drops the args of an event that is not kept).
  void truncate(size_t N) {
    if (N >= Size)
      return;
    Size = N;
    // Forget shared ranges that lived in the dropped tail (all of them were
    // added since the last commit()).
    for (uint64_t H : Recent) {
      auto It = Shared.find(H);
      if (It != Shared.end() && It->second >= N)
        Shared.erase(It);
    }
    Recent.clear();
  }
  /// The nodes so far are kept: later truncate() calls never go below here.
  void commit() { Recent.clear(); }
  size_t memoryBytes() const {
    return Segs.size() * SegSize * sizeof(ArgNode) + Shared.getMemorySize();
  }

  /// Index of a stored range equal to [R, R + Count), appending it when new.
  uint32_t internRange(const ArgNode *R, uint32_t Count) {
    uint64_t H = Count;
    for (uint32_t I = 0; I < Count; ++I) {
      H = (H ^ uint64_t(R[I].Ty) ^ uint64_t(R[I].Key) << 8) *
          0x9E3779B97F4A7C15ull;
      H = (H ^ uint64_t(R[I].I)) * 0xC2B2AE3D27D4EB4Full;
      H ^= H >> 29;
    }
    H &= ~0ull >> 2; // keep clear of DenseMap's reserved keys
    auto It = Shared.find(H);
    if (It != Shared.end() && equalRange(It->second, R, Count))
      return It->second;
    uint32_t First = uint32_t(Size);
    for (uint32_t I = 0; I < Count; ++I)
      push_back(R[I]);
    if (It == Shared.end()) {
      Shared[H] = First;
      Recent.push_back(H);
    }
    return First;
  }

private:
  bool equalRange(uint32_t First, const ArgNode *R, uint32_t Count) const {
    if (First + uint64_t(Count) > Size)
      return false;
    for (uint32_t I = 0; I < Count; ++I) {
      const ArgNode &A = (*this)[First + I];
      if (A.Ty != R[I].Ty || A.Key != R[I].Key || A.I != R[I].I)
        return false;
    }
    return true;
  }
  llvm::DenseMap<uint64_t, uint32_t> Shared; // range hash -> first node
  std::vector<uint64_t> Recent;              // hashes added since commit()

  std::vector<std::unique_ptr<ArgNode[]>> Segs;
  size_t Size = 0;
};

class ArgStore {
public:
  explicit ArgStore(StringPool *Strings) : Strings(Strings) {
    Nodes.push_back(ArgNode()); // node 0: Null
  }
  ArgValue value(uint32_t Node) const { return ArgValue(this, Node); }
  const ArgNode &node(uint32_t N) const { return Nodes[N]; }
  const StringPool &strings() const { return *Strings; }
  size_t memoryBytes() const { return Nodes.memoryBytes(); }

  NodeVector Nodes;
  StringPool *Strings;
};

/// Builds values bottom-up from SAX-like calls without recursion. Scalars and
/// finished containers sit on a scratch stack; closing a container moves its
/// children into the store contiguously.
class ArgBuilder {
public:
  explicit ArgBuilder(ArgStore &S) : S(S) {}
  void key(StrId K) { PendingKey = K; }
  void null() { push(ArgNode()); }
  void boolean(bool B) {
    ArgNode N;
    N.Ty = ArgValue::Type::Bool;
    N.I = B;
    push(N);
  }
  void integer(int64_t V) {
    ArgNode N;
    N.Ty = ArgValue::Type::Int;
    N.I = V;
    push(N);
  }
  void real(double V) {
    ArgNode N;
    N.Ty = ArgValue::Type::Double;
    N.D = V;
    push(N);
  }
  void string(StrId Id) {
    ArgNode N;
    N.Ty = ArgValue::Type::String;
    N.Str = Id;
    push(N);
  }
  void startContainer(bool IsObject) {
    Open.push_back({uint32_t(Scratch.size()), PendingKey, IsObject});
    PendingKey = 0;
  }
  void endContainer() {
    OpenFrame F = Open.back();
    Open.pop_back();
    uint32_t Count = uint32_t(Scratch.size() - F.Start);
    ArgNode N;
    N.Ty = F.IsObject ? ArgValue::Type::Object : ArgValue::Type::Array;
    N.C.Count = Count;
    N.Key = F.Key;
    // Nested containers (shapes, type lists, ...) repeat a lot: share one
    // copy of identical child ranges. Outermost args objects are unique
    // (they carry ids), so they are not indexed.
    if (!Open.empty() && Count)
      N.C.First = S.Nodes.internRange(&Scratch[F.Start], Count);
    else {
      N.C.First = uint32_t(S.Nodes.size());
      S.Nodes.append(Scratch.begin() + F.Start, Scratch.end());
    }
    Scratch.resize(F.Start);
    Scratch.push_back(N);
  }
  size_t depth() const { return Open.size(); }
  /// Bytes held by the scratch stacks (for the importer's memory guard).
  size_t memoryBytes() const {
    return Scratch.capacity() * sizeof(ArgNode) +
           Open.capacity() * sizeof(OpenFrame);
  }
  /// After the outermost value is complete: store it and return its node.
  uint32_t finish() {
    ArgNode N = Scratch.back();
    Scratch.pop_back();
    N.Key = 0;
    if (N.Ty == ArgValue::Type::Null)
      return 0;
    S.Nodes.push_back(N);
    return uint32_t(S.Nodes.size() - 1);
  }
  void reset() {
    Scratch.clear();
    Open.clear();
    PendingKey = 0;
  }

private:
  void push(ArgNode N) {
    N.Key = PendingKey;
    PendingKey = 0;
    Scratch.push_back(N);
  }
  struct OpenFrame {
    uint32_t Start;
    StrId Key;
    bool IsObject;
  };
  ArgStore &S;
  std::vector<ArgNode> Scratch;
  std::vector<OpenFrame> Open;
  StrId PendingKey = 0;
};

} // namespace tl

#endif // TL_IR_ARGSTORE_H
