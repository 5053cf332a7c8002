//===- SharedName.cpp - A name stored once per process --------------------===//
#include "tl/Support/SharedName.h"

#include <mutex>
#include <unordered_set>

using namespace llvm;

namespace tl {

namespace {
struct NameTable {
  std::mutex M;
  /// Node-based: an element's address never changes.
  std::unordered_set<std::string> Names;
};
} // namespace

/// Built on first use (no static constructor) and never destroyed, so that
/// names stay valid while other statics are torn down at exit.
static NameTable &nameTable() {
  static NameTable *T = new NameTable();
  return *T;
}

SharedName::SharedName(StringRef S) {
  if (S.empty())
    return;
  NameTable &T = nameTable();
  std::lock_guard<std::mutex> L(T.M);
  Text = &*T.Names.insert(S.str()).first;
}

} // namespace tl
