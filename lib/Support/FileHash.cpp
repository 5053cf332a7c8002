//===- FileHash.cpp - XXH3-128 of a file, read in chunks ------------------===//
//
// A thin wrapper over libxxhash (Debian libxxhash-dev): its streaming
// XXH3-128 picks the widest vector kernel the CPU has at run time, which is
// what the hand-written SSE2/AVX2 loop here used to do.
//
//===----------------------------------------------------------------------===//
#include "tl/Support/FileHash.h"

#include <xxhash.h>

#include <cstdio>
#include <vector>

using namespace tl;

struct Xxh3Stream::State {
  XXH3_state_t *St = XXH3_createState();
  ~State() { XXH3_freeState(St); }
};

Xxh3Stream::Xxh3Stream() : S(std::make_unique<State>()) {
  // Allocation failure is the only way either call fails.
  if (!S->St || XXH3_128bits_reset(S->St) != XXH_OK)
    llvm::report_bad_alloc_error("XXH3 state");
}

Xxh3Stream::~Xxh3Stream() = default;

void Xxh3Stream::update(llvm::ArrayRef<uint8_t> Data) {
  Total += Data.size();
  XXH3_128bits_update(S->St, Data.data(), Data.size());
}

llvm::XXH128_hash_t Xxh3Stream::digest() const {
  XXH128_hash_t H = XXH3_128bits_digest(S->St);
  llvm::XXH128_hash_t R;
  R.low64 = H.low64;
  R.high64 = H.high64;
  return R;
}

llvm::Expected<llvm::XXH128_hash_t> tl::xxh3_128File(llvm::StringRef Path,
                                                     uint64_t &Size) {
  std::FILE *F = std::fopen(Path.str().c_str(), "rb");
  if (!F)
    return llvm::createStringError(
        std::make_error_code(std::errc::no_such_file_or_directory),
        "cannot open " + Path.str());
  Xxh3Stream S;
  std::vector<uint8_t> Chunk(1 << 20);
  size_t N;
  while ((N = std::fread(Chunk.data(), 1, Chunk.size(), F)) > 0)
    S.update(llvm::ArrayRef<uint8_t>(Chunk.data(), N));
  bool Err = std::ferror(F);
  std::fclose(F);
  if (Err)
    return llvm::createStringError(std::make_error_code(std::errc::io_error),
                                   "cannot read " + Path.str());
  Size = S.size();
  return S.digest();
}
