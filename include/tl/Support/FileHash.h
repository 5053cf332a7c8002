//===- FileHash.h - XXH3-128 of a file, read in chunks ----------*- C++ -*-===//
//
// The findings.json trace hash. Mapping a GB trace to hash it in one call
// made the whole file resident at report time; this reads it in fixed
// chunks through libxxhash's streaming XXH3-128, so memory stays constant.
// Equal to llvm::xxh3_128bits over the same bytes (both are XXH3-128 with
// the default secret and seed 0).
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_FILEHASH_H
#define TL_SUPPORT_FILEHASH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/xxhash.h"

#include <cstdint>
#include <memory>

namespace tl {

/// llvm::xxh3_128bits of the file's bytes (as stored), and its size.
llvm::Expected<llvm::XXH128_hash_t> xxh3_128File(llvm::StringRef Path,
                                                 uint64_t &Size);

/// Running XXH3-128 state (exposed for tests): update() with any split of
/// the input, then digest() equals llvm::xxh3_128bits of the concatenation.
class Xxh3Stream {
public:
  Xxh3Stream();
  ~Xxh3Stream();
  Xxh3Stream(const Xxh3Stream &) = delete;
  Xxh3Stream &operator=(const Xxh3Stream &) = delete;
  void update(llvm::ArrayRef<uint8_t> Data);
  llvm::XXH128_hash_t digest() const;
  uint64_t size() const { return Total; }

private:
  /// libxxhash's XXH3_state_t, kept opaque so xxhash.h stays out of our
  /// headers.
  struct State;
  std::unique_ptr<State> S;
  uint64_t Total = 0;
};

} // namespace tl

#endif // TL_SUPPORT_FILEHASH_H
