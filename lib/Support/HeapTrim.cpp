//===- HeapTrim.cpp - Give freed heap pages back to the system ------------===//
#include "tl/Support/HeapTrim.h"

#include <cstdlib> // defines __GLIBC__ on glibc systems

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void tl::releaseFreeHeapPages() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

bool tl::heapTrimPays(uint64_t TraceEvents) {
  return TraceEvents >= 1000000;
}

void tl::useOneMallocArena() {
#if defined(__GLIBC__)
  mallopt(M_ARENA_MAX, 1);
#endif
}

void tl::useMallocArenas(unsigned N) {
#if defined(__GLIBC__)
  mallopt(M_ARENA_MAX, int(N ? N : 1));
#endif
}
