//===- JsonCompare.h - JSON mode of tl-conform -----------------*- C++ -*-===//
#ifndef TL_CONFORM_JSONCOMPARE_H
#define TL_CONFORM_JSONCOMPARE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl::conform {

/// Compare <OurDir>/<f> with <RefDir>/<f> for every reference *.json (or
/// only Files, by stem). Numbers agree within 1e-6 relative (1e-9 absolute;
/// ints and floats compare by value), objects need equal key sets (ours may
/// add a "tl_extensions" key), lists compare in order. Ignore entries are
/// `<stem>:<json path prefix>` (path like /kernel_analysis or
/// /impact_estimates/0/impact_score): mismatches under them are reported as
/// listed deviations. Returns the process exit code (0 ok, 1 mismatch,
/// 2 usage / I/O error).
int runJsonCompare(llvm::StringRef OurDir, llvm::StringRef RefDir,
                   llvm::ArrayRef<std::string> Files,
                   llvm::ArrayRef<std::string> Ignore, llvm::StringRef Label);

} // namespace tl::conform

#endif // TL_CONFORM_JSONCOMPARE_H
