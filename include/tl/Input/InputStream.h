//===- InputStream.h - Chunked (optionally gzip) JSON input -----*- C++ -*-===//
//
// A RapidJSON input stream over a file or a memory buffer. Gzip (detected by
// its magic bytes) is inflated chunk by chunk, so neither the compressed nor
// the decompressed text is ever held in memory as a whole; with Background
// set, a second thread inflates ahead (at most a few 256 KiB chunks) while
// the parser reads. A UTF-8 BOM is skipped. Read errors turn the stream into
// an empty one, after every byte decoded before them, and are reported
// through error()/errorOffset() exactly as without the thread.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_INPUTSTREAM_H
#define TL_INPUT_INPUTSTREAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tl {

/// Gzip input inflated by the background thread into one buffer that is
/// only appended to (its pages never move), so a second parser can read any
/// part of it once inflated. [0, Filled) is final.
struct LLVM_LIBRARY_VISIBILITY GrowingInput {
  char *Data = nullptr;
  uint64_t Cap = 0;
  std::atomic<uint64_t> Filled{0};
  std::atomic<bool> Done{false};
  std::mutex M;
  std::condition_variable CV;
  GrowingInput(uint64_t Cap);
  ~GrowingInput();
  /// Wait until [Off, Off + N) is inflated, the inflater is done or
  /// *Cancel is set (then notify CV); the bytes available from Off (at most
  /// N).
  uint64_t waitFor(uint64_t Off, uint64_t N,
                   const std::atomic<bool> *Cancel = nullptr);
};

/// Hidden: RapidJSON's reader templates instantiated on this stream are then
/// private to libTLCore, so Peek/Take/SkipWhitespace are called (and
/// inlined) directly instead of through the PLT.
class LLVM_LIBRARY_VISIBILITY InputStream {
public:
  typedef char Ch;

  /// Reads from an open FILE (owned) or, when F is null, from Mem.
  InputStream(std::FILE *F, llvm::StringRef Mem, uint64_t MaxBytes,
              std::function<void(uint64_t)> Progress, bool Background = false);
  ~InputStream();
  InputStream(const InputStream &) = delete;
  InputStream &operator=(const InputStream &) = delete;

  /// Detect gzip and BOM; returns false on an I/O or zlib setup error.
  bool start();

  // RapidJSON stream concept (always inlined: they run once per byte).
  LLVM_ATTRIBUTE_ALWAYS_INLINE Ch Peek() {
    if (Pos == Len && !refill())
      return '\0';
    return Cur[Pos];
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE Ch Take() {
    if (Pos == Len && !refill())
      return '\0';
    return Cur[Pos++];
  }
  size_t Tell() const { return size_t(Base + Pos); }
  Ch *PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  size_t PutEnd(Ch *) { return 0; }

  // Contiguous access (JsonReader's source concept): the bytes buffered
  // now are [ptr(), end()); next() reads more once they are consumed.
  const char *ptr() const { return Cur + Pos; }
  const char *end() const { return Cur + Len; }
  void setPtr(const char *P) { Pos = size_t(P - Cur); }
  uint64_t tellAt(const char *P) const { return Base + uint64_t(P - Cur); }
  bool next() { return refill(); }

  bool isGzip() const { return Gzip; }
  /// Before start(): inflate gzip input whose size (gzip trailer) is at
  /// least Min and at most Max bytes into one growing buffer (growing())
  /// when inflating in the background.
  void setGrowRange(uint64_t Min, uint64_t Max) {
    GrowMin = Min;
    GrowMax = Max;
  }
  /// The whole-input buffer, or null.
  GrowingInput *growing() const { return Grow.get(); }
  /// The input was larger than its gzip trailer said: the growing buffer
  /// overflowed and the stream ended early (the caller imports again).
  bool overflowed() const { return Overflow; }
  /// Continue reading at uncompressed offset Off (plain input only; the
  /// tail parser's splice).
  void seekTo(uint64_t Off);
  /// Rough size of the decoded JSON (file size, or the gzip trailer's
  /// ISIZE), for reserving columns; 0 when unknown.
  uint64_t sizeHint() const { return SizeHint; }
  /// Stop the stream with an error at the current offset (used by limits
  /// detected outside the stream); the parser then sees the end of input.
  void abort(std::string Msg) { fail(Tell(), std::move(Msg)); }
  bool hasError() const { return !Err.empty(); }
  const std::string &error() const { return Err; }
  uint64_t errorOffset() const { return ErrOffset; }

private:
  bool refill();
  /// Raw (compressed or plain) bytes; 0 at the end or on a read error
  /// (then RawErr is set).
  size_t readRaw(char *Dst, size_t N);
  /// Inflate up to Cap bytes; 0 at the end or on an error (RawErr set).
  /// With View, the fast decoder may instead point *View at the bytes in
  /// its own buffer (valid until the next call): no copy.
  size_t inflateChunk(char *Dst, size_t Cap, const char **View = nullptr);
  /// The pending raw error becomes the stream's error.
  bool failRaw() {
    fail(RawErrOffset, RawErr);
    return false;
  }
  void fail(uint64_t Offset, std::string Msg);
  void startInflater();
  struct Inflater;
  void inflaterLoop(Inflater &B);

  std::FILE *F;
  llvm::StringRef Mem;
  size_t MemPos = 0;
  uint64_t RawConsumed = 0; // compressed (raw) bytes read so far
  bool RawEof = false;

  bool Gzip = false;
  bool GzipStreamEnd = false;
  struct ZState;
  std::unique_ptr<ZState> Z;
  std::vector<char> In; // raw chunk (gzip only)

  std::vector<char> Out;     // decoded chunk
  const char *Cur = nullptr; // the chunk read: Out, or part of Grow
  size_t Pos = 0, Len = 0;
  uint64_t Base = 0; // uncompressed offset of Out[0]

  // Producer-side error (read or zlib), handed to fail() by the consumer.
  std::string RawErr;
  uint64_t RawErrOffset = 0;

  bool Background;
  std::unique_ptr<Inflater> Bg;
  uint64_t GrowMin = 0, GrowMax = 0;
  std::unique_ptr<GrowingInput> Grow;
  bool Overflow = false;
  bool GrowOverflow = false; // set by the grow thread before Done
  std::thread GrowThread;
  void growLoop();

  uint64_t SizeHint = 0;
  uint64_t MaxBytes;
  std::function<void(uint64_t)> Progress;
  std::string Err;
  uint64_t ErrOffset = 0;
};

} // namespace tl

#endif // TL_INPUT_INPUTSTREAM_H
