//===- GzipOStreamTest.cpp - gzip output stream ---------------------------===//
//
// What GzipOStream writes inflates (zlib) back to exactly what was written,
// for small and large writes, and is one gzip member.
//
//===----------------------------------------------------------------------===//
#include "tl/Support/GzipOStream.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <zlib.h>

using namespace tl;
using namespace llvm;

namespace {

std::string gunzip(const std::string &In) {
  z_stream Z;
  std::memset(&Z, 0, sizeof(Z));
  EXPECT_EQ(inflateInit2(&Z, 15 + 16), Z_OK);
  std::string Out;
  char Buf[1 << 16];
  Z.next_in = (Bytef *)In.data();
  Z.avail_in = unsigned(In.size());
  int R;
  do {
    Z.next_out = (Bytef *)Buf;
    Z.avail_out = sizeof(Buf);
    R = inflate(&Z, Z_NO_FLUSH);
    Out.append(Buf, sizeof(Buf) - Z.avail_out);
  } while (R == Z_OK);
  EXPECT_EQ(R, Z_STREAM_END);
  EXPECT_EQ(Z.avail_in, 0u); // one member, nothing after it
  inflateEnd(&Z);
  return Out;
}

TEST(GzipOStream, RoundTrip) {
  std::string Want;
  for (int I = 0; I < 200000; ++I)
    Want += "{\"ph\":\"X\",\"ts\":" + std::to_string(I * 7919 % 100003) +
            "},\n";
  std::string Big(3 << 20, 'x'); // one write larger than the buffer
  for (size_t I = 0; I < Big.size(); I += 97)
    Big[I] = char('a' + I % 26);
  Want += Big;
  std::string Gz;
  {
    raw_string_ostream Raw(Gz);
    GzipOStream Z(Raw, 1);
    // Small writes through the buffer, then the big one.
    Z << StringRef(Want).drop_back(Big.size());
    Z.write(Big.data(), Big.size());
    EXPECT_EQ(Z.tell(), Want.size());
    EXPECT_FALSE(bool(Z.finish()));
  }
  EXPECT_EQ(Gz.substr(0, 2), "\x1f\x8b");
  EXPECT_LT(Gz.size(), Want.size() / 4);
  EXPECT_EQ(gunzip(Gz), Want);
}

TEST(GzipOStream, Empty) {
  std::string Gz;
  {
    raw_string_ostream Raw(Gz);
    GzipOStream Z(Raw, 1);
    EXPECT_FALSE(bool(Z.finish()));
  }
  EXPECT_EQ(gunzip(Gz), "");
}

} // namespace
