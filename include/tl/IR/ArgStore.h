//===- ArgStore.h - Arena of args nodes ------------------------*- C++ -*-===//
//
// All `args` values of a trace live in one flat vector of 16-byte nodes.
// Array elements and object members are stored contiguously; each object
// member node carries its key in `Key`. Node 0 is a shared Null.
//
// The outermost args object of each event is stored compactly instead: its
// member keys and types form a *schema* interned once per distinct layout
// (every cpu_op of a trace has the same few), and the member values are
// packed into 32-bit words (int32/bool/string id/child node: 1 word; other
// ints and doubles: 2 words; null: none). A cpu_op's args thus cost about
// 16 + 4 x members bytes instead of 16 x (members + 1).
//
//===----------------------------------------------------------------------===//
#ifndef TL_IR_ARGSTORE_H
#define TL_IR_ARGSTORE_H

#include "tl/IR/ArgValue.h"
#include "tl/IR/StringPool.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tl {

struct ArgNode {
  ArgValue::Type Ty = ArgValue::Type::Null;
  /// Object stored as (schema, packed words): C.First is the first word,
  /// C.Count the schema id (see ArgStore::schema()).
  bool Compact = false;
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

/// One member of a compact object's schema.
struct SchemaMember {
  StrId Key;
  ArgValue::Type Ty;
  uint8_t Words;   // 0 (null), 1 (int32, bool, string, container node), 2
  uint16_t Offset; // first word of the value, relative to the object's
};
static_assert(sizeof(SchemaMember) == 8, "SchemaMember must stay 8 bytes");
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
      if (It != Shared.end() && It->second >= N) {
        Shared.erase(It);
        FrontEntry &F = Front[frontSlot(H)];
        if (F.H == H)
          F = FrontEntry();
      }
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
    // The front table holds recent (hash, Shared[hash]) pairs: most
    // ranges repeat one seen shortly before, and a hit spares a probe of
    // the large map.
    FrontEntry &F = Front[frontSlot(H)];
    bool Known = F.H == H;
    uint32_t Prev = F.First;
    if (!Known) {
      auto It = Shared.find(H);
      Known = It != Shared.end();
      if (Known) {
        Prev = It->second;
        F = {H, Prev};
      }
    }
    if (Known && equalRange(Prev, R, Count))
      return Prev;
    uint32_t First = uint32_t(Size);
    for (uint32_t I = 0; I < Count; ++I)
      push_back(R[I]);
    if (!Known) {
      Shared[H] = First;
      Recent.push_back(H);
      F = {H, First};
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
  struct FrontEntry {
    uint64_t H = ~0ull; // no range hash has its top bits set
    uint32_t First = 0;
  };
  static constexpr unsigned FrontBits = 10;
  static unsigned frontSlot(uint64_t H) {
    return unsigned(H >> 20) & ((1u << FrontBits) - 1);
  }
  std::vector<FrontEntry> Front = std::vector<FrontEntry>(1u << FrontBits);
  std::vector<uint64_t> Recent; // hashes added since commit()

  std::vector<std::unique_ptr<ArgNode[]>> Segs;
  size_t Size = 0;
};

/// Append-only 32-bit words in 1 MiB segments; an allocation never
/// straddles two segments, so a compact object's words are contiguous.
class WordVector {
public:
  static constexpr unsigned SegBits = 18;
  static constexpr uint32_t SegSize = 1u << SegBits;

  uint64_t size() const { return Size; }
  const uint32_t *at(uint32_t I) const {
    return &Segs[I >> SegBits][I & (SegSize - 1)];
  }
  /// Room for N <= SegSize words; returns the index of the first.
  uint32_t allocate(uint32_t N) {
    if (N == 0)
      return uint32_t(Size);
    uint64_t Off = Size & (SegSize - 1);
    if (Size == uint64_t(Segs.size()) << SegBits || Off + N > SegSize) {
      Size = uint64_t(Segs.size()) << SegBits;
      Segs.push_back(std::make_unique<uint32_t[]>(SegSize));
    }
    uint32_t First = uint32_t(Size);
    Size += N;
    return First;
  }
  uint32_t *mut(uint32_t I) { return &Segs[I >> SegBits][I & (SegSize - 1)]; }
  void truncate(uint64_t N) {
    if (N < Size)
      Size = N;
  }
  size_t memoryBytes() const {
    return Segs.size() * SegSize * sizeof(uint32_t);
  }

private:
  std::vector<std::unique_ptr<uint32_t[]>> Segs;
  uint64_t Size = 0;
};

class ArgStore {
public:
  /// Objects with more members are stored as plain nodes.
  static constexpr uint32_t MaxCompactMembers = 1024;

