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
#ifndef TL_LIB_IMPORT_INPUTSTREAM_H
#define TL_LIB_IMPORT_INPUTSTREAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tl {

/// Hidden: RapidJSON's reader templates instantiated on this stream are then
/// private to libTLCore, so Peek/Take/SkipWhitespace are called (and
/// inlined) directly instead of through the PLT.
class LLVM_LIBRARY_VISIBILITY InputStream {
public:
  typedef char Ch;

  /// Reads from an open FILE (owned) or, when F is null, from Mem.
  InputStream(std::FILE *F, llvm::StringRef Mem, uint64_t MaxBytes,
              std::function<void(uint64_t)> Progress,
              bool Background = false);
  ~InputStream();
  InputStream(const InputStream &) = delete;
  InputStream &operator=(const InputStream &) = delete;

  /// Detect gzip and BOM; returns false on an I/O or zlib setup error.
  bool start();

  // RapidJSON stream concept (always inlined: they run once per byte).
  LLVM_ATTRIBUTE_ALWAYS_INLINE Ch Peek() {
    if (Pos == Len && !refill())
      return '\0';
    return Out[Pos];
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE Ch Take() {
    if (Pos == Len && !refill())
      return '\0';
    return Out[Pos++];
  }
  size_t Tell() const { return size_t(Base + Pos); }
  Ch *PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  size_t PutEnd(Ch *) { return 0; }

  bool isGzip() const { return Gzip; }
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
  size_t inflateChunk(char *Dst, size_t Cap);
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

  std::vector<char> Out; // decoded chunk
  size_t Pos = 0, Len = 0;
  uint64_t Base = 0; // uncompressed offset of Out[0]

  // Producer-side error (read or zlib), handed to fail() by the consumer.
  std::string RawErr;
  uint64_t RawErrOffset = 0;

  bool Background;
  std::unique_ptr<Inflater> Bg;

  uint64_t SizeHint = 0;
  uint64_t MaxBytes;
  std::function<void(uint64_t)> Progress;
  std::string Err;
  uint64_t ErrOffset = 0;
};

} // namespace tl

#endif // TL_LIB_IMPORT_INPUTSTREAM_H
