//===- Crc32.h - CRC-32 (gzip's) over a byte span ---------------*- C++ -*-===//
//
// The CRC-32 of gzip trailers (ISO-HDLC, reflected 0xEDB88320), with zlib's
// crc32() calling convention: start from 0, pass the previous value to
// continue.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_CRC32_H
#define TL_INPUT_CRC32_H

#include "llvm/Support/Compiler.h"

#include <cstddef>
#include <cstdint>

namespace tl {

LLVM_LIBRARY_VISIBILITY uint32_t crc32Update(uint32_t Crc, const uint8_t *P,
                                             size_t N);

} // namespace tl

#endif // TL_INPUT_CRC32_H
