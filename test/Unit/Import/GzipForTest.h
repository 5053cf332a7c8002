//===- GzipForTest.h - gzip a string in memory for import tests -*- C++ -*-===//
//
// Import tests feed .json.gz bytes made on the fly rather than committed
// binaries, so every case stays readable in the test source.
//
//===----------------------------------------------------------------------===//

#ifndef TL_TEST_UNIT_IMPORT_GZIPFORTEST_H
#define TL_TEST_UNIT_IMPORT_GZIPFORTEST_H

#include "llvm/ADT/StringRef.h"

#include <cstring>
#include <string>
#include <zlib.h>

namespace tl::test {

/// One gzip member holding Text (level 6).
inline std::string gzip(llvm::StringRef Text) {
  z_stream Z;
  std::memset(&Z, 0, sizeof(Z));
  deflateInit2(&Z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string Out(deflateBound(&Z, Text.size()) + 32, '\0');
  Z.next_in = (Bytef *)Text.data();
  Z.avail_in = unsigned(Text.size());
  Z.next_out = (Bytef *)Out.data();
  Z.avail_out = unsigned(Out.size());
  deflate(&Z, Z_FINISH);
  Out.resize(Z.total_out);
  deflateEnd(&Z);
  return Out;
}

} // namespace tl::test

#endif
