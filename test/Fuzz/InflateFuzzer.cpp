//===- InflateFuzzer.cpp - libFuzzer target: fast gzip decoder vs zlib ----===//
//
// Two checks per input. The bytes as a gzip stream: the fast decoder must
// accept it exactly when zlib (member after member, as InputStream calls it)
// does, with the same output, and InflateChunks must cut it as zlib's calls
// do (small raw chunks and rooms taken from the last bytes). The bytes as
// data: deflated by zlib with parameters taken from the first byte, they
// must decode back unchanged, in the same cuts.
//
//===----------------------------------------------------------------------===//
#include "tl/Input/Inflate.h"

#include <algorithm>
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

/// The outputs of InputStream's zlib calls: RawChunk input bytes read at a
/// time, Cap bytes of room per call, members one after another. Ok when
/// the input ended after a member.
static std::vector<std::string>
zlibCalls(const uint8_t *In, size_t N, size_t RawChunk, size_t Cap, bool &Ok) {
  std::vector<std::string> Calls;
  z_stream Z;
  std::memset(&Z, 0, sizeof(Z));
  inflateInit2(&Z, 15 + 16);
  size_t Pos = 0;
  auto ReadRaw = [&] {
    size_t G = std::min(RawChunk, N - Pos);
    Z.next_in = const_cast<Bytef *>(In + Pos);
    Z.avail_in = unsigned(G);
    Pos += G;
    return G;
  };
  ReadRaw(); // start() reads before the first call
  std::string Buf(Cap, '\0');
  bool StreamEnd = false;
  Ok = false;
  for (size_t Total = 0; Total <= (64 << 10);) {
    size_t Got = 0;
    while (Got == 0) {
      if (StreamEnd) {
        if (Z.avail_in == 0 && ReadRaw() == 0) {
          Ok = true;
          inflateEnd(&Z);
          return Calls;
        }
        inflateReset(&Z);
        StreamEnd = false;
      }
      if (Z.avail_in == 0 && ReadRaw() == 0) {
        inflateEnd(&Z);
        return Calls; // truncated
      }
      Z.next_out = reinterpret_cast<Bytef *>(Buf.data());
      Z.avail_out = unsigned(Cap);
      int Ret = inflate(&Z, Z_NO_FLUSH);
      Got = Cap - Z.avail_out;
      if (Ret == Z_STREAM_END) {
        StreamEnd = true;
      } else if (Ret != Z_OK && Ret != Z_BUF_ERROR) {
        inflateEnd(&Z);
        return Calls;
      }
    }
    Calls.push_back(Buf.substr(0, Got));
    Total += Got;
  }
  inflateEnd(&Z);
  Ok = false;
  Calls.clear(); // too much output to compare call by call
  return Calls;
}

/// InflateChunks must return zlib's calls one for one: all of them for a
/// good stream, a prefix of the good ones (then -1) for a bad one.
static void checkChunks(const uint8_t *In, size_t N, size_t RawChunk,
                        size_t Cap) {
  bool Ok;
  std::vector<std::string> Want = zlibCalls(In, N, RawChunk, Cap, Ok);
  if (Want.empty() && !Ok)
    return;
  tl::InflateChunks C(In, N, RawChunk);
  std::string Buf(Cap, '\0');
  for (size_t I = 0;; ++I) {
    long Got = C.next(Buf.data(), Cap);
    bool Bad = false;
    if (Got < 0)
      Bad = Ok;
    else if (Got == 0)
      Bad = !Ok || I != Want.size();
    else
      Bad = I >= Want.size() || Buf.compare(0, size_t(Got), Want[I]) != 0 ||
            size_t(Got) != Want[I].size();
    if (Bad) {
      std::fprintf(stderr,
                   "call %zu (raw chunk %zu, room %zu): fast decoder %ld "
                   "bytes, zlib %s\n",
                   I, RawChunk, Cap, Got,
                   I < Want.size() ? std::to_string(Want[I].size()).c_str()
                                   : (Ok ? "ended" : "failed"));
      std::abort();
    }
    if (Got <= 0)
      return;
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  check(Data, Size);
  if (Size >= 2)
    checkChunks(Data, Size, 1 + Data[Size - 1] % 97, 1 + Data[Size - 2] * 3);
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
  checkChunks(Gz.data(), Len, 1 + P % 61, 1 + (Size * 7) % 1000);
  return 0;
}
