//===- ElfCheck.cpp - Is a file a loadable shared object? -----------------===//
#include "ElfCheck.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <elf.h>

using namespace llvm;

namespace tl {

static Error elfError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

#if defined(__x86_64__)
static constexpr unsigned HostMachine = EM_X86_64;
static constexpr const char *HostMachineName = "x86-64";
#elif defined(__aarch64__)
static constexpr unsigned HostMachine = EM_AARCH64;
static constexpr const char *HostMachineName = "AArch64";
#else
#error "checkLoadableElf: add this machine"
#endif

static std::string machineName(unsigned M) {
  switch (M) {
  case EM_X86_64:
    return "x86-64";
  case EM_AARCH64:
    return "AArch64";
  case EM_386:
    return "i386";
  case EM_ARM:
    return "ARM";
  case EM_RISCV:
    return "RISC-V";
  case EM_PPC64:
    return "PowerPC64";
  default:
    return "machine " + std::to_string(M);
  }
}

Error checkLoadableElf(StringRef Path) {
  uint64_t Size = 0;
  if (std::error_code EC = sys::fs::file_size(Path, Size))
    return elfError("cannot read: " + EC.message());
  auto Read = [&](uint64_t Off, uint64_t Len) -> Expected<std::string> {
    auto Buf = MemoryBuffer::getFileSlice(Path, Len, Off);
    if (!Buf)
      return elfError("cannot read: " + Buf.getError().message());
    if ((*Buf)->getBufferSize() != Len)
      return elfError("truncated");
    return (*Buf)->getBuffer().str();
  };
  auto Truncated = [&](const Twine &What, uint64_t End) {
    return elfError("truncated: " + What + " ends at byte " + Twine(End) +
                    ", the file has " + Twine(Size) + " bytes");
  };
  // Check the ELF magic first: dlopen's message for a text file is cryptic.
  if (Size < 4)
    return elfError("not a shared object (no ELF header)");
  auto Magic = Read(0, 4);
  if (!Magic)
    return Magic.takeError();
  if (*Magic != "\x7f" "ELF")
    return elfError("not a shared object (no ELF header)");
  if (Size < EI_NIDENT)
    return Truncated("the ELF header", EI_NIDENT);
  auto Ident = Read(0, EI_NIDENT);
  if (!Ident)
    return Ident.takeError();
  if ((*Ident)[EI_CLASS] != ELFCLASS64)
    return elfError("wrong architecture: a 32-bit ELF file; tl-opt is a "
                    "64-bit " + Twine(HostMachineName) + " program");
  if ((*Ident)[EI_DATA] != ELFDATA2LSB)
    return elfError("wrong architecture: a big-endian ELF file");
  if (Size < sizeof(Elf64_Ehdr))
    return Truncated("the ELF header", sizeof(Elf64_Ehdr));
  auto HdrBytes = Read(0, sizeof(Elf64_Ehdr));
  if (!HdrBytes)
    return HdrBytes.takeError();
  Elf64_Ehdr H;
  std::memcpy(&H, HdrBytes->data(), sizeof(H));
  if (H.e_machine != HostMachine)
    return elfError("wrong architecture: built for " +
                    machineName(H.e_machine) + ", tl-opt runs on " +
                    HostMachineName);
  if (H.e_type != ET_DYN)
    return elfError("not a shared object (ELF type " + Twine(H.e_type) +
                    ")");
  if (H.e_phentsize != sizeof(Elf64_Phdr) || H.e_phnum == 0)
    return elfError("malformed ELF file: no program headers");
  uint64_t PhEnd = H.e_phoff + uint64_t(H.e_phnum) * sizeof(Elf64_Phdr);
  if (H.e_phoff > Size || PhEnd > Size)
    return Truncated("the program header table", PhEnd);
  if (H.e_shoff) {
    uint64_t ShEnd = H.e_shoff + uint64_t(H.e_shnum) * H.e_shentsize;
    if (H.e_shoff > Size || ShEnd > Size)
      return Truncated("the section header table", ShEnd);
  }
  auto PhBytes = Read(H.e_phoff, PhEnd - H.e_phoff);
  if (!PhBytes)
    return PhBytes.takeError();
  for (unsigned I = 0; I < H.e_phnum; ++I) {
    Elf64_Phdr P;
    std::memcpy(&P, PhBytes->data() + I * sizeof(Elf64_Phdr), sizeof(P));
    if (P.p_type != PT_LOAD && P.p_type != PT_DYNAMIC)
      continue;
    uint64_t End = P.p_offset + P.p_filesz;
    if (End < P.p_offset || End > Size)
      return Truncated("segment " + Twine(I), End);
  }
  return Error::success();
}

} // namespace tl
