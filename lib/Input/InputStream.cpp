//===- InputStream.cpp - Chunked (optionally gzip) JSON input -------------===//
#include "tl/Input/InputStream.h"

#include "tl/Input/Inflate.h"

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <zlib.h>

using namespace tl;

static constexpr size_t ChunkSize = 1 << 18;

struct InputStream::ZState {
  z_stream S;
  bool Init = false;
  // The whole compressed input for the fast decoder (every mode but a pipe):
  // Mem, or the file mapped (Map).
  const uint8_t *Raw = nullptr;
  size_t RawSize = 0;
  void *Map = nullptr;
  // The next inflateChunk() starts zlib over from the first input byte.
  bool Replay = false;
  // Reading without a background thread: the fast decoder's chunks.
  std::unique_ptr<InflateChunks> Chunks;
  ZState() { std::memset(&S, 0, sizeof(S)); }
  ~ZState() {
    if (Init)
      inflateEnd(&S);
    if (Map)
      ::munmap(Map, RawSize);
  }
};

/// TL_INFLATE=zlib decodes gzip with zlib only (differential tests and
/// before/after measurements).
static bool fastInflate() {
  const char *E = std::getenv("TL_INFLATE");
  return !E || std::strcmp(E, "zlib") != 0;
}

/// Chunks inflated ahead by the background thread. Buffers cycle between
/// Free (the producer fills them) and Full (the parser reads them), so memory
/// stays at NumBuffers chunks whatever the input size.
struct InputStream::Inflater {
  static constexpr unsigned NumBuffers = 4;
  std::mutex M;
  std::condition_variable CV;
  std::deque<std::pair<std::vector<char>, size_t>> Full;
  std::vector<std::vector<char>> Free;
  bool Done = false;  // producer finished (end of input or RawErr set)
  bool Stop = false;  // consumer gone
  uint64_t First = 0; // output the consumer has before the thread starts
  std::thread T;
  ~Inflater() {
    {
      std::lock_guard<std::mutex> L(M);
      Stop = true;
    }
    CV.notify_all();
    if (T.joinable())
      T.join();
  }
};

GrowingInput::GrowingInput(uint64_t Cap) : Cap(Cap) {
  // Reserved, not touched: pages cost memory once inflated into.
  void *P = ::mmap(nullptr, Cap, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  Data = P == MAP_FAILED ? nullptr : static_cast<char *>(P);
  // Huge pages: one fault per 2 MiB instead of per 4 KiB page filled.
  if (Data)
    ::madvise(Data, Cap, MADV_HUGEPAGE);
}

GrowingInput::~GrowingInput() {
  if (Data)
    ::munmap(Data, Cap);
}

uint64_t GrowingInput::waitFor(uint64_t Off, uint64_t N,
                               const std::atomic<bool> *Cancel) {
  auto Ready = [&] {
    return Filled.load(std::memory_order_acquire) >= Off + N ||
           Done.load(std::memory_order_acquire) || (Cancel && Cancel->load());
  };
  if (!Ready()) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, Ready);
  }
  uint64_t F = Filled.load(std::memory_order_acquire);
  return F > Off ? std::min(N, F - Off) : 0;
}

InputStream::InputStream(std::FILE *F, llvm::StringRef Mem, uint64_t MaxBytes,
                         std::function<void(uint64_t)> Progress,
                         bool Background)
    : F(F), Mem(Mem), Background(Background), MaxBytes(MaxBytes),
      Progress(std::move(Progress)) {}

InputStream::~InputStream() {
  Bg.reset(); // joins the inflater before the file and zlib state go
  if (Grow) {
    // Same for the growing-buffer inflater (it stops at the next chunk).
    Grow->Done.store(true); // (read by the loop as a stop request too)
    if (GrowThread.joinable())
      GrowThread.join();
  }
  if (F)
    std::fclose(F);
}

void InputStream::fail(uint64_t Offset, std::string Msg) {
  if (Err.empty()) {
    Err = std::move(Msg);
    ErrOffset = Offset;
  }
  Pos = Len = 0;
  if (!Bg)
    RawEof = true; // (the inflater thread owns the raw side)
}

