//===- PageBuffer.cpp - A growable byte buffer in pages of its own -------===//
#include "tl/Input/PageBuffer.h"

#include "llvm/Support/ErrorHandling.h"

#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

using namespace tl;

PageBuffer &PageBuffer::operator=(PageBuffer &&O) noexcept {
  if (this != &O) {
    this->~PageBuffer();
    Data = O.Data;
    Size = O.Size;
    Cap = O.Cap;
    O.Data = nullptr;
    O.Size = O.Cap = 0;
  }
  return *this;
}

PageBuffer::~PageBuffer() {
  if (Data)
    ::munmap(Data, Cap);
  Data = nullptr;
}

void PageBuffer::reserve(size_t N) {
  if (N <= Cap)
    return;
  size_t Page = size_t(::sysconf(_SC_PAGESIZE));
  N = (N + Page - 1) / Page * Page;
  void *P = Data ? ::mremap(Data, Cap, N, MREMAP_MAYMOVE)
                 : ::mmap(nullptr, N, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  // Out of address space (ulimit -v): the tool's out-of-memory handler
  // ends the run with one line, as for a failed new.
  if (P == MAP_FAILED)
    llvm::report_bad_alloc_error("PageBuffer: mmap failed");
  Data = static_cast<char *>(P);
  Cap = N;
}
