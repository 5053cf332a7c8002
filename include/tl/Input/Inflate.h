//===- Inflate.h - Fast whole-buffer gzip/DEFLATE decoder -------*- C++ -*-===//
//
// Decodes gzip members (RFC 1952 around RFC 1951 DEFLATE) from one input span
// into one output buffer that holds the whole output, so the output itself is
// the LZ77 window. Built for speed (word-wide bit refills, one-lookup Huffman
// tables with subtables, word-wide match copies); about twice zlib's speed.
//
// It accepts exactly the inputs zlib's inflate (windowBits 15 + 16) accepts
// when called member after member as InputStream does: any number of gzip
// members, each checked by its CRC32 and ISIZE; any byte after a member starts
// another member. It does not say why an input is bad: the caller re-decodes
// with zlib on failure to get zlib's message, offset and exact output prefix.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_INFLATE_H
#define TL_INPUT_INFLATE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Compiler.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace tl {

enum class InflateStatus {
  Done,      ///< Every member decoded and checked.
  Failed,    ///< Corrupt or truncated input, or output beyond the buffer.
  Cancelled, ///< Progress returned false.
};

/// Decode all gzip members of [In, In + InSize) into [Out, Out + OutCap).
/// OutSize is the bytes written. Progress(N) is called about every
/// ProgressStep output bytes with N bytes known to be correctly decoded (a
/// prefix of the final output whatever follows), and may cancel.
/// With ReleaseInput, input pages already decoded are dropped
/// (MADV_DONTNEED: In must be a read-only file mapping).
LLVM_LIBRARY_VISIBILITY InflateStatus
gunzipBuffer(const uint8_t *In, size_t InSize, uint8_t *Out, size_t OutCap,
             size_t &OutSize, llvm::function_ref<bool(size_t)> Progress,
             size_t ProgressStep, bool ReleaseInput = false);

/// Receives the output of gunzipStream: output offsets [Base, Total) are at
/// Buf[0, Total - Base) (correctly decoded, whatever follows). Final is set
/// on the last call, after every member was checked. Keep is set to the
/// first offset the sink still needs (at most Total); the decoder keeps that
/// and the last 32 KiB. False cancels.
using InflateSink =
    llvm::function_ref<bool(const uint8_t *Buf, uint64_t Base, uint64_t Total,
                            bool Final, uint64_t &Keep)>;

/// Where InputStream's zlib calls end (RawChunk input bytes read at a
/// time, Cap bytes of room per call), from what the decoder records: for
/// each raw-chunk boundary B (a multiple of RawChunk below the input size),
/// Out = the output of every literal, match and stored byte wholly before
/// B (zlib then runs out of input) and Q = the least call end at which
/// zlib, going on past a full buffer up to the next output, reads byte
/// B - 1 (so reads the next chunk before the next call); and each member
/// end (zlib's Z_STREAM_END).
class LLVM_LIBRARY_VISIBILITY ZlibCuts {
public:
  struct Break {
    uint64_t Out; // UINT64_MAX while a raw boundary is not reached
    uint64_t Q;
    bool Raw;
    bool Skip; // zlib read past this boundary before decoding up to it
  };
  std::vector<Break> Breaks;
  /// The end of the call that starts at S, given output decoded up to
  /// Total (Final: the input ended after a good member): 0 while that is
  /// not settled (output past it decides) or at the end.
  uint64_t next(uint64_t S, uint64_t Cap, uint64_t Total, bool Final);

private:
  size_t BI = 0;
};

/// Decode as gunzipBuffer, through a sliding buffer of BufSize bytes
/// (memory bounded whatever the output size), recording Cuts.
LLVM_LIBRARY_VISIBILITY InflateStatus gunzipStream(
    const uint8_t *In, size_t InSize, size_t BufSize, size_t RawChunk,
    ZlibCuts &Cuts, InflateSink Sink, size_t Step, bool ReleaseInput = false);

/// gunzipStream driven by its reader, for reading without a decoding
/// thread: each next() returns the chunk that zlib's next inflate call
/// into Cap bytes would (the same cuts as gunzipStream's Breaks).
class LLVM_LIBRARY_VISIBILITY InflateChunks {
public:
  InflateChunks(const uint8_t *In, size_t InSize, size_t RawChunk,
                bool ReleaseInput = false);
  ~InflateChunks();
  /// Bytes written to Dst (at most Cap), 0 at the end, -1 for bad input
  /// (then nothing more: the reader replays with zlib past sent()).
  long next(char *Dst, size_t Cap);
  /// next() without the copy: View points at the bytes in the decoder's
  /// buffer, valid until the next call.
  long nextView(const char *&View, size_t Cap);
  /// Output returned so far.
  uint64_t sent() const;

private:
  struct State;
  std::unique_ptr<State> St;
};

} // namespace tl

#endif // TL_INPUT_INFLATE_H
