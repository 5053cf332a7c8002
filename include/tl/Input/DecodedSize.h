//===- DecodedSize.h - How many JSON bytes a trace file holds ---*- C++ -*-===//
//
// The known total for import progress: a plain file's size, or a gzip
// file's ISIZE trailer (its uncompressed size mod 2^32) when it is
// plausible — at least the compressed size, as a single-member file under
// 4 GiB has. Otherwise unknown: progress then shows bytes read only.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_DECODEDSIZE_H
#define TL_INPUT_DECODEDSIZE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace tl {

std::optional<uint64_t> decodedSizeHint(llvm::StringRef Path);

} // namespace tl

#endif // TL_INPUT_DECODEDSIZE_H
