//===- DecodedSize.cpp - How many JSON bytes a trace file holds -----------===//
#include "tl/Input/DecodedSize.h"

#include <cstdio>
#include <string>
#include <sys/stat.h>

namespace tl {

std::optional<uint64_t> decodedSizeHint(llvm::StringRef Path) {
  std::string P = Path.str();
  struct stat St;
  if (stat(P.c_str(), &St) != 0 || !S_ISREG(St.st_mode))
    return std::nullopt;
  uint64_t Size = uint64_t(St.st_size);
  std::FILE *F = std::fopen(P.c_str(), "rb");
  if (!F)
    return std::nullopt;
  unsigned char Magic[2] = {0, 0}, T[4] = {0, 0, 0, 0};
  bool Gzip = std::fread(Magic, 1, 2, F) == 2 && Magic[0] == 0x1f &&
              Magic[1] == 0x8b;
  bool HaveT = Gzip && Size >= 18 &&
               std::fseek(F, long(Size - 4), SEEK_SET) == 0 &&
               std::fread(T, 1, 4, F) == 4;
  std::fclose(F);
  if (!Gzip)
    return Size;
  if (!HaveT)
    return std::nullopt;
  uint64_t ISize = uint64_t(T[0]) | uint64_t(T[1]) << 8 |
                   uint64_t(T[2]) << 16 | uint64_t(T[3]) << 24;
  if (ISize < Size)
    return std::nullopt;
  return ISize;
}

} // namespace tl
