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

#include <cstdint>

namespace tl {

/// Return the free pages of every malloc arena to the system (malloc_trim;
/// a no-op where the C library has none). Costs a walk over the free
/// lists: call it between phases, not in loops.
void releaseFreeHeapPages();

/// Whether releaseFreeHeapPages() between phases pays for a trace of this
/// many events. Below a million events the freed blocks are a few MB:
/// handing their pages back only makes the next phase fault them in again,
/// zeroed, while the trim holds the arena lock (h100 owlv2, 132 k events:
/// full pipeline medians 166 / 166 -> 160 / 162 ms without, same peak RSS).
/// Above it they are what keeps the peak down.
bool heapTrimPays(uint64_t TraceEvents);

/// Make every thread allocate from one malloc arena (M_ARENA_MAX = 1; a
/// no-op without glibc). Call before starting threads. Blocks freed by one
/// thread are then reused by the others: with per-thread arenas the
/// analyses' freed temporaries stay stranded in the pool threads' arenas
/// while the report, written on the main thread, grows the main one
/// (1 GB tl-gen, --threads=2: peak RSS 507 -> 490 MB at equal CPU time;
/// glibc's per-thread caches keep the shared arena's lock cold).
void useOneMallocArena();

/// Let up to N threads allocate from arenas of their own (M_ARENA_MAX = N;
/// threads started afterwards get a new arena while there are fewer than
/// N). For a job's rank workers: each imports and analyses a whole rank,
/// and on one arena they wait for its lock in turn (64 x 100 MB tl-gen job,
/// 2 workers: 59 s wall for 54 s CPU, i.e. one core; with an arena each
/// 27 s for 51 s, as fast as two MPI processes). useMallocArenas(1) goes
/// back to useOneMallocArena's setting for threads started later.
void useMallocArenas(unsigned N);

} // namespace tl

#endif // TL_SUPPORT_HEAPTRIM_H
