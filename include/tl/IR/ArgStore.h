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

#include <cstdint>
#include <vector>

namespace tl {

struct ArgNode {
  ArgValue::Type Ty = ArgValue::Type::Null;
  uint32_t Key = 0; // member key (StrId) when the node is an object member
  union {
    int64_t I;  // Int, Bool
    double D;   // Double
    StrId Str;  // String
    struct {
      uint32_t First, Count;
    } C; // Array, Object
  };
  ArgNode() : I(0) {}
};
static_assert(sizeof(ArgNode) == 16, "ArgNode must stay 16 bytes");

class ArgStore {
public:
  explicit ArgStore(StringPool *Strings) : Strings(Strings) {
    Nodes.emplace_back(); // node 0: Null
  }
  ArgValue value(uint32_t Node) const { return ArgValue(this, Node); }
  const ArgNode &node(uint32_t N) const { return Nodes[N]; }
  const StringPool &strings() const { return *Strings; }
  size_t memoryBytes() const { return Nodes.capacity() * sizeof(ArgNode); }

  std::vector<ArgNode> Nodes;
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
    N.C.First = uint32_t(S.Nodes.size());
    N.C.Count = Count;
    N.Key = F.Key;
    S.Nodes.insert(S.Nodes.end(), Scratch.begin() + F.Start, Scratch.end());
    Scratch.resize(F.Start);
    Scratch.push_back(N);
  }
  size_t depth() const { return Open.size(); }
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
