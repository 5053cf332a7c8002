//===- FileHash.cpp - XXH3-128 of a file, read in chunks ------------------===//
//
// The long-input path of XXH3-128 (xxHash 0.8, scalar): 64-byte stripes into
// eight accumulators, a scramble after every 1024-byte block, the last
// stripe taken from the final 64 bytes, then two merges. Inputs of at most
// 240 bytes use other formulas; they are short, so they go to
// llvm::xxh3_128bits whole.
//
//===----------------------------------------------------------------------===//
#include "tl/Support/FileHash.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define TL_FILEHASH_AVX2 1
#endif

using namespace tl;

namespace {

constexpr uint8_t Secret[192] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c,
    0xf7, 0x21, 0xad, 0x1c, 0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb,
    0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, 0xcb, 0x79, 0xe6, 0x4e,
    0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6,
    0x81, 0x3a, 0x26, 0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb,
    0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97,
    0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7,
    0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31,
    0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, 0xea, 0xc5, 0xac, 0x83,
    0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26,
    0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc,
    0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f,
    0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

constexpr uint64_t Prime32_1 = 0x9E3779B1U, Prime32_2 = 0x85EBCA77U,
                   Prime32_3 = 0xC2B2AE3DU;
constexpr uint64_t Prime64_1 = 0x9E3779B185EBCA87ULL,
                   Prime64_2 = 0xC2B2AE3D27D4EB4FULL,
                   Prime64_3 = 0x165667B19E3779F9ULL,
                   Prime64_4 = 0x85EBCA77C2B2AE63ULL,
                   Prime64_5 = 0x27D4EB2F165667C5ULL;
constexpr size_t StripeLen = 64, SecretConsume = 8;
constexpr size_t StripesPerBlock = (sizeof(Secret) - StripeLen) / SecretConsume;
constexpr size_t BlockLen = StripeLen * StripesPerBlock; // 1024
constexpr size_t ShortMax = 240;

uint64_t read64(const uint8_t *P) {
  return llvm::support::endian::read64le(P);
}

void accumulate512(uint64_t *Acc, const uint8_t *In, const uint8_t *Sec) {
#if defined(__SSE2__)
  // xxHash's SSE2 kernel (x86-64 baseline): two lanes per vector, the
  // 32x32->64 product by _mm_mul_epu32; 2-3x the scalar loop, which made
  // hashing a GB trace cost 0.4 s of CPU.
  for (size_t I = 0; I < 4; ++I) {
    __m128i Data = _mm_loadu_si128((const __m128i *)(In + 16 * I));
    __m128i Key = _mm_loadu_si128((const __m128i *)(Sec + 16 * I));
    __m128i DataKey = _mm_xor_si128(Data, Key);
    __m128i DataKeyHi = _mm_shuffle_epi32(DataKey, _MM_SHUFFLE(0, 3, 0, 1));
    __m128i Product = _mm_mul_epu32(DataKey, DataKeyHi);
    __m128i Swapped = _mm_shuffle_epi32(Data, _MM_SHUFFLE(1, 0, 3, 2));
    __m128i *A = (__m128i *)(Acc + 2 * I);
    __m128i Sum = _mm_add_epi64(_mm_loadu_si128(A), Swapped);
    _mm_storeu_si128(A, _mm_add_epi64(Product, Sum));
  }
#else
  for (size_t I = 0; I < 8; ++I) {
    uint64_t V = read64(In + 8 * I);
    uint64_t K = V ^ read64(Sec + 8 * I);
    Acc[I ^ 1] += V;
    Acc[I] += uint64_t(uint32_t(K)) * (K >> 32);
  }
#endif
}

void accumulate(uint64_t *Acc, const uint8_t *In, size_t NbStripes) {
  for (size_t N = 0; N < NbStripes; ++N)
    accumulate512(Acc, In + N * StripeLen, Secret + N * SecretConsume);
}

void scramble(uint64_t *Acc) {
  const uint8_t *Sec = Secret + sizeof(Secret) - StripeLen;
  for (size_t I = 0; I < 8; ++I) {
    uint64_t A = Acc[I];
    A ^= A >> 47;
    A ^= read64(Sec + 8 * I);
    Acc[I] = A * Prime32_1;
  }
}

uint64_t mul128Fold64(uint64_t L, uint64_t R) {
  unsigned __int128 P = (unsigned __int128)L * R;
  return uint64_t(P) ^ uint64_t(P >> 64);
}

uint64_t avalanche(uint64_t H) {
  H ^= H >> 37;
  H *= 0x165667919E3779F9ULL;
  return H ^ (H >> 32);
}

uint64_t mergeAccs(const uint64_t *Acc, const uint8_t *Sec, uint64_t Start) {
  uint64_t R = Start;
  for (size_t I = 0; I < 4; ++I)
    R += mul128Fold64(Acc[2 * I] ^ read64(Sec + 16 * I),
                      Acc[2 * I + 1] ^ read64(Sec + 16 * I + 8));
  return avalanche(R);
}

void consumeBlocksPortable(uint64_t *Acc, const uint8_t *In, size_t N) {
  for (size_t B = 0; B < N; ++B) {
    accumulate(Acc, In + B * BlockLen, StripesPerBlock);
    scramble(Acc);
  }
}

#ifdef TL_FILEHASH_AVX2
/// xxHash's AVX2 kernels (four lanes per vector), the accumulators kept in
/// two registers across all N blocks. Same arithmetic lane by lane, so
/// the same hash. (Reading the file, not hashing it, is most of the cost:
/// 1 GB trace 0.21 s system time to copy it out of the page cache, 0.05 s
/// SSE2 hashing, 0.03 s AVX2.)
__attribute__((target("avx2"))) inline __m256i
accumulateAvx2(__m256i A, __m256i Data, __m256i Key) {
  __m256i DataKey = _mm256_xor_si256(Data, Key);
  __m256i DataKeyLo = _mm256_srli_epi64(DataKey, 32);
  __m256i Product = _mm256_mul_epu32(DataKey, DataKeyLo);
  __m256i Swapped = _mm256_shuffle_epi32(Data, _MM_SHUFFLE(1, 0, 3, 2));
  return _mm256_add_epi64(Product, _mm256_add_epi64(A, Swapped));
}

__attribute__((target("avx2"))) inline __m256i
scrambleAvx2(__m256i A, __m256i Key, __m256i Prime) {
  __m256i V = _mm256_xor_si256(A, _mm256_srli_epi64(A, 47));
  __m256i DataKey = _mm256_xor_si256(V, Key);
  __m256i Hi = _mm256_srli_epi64(DataKey, 32);
  __m256i Lo = _mm256_mul_epu32(DataKey, Prime);
  __m256i HiP = _mm256_mul_epu32(Hi, Prime);
  return _mm256_add_epi64(Lo, _mm256_slli_epi64(HiP, 32));
}

__attribute__((target("avx2"))) void
consumeBlocksAvx2(uint64_t *Acc, const uint8_t *In, size_t N) {
  __m256i A0 = _mm256_loadu_si256((const __m256i *)Acc);
  __m256i A1 = _mm256_loadu_si256((const __m256i *)(Acc + 4));
  const __m256i Prime = _mm256_set1_epi32(int(Prime32_1));
  const uint8_t *ScrSec = Secret + sizeof(Secret) - StripeLen;
  const __m256i Scr0 = _mm256_loadu_si256((const __m256i *)ScrSec);
  const __m256i Scr1 = _mm256_loadu_si256((const __m256i *)(ScrSec + 32));
  for (size_t B = 0; B < N; ++B) {
    const uint8_t *Blk = In + B * BlockLen;
    for (size_t S = 0; S < StripesPerBlock; ++S) {
      const uint8_t *P = Blk + S * StripeLen;
      const uint8_t *K = Secret + S * SecretConsume;
      A0 = accumulateAvx2(A0, _mm256_loadu_si256((const __m256i *)P),
                          _mm256_loadu_si256((const __m256i *)K));
      A1 = accumulateAvx2(A1, _mm256_loadu_si256((const __m256i *)(P + 32)),
                          _mm256_loadu_si256((const __m256i *)(K + 32)));
    }
    A0 = scrambleAvx2(A0, Scr0, Prime);
    A1 = scrambleAvx2(A1, Scr1, Prime);
  }
  _mm256_storeu_si256((__m256i *)Acc, A0);
  _mm256_storeu_si256((__m256i *)(Acc + 4), A1);
}
#endif

/// N whole blocks, each accumulated then scrambled.
void consumeBlocks(uint64_t *Acc, const uint8_t *In, size_t N) {
#ifdef TL_FILEHASH_AVX2
  static const bool HasAvx2 = __builtin_cpu_supports("avx2");
  if (HasAvx2)
    return consumeBlocksAvx2(Acc, In, N);
#endif
  consumeBlocksPortable(Acc, In, N);
}

} // namespace

