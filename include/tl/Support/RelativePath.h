//===- RelativePath.h - A path relative to a directory ----------*- C++ -*-===//
//
// Reports name the trace and their own files relative to the output
// directory, so two runs of one trace into sibling directories write the
// same bytes and no absolute path of the machine ends up in a report.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_RELATIVEPATH_H
#define TL_SUPPORT_RELATIVEPATH_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

/// Path as seen from the directory Base ("../traces/t.json.gz"), with '/'
/// separators; both are made absolute against the working directory and
/// lexically normalized first (symlinks are not resolved). "." when Path is
/// Base.
std::string relativePath(llvm::StringRef Path, llvm::StringRef Base);

} // namespace tl

#endif // TL_SUPPORT_RELATIVEPATH_H
