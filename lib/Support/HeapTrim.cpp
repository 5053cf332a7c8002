//===- HeapTrim.cpp - Give freed heap pages back to the system ------------===//
#include "tl/Support/HeapTrim.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void tl::releaseFreeHeapPages() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
