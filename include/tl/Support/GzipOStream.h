//===- GzipOStream.h - A raw_ostream that writes gzip ----------*- C++ -*-===//
//
// Everything written to it is compressed (zlib deflate, one gzip member)
// into another stream, so a large output is never held in memory. finish()
// writes the gzip trailer and says whether zlib failed.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_GZIPOSTREAM_H
#define TL_SUPPORT_GZIPOSTREAM_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tl {

class GzipOStream final : public llvm::raw_ostream {
public:
  /// Level: zlib's 1 (fastest) .. 9 (smallest).
  GzipOStream(llvm::raw_ostream &Out, int Level);
  ~GzipOStream() override;
  GzipOStream(const GzipOStream &) = delete;
  GzipOStream &operator=(const GzipOStream &) = delete;

  /// Compress what is buffered and end the gzip member; the first zlib
  /// error (the output is then incomplete). Nothing may be written after.
  llvm::Error finish();

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Pos; }
  /// Feed [Ptr, Ptr + Size) to deflate with zlib flush mode Flush.
  void deflateSpan(const char *Ptr, size_t Size, int Flush);

  llvm::raw_ostream &Out;
  struct ZState;
  std::unique_ptr<ZState> Z;
  std::vector<char> OutBuf;
  uint64_t Pos = 0;
  std::string Err;
  bool Finished = false;
};

} // namespace tl

#endif // TL_SUPPORT_GZIPOSTREAM_H
