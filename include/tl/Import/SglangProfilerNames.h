//===- SglangProfilerNames.h - Drop SGLang's per-call op suffixes -*- C++ -*-===//
//
// SGLang's profiler names each wrapped call `sglang_profiler::<op>_<n>`, a
// new n per call site, so one op becomes many table rows. The reference's
// pseudo-op step renames them to `sglang_profiler::<op>` first
// (spec/tracelens-inference.md §B.5); tl does it in inference mode.
//
//===----------------------------------------------------------------------===//
#ifndef TL_IMPORT_SGLANGPROFILERNAMES_H
#define TL_IMPORT_SGLANGPROFILERNAMES_H

#include <cstdint>

namespace tl {

class Trace;

/// Every name `sglang_profiler::X_<digits>` (X not empty) whose first event
/// (lowest UID) of the host and GPU events is a cpu_op: all those events
/// are renamed `sglang_profiler::X`. Returns the events renamed.
uint64_t normalizeSglangProfilerNames(Trace &T);

} // namespace tl

#endif // TL_IMPORT_SGLANGPROFILERNAMES_H