Xxh3Stream::Xxh3Stream()
    : Acc{Prime32_3, Prime64_1, Prime64_2, Prime64_3,
          Prime64_4, Prime32_2, Prime64_5, Prime32_1} {}

void Xxh3Stream::consumeBlock(const uint8_t *Block) {
  consumeBlocks(Acc, Block, 1);
}

void Xxh3Stream::update(llvm::ArrayRef<uint8_t> Data) {
  Total += Data.size();
  // A block is final only when at least one byte follows it. Whole blocks
  // are hashed straight from Data; only a block straddling two calls is
  // copied.
  size_t Pending = Buf.size() - Start;
  if (Pending > 0) {
    size_t Need = BlockLen - Pending;
    if (Data.size() <= Need) {
      Buf.insert(Buf.end(), Data.begin(), Data.end());
      return;
    }
    Buf.insert(Buf.end(), Data.begin(), Data.begin() + Need);
    Data = Data.drop_front(Need);
    consumeBlock(Buf.data() + Start);
    Start += BlockLen;
  }
  size_t N = Data.empty() ? 0 : (Data.size() - 1) / BlockLen;
  consumeBlocks(Acc, Data.data(), N);
  // Keep the 64 bytes before the first unconsumed one: digest's last
  // stripe may reach back into them.
  if (N > 0) {
    llvm::ArrayRef<uint8_t> Keep =
        Data.slice(N * BlockLen - StripeLen, StripeLen);
    Buf.assign(Keep.begin(), Keep.end());
    Start = StripeLen;
  } else {
    size_t KeepLen = std::min(Start, StripeLen);
    Buf.erase(Buf.begin(), Buf.begin() + (Start - KeepLen));
    Start = KeepLen;
  }
  llvm::ArrayRef<uint8_t> Rest = Data.drop_front(N * BlockLen);
  Buf.insert(Buf.end(), Rest.begin(), Rest.end());
}

llvm::XXH128_hash_t Xxh3Stream::digest() const {
  if (Total <= ShortMax)
    return llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(Buf).slice(Start));
  uint64_t A[8];
  std::memcpy(A, Acc, sizeof(A));
  // The partial last block (1..1024 bytes), all but its final byte's stripe.
  size_t Rest = Buf.size() - Start;
  accumulate(A, Buf.data() + Start, (Rest - 1) / StripeLen);
  // The last stripe: the final 64 bytes of the input (they may reach back
  // into the consumed part, kept in Buf for this).
  accumulate512(A, Buf.data() + Buf.size() - StripeLen,
                Secret + sizeof(Secret) - StripeLen - 7);
  llvm::XXH128_hash_t H;
  H.low64 = mergeAccs(A, Secret + 11, Total * Prime64_1);
  H.high64 = mergeAccs(A, Secret + sizeof(Secret) - StripeLen - 11,
                       ~(Total * Prime64_2));
  return H;
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
