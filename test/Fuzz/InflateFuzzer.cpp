//===- InflateFuzzer.cpp - libFuzzer target: fast gzip decoder vs zlib ----===//
//
// Two checks per input. The bytes as a gzip stream: the fast decoder must
// accept it exactly when zlib (member after member, as InputStream calls it)
// does, with the same output. The bytes as data: deflated by zlib with
// parameters taken from the first byte, they must decode back unchanged.
//
//===----------------------------------------------------------------------===//
#include "Inflate.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <zlib.h>

static constexpr size_t MaxOut = 1 << 22; // keeps inflate bombs cheap

/// zlib's verdict and output; false as well past MaxOut bytes.
static bool zlibGunzip(const uint8_t *In, size_t N, std::string &Out) {
  z_stream Z;
  std::memset(&Z, 0, sizeof(Z));
  inflateInit2(&Z, 15 + 16);
  Z.next_in = const_cast<Bytef *>(In);
  Z.avail_in = unsigned(N);
  static char Buf[1 << 16];
  bool Ok = false;
  for (;;) {
    Z.next_out = reinterpret_cast<Bytef *>(Buf);
    Z.avail_out = sizeof(Buf);
    int Ret = inflate(&Z, Z_NO_FLUSH);
    Out.append(Buf, sizeof(Buf) - Z.avail_out);
    if (Out.size() > MaxOut)
      break;
    if (Ret == Z_STREAM_END) {
      if (!Z.avail_in) {
        Ok = true;
        break;
      }
      inflateReset(&Z);
      continue;
    }
    if ((Ret != Z_OK && Ret != Z_BUF_ERROR) || (!Z.avail_in && Z.avail_out))
      break;
  }
  inflateEnd(&Z);
  return Ok;
}

static void check(const uint8_t *In, size_t N) {
  std::string Want;
  bool ZOk = zlibGunzip(In, N, Want);
  static std::vector<uint8_t> Out(MaxOut);
  size_t Got = 0;
  tl::InflateStatus St = tl::gunzipBuffer(
      In, N, Out.data(), MaxOut, Got, [](size_t) { return true; }, 1 << 16);
  bool FOk = St == tl::InflateStatus::Done;
  if (ZOk != FOk || (ZOk && (Got != Want.size() ||
                             std::memcmp(Out.data(), Want.data(), Got)))) {
    std::fprintf(stderr, "fast decoder %s, zlib %s (%zu / %zu bytes)\n",
                 FOk ? "accepts" : "rejects", ZOk ? "accepts" : "rejects", Got,
                 Want.size());
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  check(Data, Size);
  if (!Size)
    return 0;
  // Level 0..9, window bits 9..15, strategy 0..4 from the first byte.
  unsigned P = Data[0];
  z_stream Z;
  std::memset(&Z, 0, sizeof(Z));
  if (deflateInit2(&Z, int(P % 10), Z_DEFLATED, int(9 + (P / 10) % 7) + 16, 8,
                   int((P / 70) % 5)) != Z_OK)
    return 0;
  std::vector<uint8_t> Gz(deflateBound(&Z, uLong(Size)) + 64);
  Z.next_in = const_cast<Bytef *>(Data);
  Z.avail_in = unsigned(Size);
  Z.next_out = Gz.data();
  Z.avail_out = unsigned(Gz.size());
  int Ret = deflate(&Z, Z_FINISH);
  size_t Len = Z.total_out;
  deflateEnd(&Z);
  if (Ret != Z_STREAM_END)
    std::abort();
  check(Gz.data(), Len);
  return 0;
}
