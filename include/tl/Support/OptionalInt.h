//===- OptionalInt.h - An optional int64_t in 8 bytes -----------*- C++ -*-===//
//
// std::optional<int64_t> takes 16 bytes; a record a job keeps per rank and
// collective has five of them (tl/Analysis/CollectiveInstances.h). This one
// keeps "absent" as INT64_MIN, a value no trace field it holds (a sequence
// number, an element count, a step) can have, and converts to and from
// std::optional<int64_t> so that code written for that reads it unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_OPTIONALINT_H
#define TL_SUPPORT_OPTIONALINT_H

#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>

namespace tl {

class OptionalInt {
public:
  OptionalInt() = default;
  OptionalInt(std::nullopt_t) {}
  OptionalInt(int64_t X) : V(X) { assert(X != Absent && "INT64_MIN"); }
  OptionalInt(std::optional<int64_t> X) : V(X ? *X : Absent) {
    assert((!X || *X != Absent) && "INT64_MIN");
  }

  bool has_value() const { return V != Absent; }
  explicit operator bool() const { return has_value(); }
  int64_t operator*() const {
    assert(has_value() && "no value");
    return V;
  }
  int64_t value_or(int64_t Default) const {
    return has_value() ? V : Default;
  }
  std::optional<int64_t> get() const {
    return has_value() ? std::optional<int64_t>(V) : std::nullopt;
  }
  operator std::optional<int64_t>() const { return get(); }

  friend bool operator==(OptionalInt A, OptionalInt B) { return A.V == B.V; }
  friend bool operator!=(OptionalInt A, OptionalInt B) { return A.V != B.V; }

private:
  static constexpr int64_t Absent = std::numeric_limits<int64_t>::min();
  int64_t V = Absent;
};

} // namespace tl

#endif // TL_SUPPORT_OPTIONALINT_H
