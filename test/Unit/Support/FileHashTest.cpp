//===- FileHashTest.cpp - Streaming XXH3-128 equals llvm::xxh3_128bits ----===//
#include "tl/Support/FileHash.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace tl;

namespace {

std::vector<uint8_t> bytes(size_t N, unsigned Seed) {
  std::mt19937 G(Seed);
  std::vector<uint8_t> V(N);
  for (uint8_t &B : V)
    B = uint8_t(G());
  return V;
}

// Every length class (short formulas, exact block multiples, a last block
// shorter than one stripe) and several ways to split the input.
TEST(FileHash, StreamEqualsOneShot) {
  for (size_t N : {0, 1, 16, 17, 128, 129, 240, 241, 1023, 1024, 1025, 1088,
                   2048, 2049, 4096 + 63, 4096 + 64, 4096 + 65, 100000,
                   3 * 1024 * 1024 + 7}) {
    std::vector<uint8_t> D = bytes(N, unsigned(N));
    llvm::XXH128_hash_t Want = llvm::xxh3_128bits(D);
    for (size_t Piece : {size_t(1), size_t(63), size_t(1000), size_t(1 << 20)}) {
      if (Piece == 1 && N > 5000)
        continue;
      Xxh3Stream S;
      for (size_t I = 0; I < N; I += Piece)
        S.update(llvm::ArrayRef<uint8_t>(D).slice(I, std::min(Piece, N - I)));
      llvm::XXH128_hash_t Got = S.digest();
      EXPECT_EQ(Got.low64, Want.low64) << "N=" << N << " piece=" << Piece;
      EXPECT_EQ(Got.high64, Want.high64) << "N=" << N << " piece=" << Piece;
      EXPECT_EQ(S.size(), N);
    }
  }
}

} // namespace
