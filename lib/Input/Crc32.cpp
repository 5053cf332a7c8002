//===- Crc32.cpp - CRC-32 (gzip's) over a byte span -----------------------===//
//
// zlib's table CRC costs about 14 ms on a 55 MB trace; folding 64 bytes at a
// time with carry-less multiplies (PCLMULQDQ; Gopal et al., "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction", Intel
// 2009, with the bit-reflected constants as in Chromium's zlib) takes a
// fraction of that. Other CPUs use zlib's crc32().
//
//===----------------------------------------------------------------------===//
#include "tl/Input/Crc32.h"

#include <algorithm>
#include <zlib.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace tl;

static uint32_t zlibCrc(uint32_t Crc, const uint8_t *P, size_t N) {
  while (N) {
    unsigned Part = unsigned(std::min<size_t>(N, 1u << 30));
    Crc = uint32_t(crc32(Crc, P, Part));
    P += Part;
    N -= Part;
  }
  return Crc;
}

#if defined(__x86_64__)
#define TL_FOLD_TARGET __attribute__((target("pclmul,sse4.1")))

TL_FOLD_TARGET static inline __m128i load16(const uint8_t *Q) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i *>(Q));
}

/// X folded 16 bytes forward by the constants K, plus Next.
TL_FOLD_TARGET static inline __m128i fold16(__m128i X, __m128i K,
                                            __m128i Next) {
  __m128i Lo = _mm_clmulepi64_si128(X, K, 0x00);
  __m128i Hi = _mm_clmulepi64_si128(X, K, 0x11);
  return _mm_xor_si128(_mm_xor_si128(Hi, Next), Lo);
}

/// The CRC register (not inverted) after N bytes, N >= 64 and a multiple of
/// 16.
TL_FOLD_TARGET static uint32_t foldCrc(uint32_t Crc, const uint8_t *P,
                                       size_t N) {
  alignas(16) static const uint64_t K1K2[] = {0x0154442bd4, 0x01c6e41596};
  alignas(16) static const uint64_t K3K4[] = {0x01751997d0, 0x00ccaa009e};
  alignas(16) static const uint64_t K5K0[] = {0x0163cd6124, 0x0000000000};
  alignas(16) static const uint64_t Poly[] = {0x01db710641, 0x01f7011641};
  __m128i X1 = load16(P), X2 = load16(P + 16), X3 = load16(P + 32),
          X4 = load16(P + 48);
  X1 = _mm_xor_si128(X1, _mm_cvtsi32_si128(int(Crc)));
  __m128i K = _mm_load_si128(reinterpret_cast<const __m128i *>(K1K2));
  P += 64;
  N -= 64;
  // Four 128-bit lanes folded 64 bytes ahead.
  for (; N >= 64; P += 64, N -= 64) {
    X1 = fold16(X1, K, load16(P));
    X2 = fold16(X2, K, load16(P + 16));
    X3 = fold16(X3, K, load16(P + 32));
    X4 = fold16(X4, K, load16(P + 48));
  }
  // Fold the four lanes into one, then the remaining 16-byte blocks.
  K = _mm_load_si128(reinterpret_cast<const __m128i *>(K3K4));
  X1 = fold16(X1, K, X2);
  X1 = fold16(X1, K, X3);
  X1 = fold16(X1, K, X4);
  for (; N >= 16; P += 16, N -= 16)
    X1 = fold16(X1, K, load16(P));
  // 128 -> 64 bits.
  X2 = _mm_clmulepi64_si128(X1, K, 0x10);
  X3 = _mm_setr_epi32(~0, 0, ~0, 0);
  X1 = _mm_xor_si128(_mm_srli_si128(X1, 8), X2);
  K = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(K5K0));
  X2 = _mm_srli_si128(X1, 4);
  X1 = _mm_and_si128(X1, X3);
  X1 = _mm_xor_si128(_mm_clmulepi64_si128(X1, K, 0x00), X2);
  // Barrett reduction to 32 bits.
  K = _mm_load_si128(reinterpret_cast<const __m128i *>(Poly));
  X2 = _mm_and_si128(X1, X3);
  X2 = _mm_clmulepi64_si128(X2, K, 0x10);
  X2 = _mm_and_si128(X2, X3);
  X2 = _mm_clmulepi64_si128(X2, K, 0x00);
  X1 = _mm_xor_si128(X1, X2);
  return uint32_t(_mm_extract_epi32(X1, 1));
}
#undef TL_FOLD_TARGET

static bool haveFold() {
  static const bool Have =
      __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return Have;
}
#endif

uint32_t tl::crc32Update(uint32_t Crc, const uint8_t *P, size_t N) {
#if defined(__x86_64__)
  if (N >= 64 && haveFold()) {
    size_t Bulk = N & ~size_t(15);
    Crc = ~foldCrc(~Crc, P, Bulk);
    P += Bulk;
    N -= Bulk;
  }
#endif
  return zlibCrc(Crc, P, N);
}
