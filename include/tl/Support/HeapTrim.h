//===- HeapTrim.h - Give freed heap pages back to the system ----*- C++ -*-===//
//
// glibc keeps the pages of freed blocks: in the arena of the thread that
// freed them (which other threads never allocate from) and between live
// blocks (only the top of the heap is trimmed on free). After a phase that
// frees much (the importer's parse buffers, an analysis' temporaries) the
// process would otherwise carry them until exit, and the next phase's
// growth adds to them in the peak RSS.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_HEAPTRIM_H
#define TL_SUPPORT_HEAPTRIM_H

namespace tl {

/// Return the free pages of every malloc arena to the system (malloc_trim;
/// a no-op where the C library has none). Costs a walk over the free
/// lists: call it between phases, not in loops.
void releaseFreeHeapPages();

} // namespace tl

#endif // TL_SUPPORT_HEAPTRIM_H
