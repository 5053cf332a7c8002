//===- FileHash.h - XXH3-128 of a file, read in chunks ----------*- C++ -*-===//
//
// The findings.json trace hash. Mapping a GB trace to hash it in one call
// made the whole file resident at report time; this reads it in fixed
// chunks with the XXH3 long-input loop kept as a running state, so memory
// stays constant. Equal to llvm::xxh3_128bits over the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_FILEHASH_H
#define TL_SUPPORT_FILEHASH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/xxhash.h"

#include <cstdint>
#include <vector>

namespace tl {

/// llvm::xxh3_128bits of the file's bytes (as stored), and its size.
llvm::Expected<llvm::XXH128_hash_t> xxh3_128File(llvm::StringRef Path,
                                                 uint64_t &Size);

/// Running XXH3-128 state (exposed for tests): update() with any split of
/// the input, then digest() equals llvm::xxh3_128bits of the concatenation.
class Xxh3Stream {
public:
  Xxh3Stream();
  void update(llvm::ArrayRef<uint8_t> Data);
  llvm::XXH128_hash_t digest() const;
  uint64_t size() const { return Total; }

private:
  void consumeBlock(const uint8_t *Block);
  uint64_t Acc[8];
  uint64_t Total = 0;
  /// Unconsumed bytes: at most one block (1024 B) plus the block being
  /// filled; the previous 64 bytes stay in front for the last stripe.
  std::vector<uint8_t> Buf;
  size_t Start = 0; // first unconsumed byte in Buf
};

} // namespace tl

#endif // TL_SUPPORT_FILEHASH_H
