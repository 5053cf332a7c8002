//===- PageBuffer.h - A growable byte buffer in pages of its own -*- C++ -*-===//
//
// The tail parser's tape and the structure builder's host-tree event list
// live in these.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_PAGEBUFFER_H
#define TL_INPUT_PAGEBUFFER_H

#include "llvm/Support/Compiler.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>

namespace tl {

/// Bytes in pages of their own (mmap): freeing them neither leaves holes in
/// the heap nor moves malloc's mmap threshold, which would change where the
/// IR's own buffers live and the import's peak RSS.
class LLVM_LIBRARY_VISIBILITY PageBuffer {
public:
  PageBuffer() = default;
  explicit PageBuffer(size_t Cap) { reserve(Cap); }
  PageBuffer(PageBuffer &&O) noexcept { *this = std::move(O); }
  PageBuffer &operator=(PageBuffer &&O) noexcept;
  ~PageBuffer();
  char *data() { return Data; }
  const char *data() const { return Data; }
  size_t size() const { return Size; }
  size_t capacity() const { return Cap; }
  bool empty() const { return Size == 0; }
  void clear() { Size = 0; }
  void shrinkTo(size_t N) { Size = N < Size ? N : Size; }
  void push(char C) {
    if (Size == Cap)
      reserve(Cap * 2);
    Data[Size++] = C;
  }
  void append(const char *P, size_t N) {
    if (Size + N > Cap)
      reserve(std::max(Cap * 2, Size + N));
    std::memcpy(Data + Size, P, N);
    Size += N;
  }
  /// Room for N more bytes, returned: write up to N there, then advance()
  /// by the bytes written (one capacity check for a few small writes).
  char *room(size_t N) {
    if (Size + N > Cap)
      reserve(std::max(Cap * 2, Size + N));
    return Data + Size;
  }
  void advance(size_t N) { Size += N; }
  /// Capacity at least N bytes (whole pages).
  void reserve(size_t N);

private:
  char *Data = nullptr;
  size_t Size = 0, Cap = 0;
};

} // namespace tl

#endif // TL_INPUT_PAGEBUFFER_H
