//===- SharedName.h - A name stored once per process -----------*- C++ -*-===//
//
// A job keeps a record per rank and collective (tl/Analysis/
// CollectiveInstances.h) long after the rank's IR is gone. Their names (a
// process group, a collective, a dtype, an NCCL kernel) are a handful of
// distinct strings repeated in every record: as std::string each, a long
// kernel name cost a heap block per record. A SharedName is a pointer to
// one interned copy of its text (8 bytes, equality by pointer), shared by
// every thread of the process. The texts are never freed: a run meets few
// distinct names, and records from any rank and any time compare equal.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_SHAREDNAME_H
#define TL_SUPPORT_SHAREDNAME_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

class SharedName {
public:
  SharedName() = default;
  /// Interns S (thread-safe; takes a process-wide lock).
  explicit SharedName(llvm::StringRef S);

  llvm::StringRef ref() const {
    return Text ? llvm::StringRef(Text->data(), Text->size())
                : llvm::StringRef();
  }
  operator llvm::StringRef() const { return ref(); }
  std::string str() const { return ref().str(); }
  bool empty() const { return !Text; }
  size_t size() const { return ref().size(); }

  friend bool operator==(SharedName A, SharedName B) {
    return A.Text == B.Text;
  }
  friend bool operator!=(SharedName A, SharedName B) {
    return A.Text != B.Text;
  }
  friend bool operator==(SharedName A, llvm::StringRef B) {
    return A.ref() == B;
  }
  friend bool operator!=(SharedName A, llvm::StringRef B) {
    return A.ref() != B;
  }
  friend bool operator==(llvm::StringRef A, SharedName B) {
    return A == B.ref();
  }
  friend bool operator!=(llvm::StringRef A, SharedName B) {
    return A != B.ref();
  }

private:
  /// The interned text; null for "".
  const std::string *Text = nullptr;
};

} // namespace tl

#endif // TL_SUPPORT_SHAREDNAME_H
