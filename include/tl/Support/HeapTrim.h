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

/// Make every thread allocate from one malloc arena (M_ARENA_MAX = 1; a
/// no-op without glibc). Call before starting threads. Blocks freed by one
/// thread are then reused by the others: with per-thread arenas the
/// analyses' freed temporaries stay stranded in the pool threads' arenas
/// while the report, written on the main thread, grows the main one
/// (1 GB tl-gen, --threads=2: peak RSS 507 -> 490 MB at equal CPU time;
/// glibc's per-thread caches keep the shared arena's lock cold).
void useOneMallocArena();

} // namespace tl

#endif // TL_SUPPORT_HEAPTRIM_H
