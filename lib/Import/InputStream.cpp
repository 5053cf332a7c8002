//===- InputStream.cpp - Chunked (optionally gzip) JSON input -------------===//
#include "InputStream.h"

#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

using namespace tl;

static constexpr size_t ChunkSize = 1 << 18;

struct InputStream::ZState {
  z_stream S;
  bool Init = false;
  ZState() { std::memset(&S, 0, sizeof(S)); }
  ~ZState() {
    if (Init)
      inflateEnd(&S);
  }
};

InputStream::InputStream(std::FILE *F, llvm::StringRef Mem, uint64_t MaxBytes,
                         std::function<void(uint64_t)> Progress)
    : F(F), Mem(Mem), MaxBytes(MaxBytes), Progress(std::move(Progress)) {}

InputStream::~InputStream() {
  if (F)
    std::fclose(F);
}

void InputStream::fail(uint64_t Offset, std::string Msg) {
  if (Err.empty()) {
    Err = std::move(Msg);
    ErrOffset = Offset;
  }
  Pos = Len = 0;
  RawEof = true;
}

size_t InputStream::readRaw(char *Dst, size_t N) {
  if (RawEof)
    return 0;
  size_t Got;
  if (F) {
    Got = std::fread(Dst, 1, N, F);
    if (Got < N) {
      if (std::ferror(F)) {
        fail(RawConsumed + Got, "expected readable input (read error)");
        return 0;
      }
      if (Got == 0)
        RawEof = true;
    }
  } else {
    Got = std::min(N, Mem.size() - MemPos);
    std::memcpy(Dst, Mem.data() + MemPos, Got);
    MemPos += Got;
    if (Got == 0)
      RawEof = true;
  }
  RawConsumed += Got;
  return Got;
}

bool InputStream::start() {
  Out.resize(ChunkSize);
  // Read the first raw bytes to sniff the gzip magic.
  In.resize(ChunkSize);
  size_t Got = readRaw(In.data(), In.size());
  if (hasError())
    return false;
  uint64_t RawSize = Mem.size();
  struct stat St;
  if (F && fstat(fileno(F), &St) == 0)
    RawSize = uint64_t(St.st_size);
  SizeHint = RawSize;
  if (Got >= 2 && uint8_t(In[0]) == 0x1f && uint8_t(In[1]) == 0x8b) {
    Gzip = true;
    // ISIZE (uncompressed size mod 2^32) ends the last gzip member.
    unsigned char T[4] = {0, 0, 0, 0};
    bool HaveT = false;
    if (RawSize >= 18) {
      if (F)
        HaveT = pread(fileno(F), T, 4, off_t(RawSize - 4)) == 4;
      else {
        std::memcpy(T, Mem.data() + RawSize - 4, 4);
        HaveT = true;
      }
    }
    uint64_t ISize = HaveT ? (uint64_t(T[0]) | uint64_t(T[1]) << 8 |
                              uint64_t(T[2]) << 16 | uint64_t(T[3]) << 24)
                           : 0;
    SizeHint = ISize >= RawSize ? ISize : RawSize * 8;
    Z = std::make_unique<ZState>();
    if (inflateInit2(&Z->S, 15 + 16) != Z_OK) {
      fail(0, "expected a gzip stream (zlib init failed)");
      return false;
    }
    Z->Init = true;
    Z->S.next_in = reinterpret_cast<Bytef *>(In.data());
    Z->S.avail_in = unsigned(Got);
  } else {
    // Plain JSON: the sniffed chunk is the first decoded chunk.
    std::swap(In, Out);
    In.clear();
    In.shrink_to_fit();
    Len = Got;
    if (Progress)
      Progress(Len);
  }
  if (Gzip && !refill() && hasError())
    return false;
  // Skip a UTF-8 byte order mark (offsets still count it).
  if (Len >= 3 && uint8_t(Out[0]) == 0xEF && uint8_t(Out[1]) == 0xBB &&
      uint8_t(Out[2]) == 0xBF)
    Pos = 3;
  return true;
}

bool InputStream::refill() {
  if (!Err.empty())
    return false;
  Base += Len;
  Pos = Len = 0;
  if (!Gzip) {
    Len = readRaw(Out.data(), Out.size());
  } else {
    z_stream &S = Z->S;
    while (Len == 0) {
      if (GzipStreamEnd) {
        // Another gzip member follows (concatenated .gz) or the input ends.
        if (S.avail_in == 0) {
          size_t Got = readRaw(In.data(), In.size());
          if (Got == 0)
            break;
          S.next_in = reinterpret_cast<Bytef *>(In.data());
          S.avail_in = unsigned(Got);
        }
        inflateReset(&S);
        GzipStreamEnd = false;
      }
      if (S.avail_in == 0) {
        size_t Got = readRaw(In.data(), In.size());
        if (hasError())
          return false;
        if (Got == 0) {
          fail(RawConsumed,
               "expected more compressed data (truncated gzip stream)");
          return false;
        }
        S.next_in = reinterpret_cast<Bytef *>(In.data());
        S.avail_in = unsigned(Got);
      }
      S.next_out = reinterpret_cast<Bytef *>(Out.data());
      S.avail_out = unsigned(Out.size());
      int Ret = inflate(&S, Z_NO_FLUSH);
      Len = Out.size() - S.avail_out;
      if (Ret == Z_STREAM_END) {
        GzipStreamEnd = true;
      } else if (Ret != Z_OK && Ret != Z_BUF_ERROR) {
        uint64_t At = RawConsumed - S.avail_in;
        fail(At, std::string("expected valid gzip data (") +
                     (S.msg ? S.msg : "zlib error") + ")");
        return false;
      }
    }
  }
  if (MaxBytes && Base + Len > MaxBytes) {
    fail(Base, "expected at most " + std::to_string(MaxBytes) +
                   " bytes of JSON (input limit)");
    return false;
  }
  if (Len && Progress)
    Progress(Base + Len);
  return Len != 0;
}
