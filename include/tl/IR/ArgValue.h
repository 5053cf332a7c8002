//===- ArgValue.h - Compact JSON-like values for event args ----*- C++ -*-===//
//
// `args` of every event (and the trace's top-level keys) are stored in one
// arena as a tree of nodes. ArgValue is a cheap, copyable view of one node.
// Numbers keep both their integer form (when the JSON text was an integer)
// and their correctly rounded double.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IR_ARGVALUE_H
#define TL_IR_ARGVALUE_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace tl {

class ArgStore;
struct ArgNode;

/// Member places of a few keys in the last compact args layout seen
/// (ArgValue::getByKeyIds; one per caller and key list).
struct ArgKeySlots {
  static constexpr unsigned MaxKeys = 8;
  uint32_t Layout = ~0u; // schema id the places belong to
  int32_t Pos[MaxKeys];  // member index, -1 when absent
  /// Containers are stored as a node index at word Offset[J] of the object.
  uint16_t Offset[MaxKeys];
  bool Container[MaxKeys];
};

class ArgValue {
public:
  enum class Type : uint8_t { Null, Bool, Int, Double, String, Array, Object };

  ArgValue() = default;
  ArgValue(const ArgStore *S, uint32_t Node) : S(S), Node(Node) {}
  /// Scalar member Member - 1 of the compact object Node (ArgStore only).
  ArgValue(const ArgStore *S, uint32_t Node, uint32_t Member)
      : S(S), Node(Node), Member(Member) {}

  Type type() const;
  bool isNull() const { return type() == Type::Null; }
  bool isBool() const { return type() == Type::Bool; }
  bool isInt() const { return type() == Type::Int; }
  bool isDouble() const { return type() == Type::Double; }
  bool isNumber() const { return isInt() || isDouble(); }
  bool isString() const { return type() == Type::String; }
  bool isArray() const { return type() == Type::Array; }
  bool isObject() const { return type() == Type::Object; }

  bool getBool() const;
  int64_t getInt() const;       // Int (Double truncated)
  double getDouble() const;     // Double or Int converted
  llvm::StringRef getString() const;
  /// Int if this is an integer (or an integral double), else nullopt.
  std::optional<int64_t> asInt() const;
  std::optional<double> asDouble() const;

  /// Array elements or object members.
  size_t size() const;
  ArgValue operator[](size_t I) const;   // array element (Null if out of range)
  llvm::StringRef keyAt(size_t I) const; // object member key
  ArgValue valueAt(size_t I) const;      // object member value
  /// Object member by key (Null when absent or not an object).
  ArgValue get(llvm::StringRef Key) const;
  bool has(llvm::StringRef Key) const { return !get(Key).isNull() || hasKey(Key); }
  bool hasKey(llvm::StringRef Key) const;
  /// Object member by interned key id (StringPool::lookup of the key, 0 =
  /// absent): callers asking many events for the same keys look each key
  /// up once. Found, when non-null, tells a present null from an absent key.
  ArgValue getByKeyId(uint32_t KeyId, bool *Found = nullptr) const;
  /// getByKeyId for N <= ArgKeySlots::MaxKeys keys at once: Out[J] (and
  /// Found[J] when Found is non-null) as getByKeyId(KeyIds[J]) gives them.
  /// Args objects share a few layouts: Slots remembers the members' places
  /// in the last layout, so events of that layout skip the key search.
  void getByKeyIds(const uint32_t *KeyIds, unsigned N, ArgValue *Out,
                   ArgKeySlots &Slots, bool *Found = nullptr) const;

  /// JSON text of this value (compact, keys in original order).
  std::string toJson() const;

  explicit operator bool() const { return S != nullptr; }
  /// The stored node this view denotes: equal identities hold equal values
  /// (nested containers are interned, so equal shape lists usually share
  /// one), which lets analyses cache work per distinct value.
  uint64_t identity() const { return (uint64_t(Node) << 32) | Member; }

private:
  /// The node this view denotes (decoded for a compact object's member).
  ArgNode resolve() const;

  const ArgStore *S = nullptr;
  uint32_t Node = 0;
  uint32_t Member = 0; // 0: Node itself; else a compact object's member
};

} // namespace tl

#endif // TL_IR_ARGVALUE_H