size_t InputStream::readRaw(char *Dst, size_t N) {
  if (RawEof)
    return 0;
  size_t Got;
  if (F) {
    Got = std::fread(Dst, 1, N, F);
    if (Got < N) {
      if (std::ferror(F)) {
        RawErr = "expected readable input (read error)";
        RawErrOffset = RawConsumed + Got;
        RawEof = true;
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
  if (!RawErr.empty())
    return failRaw();
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
    // The fast decoder wants the whole compressed input at hand: Mem, or
    // the file mapped (not a pipe).
    if (fastInflate() && F) {
      void *M = ::mmap(nullptr, RawSize, PROT_READ, MAP_PRIVATE, fileno(F), 0);
      if (M != MAP_FAILED) {
        ::madvise(M, RawSize, MADV_SEQUENTIAL);
        Z->Map = M;
        Z->Raw = static_cast<const uint8_t *>(M);
        Z->RawSize = RawSize;
      }
    } else if (fastInflate()) {
      Z->Raw = reinterpret_cast<const uint8_t *>(Mem.data());
      Z->RawSize = Mem.size();
    }
    // Without a background thread it decodes every chunk; with one, the
    // thread does (zlib gives the first chunk here).
    if (Z->Raw && !Background)
      Z->Chunks = std::make_unique<InflateChunks>(Z->Raw, Z->RawSize, ChunkSize,
                                                  Z->Map != nullptr);
  } else {
    // Plain JSON: the sniffed chunk is the first decoded chunk.
    std::swap(In, Out);
    In.clear();
    In.shrink_to_fit();
    Cur = Out.data();
    Len = Got;
    if (Progress)
      Progress(Len);
  }
  if (Gzip && !refill() && hasError())
    return false;
  // Skip a UTF-8 byte order mark (offsets still count it).
  if (Len >= 3 && uint8_t(Cur[0]) == 0xEF && uint8_t(Cur[1]) == 0xBB &&
      uint8_t(Cur[2]) == 0xBF)
    Pos = 3;
  if (Gzip && Background && Len) {
    if (GrowMax && SizeHint >= GrowMin && SizeHint <= GrowMax &&
        SizeHint >= Len) {
      // One page more than the trailer says, to see an overflow.
      Grow = std::make_unique<GrowingInput>(SizeHint + 4096);
      if (!Grow->Data) {
        Grow.reset();
      } else {
        // The fast decoder writes the buffer from its start (the first
        // chunk, read from Out, included); zlib continues after the chunk.
        if (!Z->Raw) {
          std::memcpy(Grow->Data, Out.data(), Len);
          Grow->Filled.store(Len);
        }
        GrowThread = std::thread([this] { growLoop(); });
        return true;
      }
    }
    startInflater();
  }
  return true;
}

// Producer of the growing buffer: from here on only this thread touches
// F/Mem, In, Z and RawErr until it sets Done.
void InputStream::growLoop() {
  GrowingInput &G = *Grow;
  auto Publish = [&](uint64_t N, bool Last) {
    if (N > G.Filled.load(std::memory_order_relaxed))
      G.Filled.store(N, std::memory_order_release);
    {
      // Under the lock, so waitFor() cannot test Ready and then miss the
      // notify.
      std::lock_guard<std::mutex> L(G.M);
      if (Last)
        G.Done.store(true, std::memory_order_release);
    }
    G.CV.notify_all();
  };
  // Output already readable by the parsers (the zlib replay below rewrites
  // nothing under it).
  uint64_t Published = 0;
  std::vector<char> Scratch;
  uint64_t At = G.Filled.load(std::memory_order_relaxed); // zlib: chunk 1
  if (Z->Raw) {
    // The fast decoder publishes a chunk behind what it decoded: zlib's
    // path drops the output of the call (at most a chunk) that meets an
    // error, so what is published is never more than zlib would have given.
    size_t OutSize = 0;
    InflateStatus St = gunzipBuffer(
        Z->Raw, Z->RawSize, reinterpret_cast<uint8_t *>(G.Data), G.Cap - 1,
        OutSize,
        [&](size_t N) {
          if (G.Done.load(std::memory_order_acquire))
            return false; // the consumer is gone
          if (N > ChunkSize)
            Publish(N - ChunkSize, false);
          return true;
        },
        ChunkSize, /*ReleaseInput=*/Z->Map != nullptr);
    if (St == InflateStatus::Cancelled)
      return;
    if (St == InflateStatus::Done) {
      Publish(OutSize, true);
      return;
    }
    // Corrupt, truncated or larger than the trailer said: replay zlib's
    // calls from the start (start()'s first chunk, then this loop's) for
    // its exact output prefix, error text and offset, or overflow.
    Published = G.Filled.load(std::memory_order_relaxed);
    Z->Replay = true;
    Scratch.resize(ChunkSize);
    size_t N = inflateChunk(Scratch.data(), ChunkSize);
    if (N > Published)
      std::memcpy(G.Data + Published, Scratch.data() + Published,
                  N - Published);
    At = N;
    Publish(At, !N);
    if (!N)
      return;
  }
  for (;;) {
    if (G.Done.load(std::memory_order_acquire))
      return; // the consumer is gone
    size_t Room = size_t(std::min<uint64_t>(ChunkSize, G.Cap - At));
    // (In a replay At may still be under Published: decode aside.)
    char *Dst = At >= Published ? G.Data + At : Scratch.data();
    size_t N = Room ? inflateChunk(Dst, Room) : 0;
    if (N && Dst == Scratch.data()) {
      if (At + N > Published)
        std::memcpy(G.Data + Published, Scratch.data() + (Published - At),
                    At + N - Published);
    }
    if (!N && !Room)
      GrowOverflow = true; // larger than the trailer said
    At += N;
    Publish(At, !N);
    if (!N)
      return;
  }
}

void InputStream::startInflater() {
  Bg = std::make_unique<Inflater>();
  for (unsigned I = 0; I < Inflater::NumBuffers; ++I)
    Bg->Free.emplace_back(ChunkSize);
  // The thread gets the Inflater itself: Bg may already be reset (the
  // consumer finished) by the time the thread first runs.
  Inflater *B = Bg.get();
  B->First = Len;
  B->T = std::thread([this, B] { inflaterLoop(*B); });
}

// Producer: from here on only this thread touches F/Mem, In, Z and RawErr
// until it sets Done.
void InputStream::inflaterLoop(Inflater &B) {
  // Hand N bytes to the consumer as one chunk; false once it is gone.
  auto Give = [&](const char *P, size_t N) {
    std::vector<char> Buf;
    {
      std::unique_lock<std::mutex> L(B.M);
      B.CV.wait(L, [&] { return B.Stop || !B.Free.empty(); });
      if (B.Stop)
        return false;
      Buf = std::move(B.Free.back());
      B.Free.pop_back();
    }
    std::memcpy(Buf.data(), P, N);
    {
      std::lock_guard<std::mutex> L(B.M);
      B.Full.emplace_back(std::move(Buf), N);
    }
    B.CV.notify_all();
    return true;
  };
  if (Z->Raw) {
    // The fast decoder, cut into the chunks zlib's calls return (a full
    // chunk, or less where zlib would run out of the raw chunk read or end
    // a member): the consumer sees the same chunks, so the same offsets.
    uint64_t S = 0; // end of the calls so far
    bool Mismatch = false;
    ZlibCuts Cuts;
    auto Sink = [&](const uint8_t *Buf, uint64_t Base, uint64_t Total,
                    bool Final, uint64_t &Keep) {
      while (uint64_t E = Cuts.next(S, ChunkSize, Total, Final)) {
        if (S < B.First) {
          if (E > B.First) {
            Mismatch = true; // (start() got another first chunk)
            return false;
          }
        } else if (!Give(reinterpret_cast<const char *>(Buf) + (S - Base),
                         size_t(E - S))) {
          return false;
        }
        S = E;
      }
      Keep = S;
      return true;
    };
    InflateStatus St =
        gunzipStream(Z->Raw, Z->RawSize, 4 << 20, ChunkSize, Cuts, Sink,
                     ChunkSize, /*ReleaseInput=*/Z->Map != nullptr);
    if (St == InflateStatus::Cancelled && !Mismatch)
      return; // the consumer is gone
    if (St == InflateStatus::Done && S >= B.First) {
      {
        std::lock_guard<std::mutex> L(B.M);
        B.Done = true;
      }
      B.CV.notify_all();
      return;
    }
    // Corrupt or truncated: replay zlib's calls from the start, skip what
    // the consumer has, and go on with zlib for its exact chunks, error
    // text and offset.
    uint64_t Sent = std::max(S, B.First), At = 0;
    std::vector<char> Scratch(ChunkSize);
    Z->Replay = true;
    while (At < Sent) {
      size_t N = inflateChunk(Scratch.data(), ChunkSize);
      if (!N) {
        {
          std::lock_guard<std::mutex> L(B.M);
          B.Done = true;
        }
        B.CV.notify_all();
        return;
      }
      if (At + N > Sent && !Give(Scratch.data() + (Sent - At), At + N - Sent))
        return;
      At += N;
    }
  }
  for (;;) {
    std::vector<char> Buf;
    {
      std::unique_lock<std::mutex> L(B.M);
      B.CV.wait(L, [&] { return B.Stop || !B.Free.empty(); });
      if (B.Stop)
        return;
      Buf = std::move(B.Free.back());
      B.Free.pop_back();
    }
    size_t N = inflateChunk(Buf.data(), Buf.size());
    {
      std::lock_guard<std::mutex> L(B.M);
      if (N)
        B.Full.emplace_back(std::move(Buf), N);
      else
        B.Done = true;
    }
    B.CV.notify_all();
    if (!N)
      return;
  }
}

size_t InputStream::inflateChunk(char *Dst, size_t Cap, const char **View) {
  z_stream &S = Z->S;
  if (Z->Chunks) {
    long N = View ? Z->Chunks->nextView(*View, Cap) : Z->Chunks->next(Dst, Cap);
    if (N >= 0)
      return size_t(N);
    // Bad input: zlib from the start, past the chunks returned, for its
    // exact chunks, error text and offset.
    uint64_t Sent = Z->Chunks->sent();
    Z->Chunks.reset();
    Z->Replay = true;
    std::vector<char> Scratch(ChunkSize);
    for (uint64_t At = 0; At < Sent;) {
      size_t M = inflateChunk(Scratch.data(), ChunkSize);
      if (!M)
        return 0;
      if (At + M > Sent) {
        // (Only if the cuts differed from zlib's.)
        size_t Rest = std::min<size_t>(size_t(At + M - Sent), Cap);
        std::memcpy(Dst, Scratch.data() + (Sent - At), Rest);
        return Rest;
      }
      At += M;
    }
  }
  if (Z->Replay) {
    Z->Replay = false;
    RawConsumed = 0;
    RawEof = false;
    MemPos = 0;
    RawErr.clear();
    if (F)
      fseeko(F, 0, SEEK_SET);
    inflateReset(&S);
    S.avail_in = 0; // (read again below)
    GzipStreamEnd = false;
  }
  size_t Got = 0;
  while (Got == 0) {
    if (GzipStreamEnd) {
      // Another gzip member follows (concatenated .gz) or the input ends.
      if (S.avail_in == 0) {
        size_t Raw = readRaw(In.data(), In.size());
        if (Raw == 0)
          return 0; // end of input (or RawErr)
        S.next_in = reinterpret_cast<Bytef *>(In.data());
        S.avail_in = unsigned(Raw);
      }
      inflateReset(&S);
      GzipStreamEnd = false;
    }
    if (S.avail_in == 0) {
      size_t Raw = readRaw(In.data(), In.size());
      if (!RawErr.empty())
        return 0;
      if (Raw == 0) {
        RawErr = "expected more compressed data (truncated gzip stream)";
        RawErrOffset = RawConsumed;
        return 0;
      }
      S.next_in = reinterpret_cast<Bytef *>(In.data());
      S.avail_in = unsigned(Raw);
    }
    S.next_out = reinterpret_cast<Bytef *>(Dst);
    S.avail_out = unsigned(Cap);
    int Ret = inflate(&S, Z_NO_FLUSH);
    Got = Cap - S.avail_out;
    if (Ret == Z_STREAM_END) {
      GzipStreamEnd = true;
    } else if (Ret != Z_OK && Ret != Z_BUF_ERROR) {
      RawErrOffset = RawConsumed - S.avail_in;
      RawErr = std::string("expected valid gzip data (") +
               (S.msg ? S.msg : "zlib error") + ")";
      return 0;
    }
  }
  return Got;
}

void InputStream::seekTo(uint64_t Off) {
  if (Off >= Base && Off <= Base + Len) {
    Pos = size_t(Off - Base);
    return;
  }
  if (Grow) {
    Base = Off;
    Pos = Len = 0;
    return;
  }
  if (F)
    fseeko(F, off_t(Off), SEEK_SET);
  else
    MemPos = size_t(Off);
  RawEof = false;
  Base = Off;
  Pos = Len = 0;
}

bool InputStream::refill() {
  if (!Err.empty())
    return false;
  Base += Len;
  Pos = Len = 0;
  Cur = Out.data();
  if (!Gzip) {
    Len = readRaw(Out.data(), Out.size());
    if (!RawErr.empty())
      return failRaw();
  } else if (Grow) {
    Len = size_t(Grow->waitFor(Base, ChunkSize));
    Cur = Grow->Data + Base;
    if (!Len) {
      // The inflater is done (Done's release makes its RawErr visible).
      if (GrowOverflow) {
        Overflow = true;
        fail(Base, "expected the size in the gzip trailer");
        return false;
      }
      if (!RawErr.empty())
        return failRaw();
    }
  } else if (Bg) {
    Inflater &B = *Bg;
    std::unique_lock<std::mutex> L(B.M);
    B.CV.wait(L, [&] { return !B.Full.empty() || B.Done; });
    if (!B.Full.empty()) {
      B.Free.push_back(std::move(Out));
      Out = std::move(B.Full.front().first);
      Cur = Out.data();
      Len = B.Full.front().second;
      B.Full.pop_front();
      L.unlock();
      B.CV.notify_all();
    } else if (!RawErr.empty()) {
      L.unlock();
      return failRaw();
    }
  } else {
    Len = inflateChunk(Out.data(), Out.size(), &Cur);
    if (!Len && !RawErr.empty())
      return failRaw();
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
