//===- StringPool.h - Interned strings -------------------------*- C++ -*-===//
#ifndef TL_IR_STRINGPOOL_H
#define TL_IR_STRINGPOOL_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <memory>

namespace tl {

/// Handle of an interned string; 0 is always the empty string.
using StrId = uint32_t;

/// Owns every distinct string of a trace once. Not thread-safe for interning;
/// lookups on a finished pool are.
class StringPool {
public:
  StringPool();
  ~StringPool();
  StringPool(StringPool &&) noexcept;
  StringPool &operator=(StringPool &&) noexcept;

  StrId intern(llvm::StringRef S);
  /// Id of S if already interned, else 0 (or 0 for the empty string).
  StrId lookup(llvm::StringRef S) const;
  llvm::StringRef get(StrId Id) const;
  size_t size() const;
  /// Bytes held by the pool (strings plus index).
  size_t memoryBytes() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace tl

#endif // TL_IR_STRINGPOOL_H