  explicit ArgStore(StringPool *Strings) : Strings(Strings) {
    Nodes.push_back(ArgNode()); // node 0: Null
  }
  ArgValue value(uint32_t Node) const { return ArgValue(this, Node); }
  const ArgNode &node(uint32_t N) const { return Nodes[N]; }
  const StringPool &strings() const { return *Strings; }
  size_t memoryBytes() const {
    return Nodes.memoryBytes() + Words.memoryBytes() +
           SchemaMembers.capacity() * sizeof(SchemaMember) +
           Schemas.capacity() * sizeof(SchemaRange) +
           SchemaIndex.getMemorySize();
  }

  /// Members of compact schema Id.
  llvm::ArrayRef<SchemaMember> schema(uint32_t Id) const {
    const SchemaRange &R = Schemas[Id];
    return llvm::ArrayRef<SchemaMember>(SchemaMembers).slice(R.First, R.Count);
  }
  /// Member I of object node Obj (plain or compact) as a value.
  ArgValue memberAt(uint32_t Obj, uint32_t I) const;
  /// memberAt() for compact Obj when the member's schema entry is known:
  /// Container for an array or object, stored as a node index at word
  /// Offset of the object.
  ArgValue compactMember(uint32_t Obj, uint32_t I, bool Container,
                         uint16_t Offset) const {
    if (Container)
      return ArgValue(this, *Words.at(Nodes[Obj].C.First + Offset));
    return ArgValue(this, Obj, I + 1);
  }
  /// Member with key K of object node Obj; a null view when absent.
  ArgValue memberByKey(uint32_t Obj, StrId K, bool *Found = nullptr) const;
  /// Decoded scalar of member I of compact object Obj (Key = 0).
  ArgNode compactScalar(uint32_t Obj, uint32_t I) const;

  /// Store the members [R, R + Count) of an object compactly; returns the
  /// object node (not yet pushed: the caller places it).
  ArgNode makeCompact(const ArgNode *R, uint32_t Count);

  /// Everything appended since mark() can be dropped with truncate().
  struct Mark {
    size_t Nodes;
    uint64_t Words;
  };
  Mark mark() {
    Nodes.commit();
    return {Nodes.size(), Words.size()};
  }
  void truncate(const Mark &M) {
    Nodes.truncate(M.Nodes);
    Words.truncate(M.Words);
  }
  /// Node or word index space nearly used up (imports must stop).
  bool nearlyFull() const {
    return Nodes.size() >= UINT32_MAX - (1u << 20) ||
           Words.size() >= UINT32_MAX - (1u << 20);
  }

  NodeVector Nodes;
  WordVector Words;
  StringPool *Strings;

private:
  struct SchemaRange {
    uint32_t First, Count;
  };
  uint32_t internSchema(const SchemaMember *M, uint32_t Count);
  std::vector<SchemaMember> SchemaMembers;
  std::vector<SchemaRange> Schemas;
  llvm::DenseMap<uint64_t, uint32_t> SchemaIndex; // layout hash -> schema
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
    // data() + Start, not &Scratch[Start]: an empty outermost object has
    // Start == size(), where operator[] is undefined (UBSan: reference
    // binding to null on a never-used Scratch).
    const ArgNode *Kids = Scratch.data() + F.Start;
    // Nested containers (shapes, type lists, ...) repeat a lot: share one
    // copy of identical child ranges. Outermost args objects are unique
    // (they carry ids), so they are not indexed but stored compactly.
    if (!Open.empty() && Count)
      N.C.First = S.Nodes.internRange(Kids, Count);
    else if (!Open.empty())
      N.C.First = 0; // every empty container is the same value
    else if (F.IsObject && Count <= ArgStore::MaxCompactMembers) {
      uint32_t Key = N.Key;
      N = S.makeCompact(Kids, Count);
      N.Key = Key;
    } else {
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

/// Store a copy of V, a value of another store, in Dst as an outermost
/// value (strings and keys interned into Dst's pool); returns its node (0
/// for null). Iterative, so any nesting depth is fine.
uint32_t copyArgValue(ArgValue V, ArgStore &Dst);

/// Emit a copy of V (a value of another store, or of Dst) into B, a
/// builder of Dst, as the next value (after B.key() inside an object).
void appendArgValue(ArgBuilder &B, ArgValue V, ArgStore &Dst);

} // namespace tl

#endif // TL_IR_ARGSTORE_H
