//===- PyValue.h - Python-like value for report cells ---------*- C++ -*-===//
//
// The reference writes raw Python objects into CSV/JSON cells (ints, floats,
// tuples, lists, dicts, strings, None). PyValue models exactly those so that
// str()/repr() text can be reproduced byte for byte.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_PYVALUE_H
#define TL_SUPPORT_PYVALUE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm::json {
class OStream;
class Value;
} // namespace llvm::json

namespace tl {

class PyValue {
public:
  enum class Kind { None, Bool, Int, Float, Str, Tuple, List, Dict };

  PyValue() = default; // None
  static PyValue none() { return PyValue(); }
  static PyValue boolean(bool B);
  static PyValue integer(int64_t I);
  static PyValue real(double D);
  static PyValue str(llvm::StringRef S);
  static PyValue tuple(std::vector<PyValue> Elems);
  static PyValue list(std::vector<PyValue> Elems);
  /// Dict with string keys, in insertion order.
  static PyValue dict(std::vector<std::pair<std::string, PyValue>> Items);
  /// Tuple of ints, the usual shape representation.
  static PyValue intTuple(llvm::ArrayRef<int64_t> Elems);

  Kind kind() const { return K; }
  bool isNone() const { return K == Kind::None; }
  bool isNumber() const {
    return K == Kind::Int || K == Kind::Float || K == Kind::Bool;
  }
  bool getBool() const { return I != 0; }
  int64_t getInt() const { return I; }
  double getFloat() const { return D; }
  /// Int, bool or float as a double.
  double asDouble() const;
  const std::string &getStr() const { return S; }
  const std::vector<PyValue> &elems() const { return Elems; }
  const std::vector<std::pair<std::string, PyValue>> &items() const {
    return Items;
  }

  /// Python truthiness.
  bool truthy() const;

  friend bool operator==(const PyValue &A, const PyValue &B);
  friend bool operator!=(const PyValue &A, const PyValue &B) {
    return !(A == B);
  }

private:
  Kind K = Kind::None;
  int64_t I = 0;
  double D = 0;
  std::string S;
  std::vector<PyValue> Elems;
  std::vector<std::pair<std::string, PyValue>> Items;
};

bool operator==(const PyValue &A, const PyValue &B);

/// Python repr(): strings quoted.
std::string pyRepr(const PyValue &V);
/// Python str(): like repr() except a top-level string prints bare.
std::string pyStr(const PyValue &V);
/// json.dumps(V) (Indent < 0) or json.dumps(V, indent=Indent): tuples become
/// lists, None null, NaN NaN, ensure_ascii escapes; separators ", " / ": "
/// (", " becomes "," with an indent, as in Python).
std::string pyJsonDumps(const PyValue &V, int Indent = -1);
/// What llvm::json::parse(pyJsonDumps(V)) gives, built without printing
/// and parsing; std::nullopt where that parse would fail or change a value
/// (NaN/Infinity, invalid UTF-8, a repeated dict key).
std::optional<llvm::json::Value> pyJsonValue(const PyValue &V);
/// V as the next value of J: strings as llvm::json writes them (UTF-8, not
/// ensure_ascii escapes), floats as json.dumps does (jsonNumber), tuples
/// as lists. tl's own JSON files keep their spelling when their data is a
/// PyValue document.
void writePyJson(llvm::json::OStream &J, const PyValue &V);

} // namespace tl

#endif // TL_SUPPORT_PYVALUE_H
