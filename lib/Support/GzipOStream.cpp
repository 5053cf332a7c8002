//===- GzipOStream.cpp - A raw_ostream that writes gzip ------------------===//
#include "tl/Support/GzipOStream.h"

#include <zlib.h>

#include <climits>

using namespace llvm;

namespace tl {

struct GzipOStream::ZState {
  z_stream S{};
  bool Init = false;
};

GzipOStream::GzipOStream(raw_ostream &Out, int Level)
    : Out(Out), Z(std::make_unique<ZState>()), OutBuf(1 << 18) {
  // windowBits 15 + 16: a gzip header and trailer around the deflate data.
  if (deflateInit2(&Z->S, Level, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    Err = "zlib deflateInit2 failed";
  else
    Z->Init = true;
  SetBufferSize(1 << 18);
}

GzipOStream::~GzipOStream() {
  // raw_ostream wants an empty buffer; an unfinished member stays
  // unfinished (the caller did not call finish(), e.g. after an error).
  if (!Finished)
    flush();
  if (Z->Init)
    deflateEnd(&Z->S);
}

void GzipOStream::deflateSpan(const char *Ptr, size_t Size, int Flush) {
  if (!Err.empty() || !Z->Init)
    return;
  z_stream &S = Z->S;
  S.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Ptr));
  // avail_in is 32 bits: feed large spans in pieces.
  size_t Left = Size;
  do {
    size_t Piece = Left < size_t(UINT_MAX) ? Left : size_t(UINT_MAX);
    S.avail_in = unsigned(Piece);
    Left -= Piece;
    int F = Left ? Z_NO_FLUSH : Flush;
    int R;
    do {
      S.next_out = reinterpret_cast<Bytef *>(OutBuf.data());
      S.avail_out = unsigned(OutBuf.size());
      R = deflate(&S, F);
      if (R == Z_STREAM_ERROR) {
        Err = "zlib deflate failed";
        return;
      }
      size_t Have = OutBuf.size() - S.avail_out;
      if (Have)
        Out.write(OutBuf.data(), Have);
      // Z_FINISH is done at Z_STREAM_END; otherwise when deflate left
      // output room (it took all the input).
    } while (F == Z_FINISH ? R != Z_STREAM_END : S.avail_out == 0);
  } while (Left);
}

void GzipOStream::write_impl(const char *Ptr, size_t Size) {
  Pos += Size;
  deflateSpan(Ptr, Size, Z_NO_FLUSH);
}

Error GzipOStream::finish() {
  flush();
  if (!Finished) {
    Finished = true;
    deflateSpan(nullptr, 0, Z_FINISH);
  }
  if (!Err.empty())
    return createStringError(inconvertibleErrorCode(), Err);
  return Error::success();
}

} // namespace tl
