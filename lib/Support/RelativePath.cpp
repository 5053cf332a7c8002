//===- RelativePath.cpp - A path relative to a directory ------------------===//
#include "tl/Support/RelativePath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tl {

static SmallVector<std::string, 16> components(StringRef P) {
  SmallString<256> A(P);
  sys::fs::make_absolute(A);
  sys::path::remove_dots(A, /*remove_dot_dot=*/true);
  SmallVector<std::string, 16> C;
  for (auto It = sys::path::begin(A), E = sys::path::end(A); It != E; ++It)
    C.push_back(It->str());
  return C;
}

std::string relativePath(StringRef Path, StringRef Base) {
  SmallVector<std::string, 16> P = components(Path), B = components(Base);
  size_t Common = 0;
  while (Common < P.size() && Common < B.size() && P[Common] == B[Common])
    ++Common;
  std::string R;
  for (size_t I = Common; I < B.size(); ++I)
    R += R.empty() ? ".." : "/..";
  for (size_t I = Common; I < P.size(); ++I)
    R += (R.empty() ? "" : "/") + P[I];
  return R.empty() ? "." : R;
}

} // namespace tl
