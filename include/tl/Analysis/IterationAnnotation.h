//===- IterationAnnotation.h - serving iteration annotations ---*- C++ -*-===//
//
// vLLM / SGLang / ATOM runners wrap each engine step in a user annotation
// whose name encodes the batch: `execute_T_context_C(sq..sk..sqsq..sqsk..)
// _generation_G(...)`, `step[EXTEND bs=.. c_sq=.. ...]`, `prefill[...]`
// (spec tracelens-inference.md §A.1). The InferenceAttention models read
// their token aggregates from the annotation around the op.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_ITERATIONANNOTATION_H
#define TL_ANALYSIS_ITERATIONANNOTATION_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tl {

/// The 8 context (c_) / generation (g_) aggregates: query tokens, key
/// tokens, sum of squared query lengths, sum of query x key lengths.
struct ChunkStats {
  int64_t CSq = 0, CSk = 0, CSqSq = 0, CSqSk = 0;
  int64_t GSq = 0, GSk = 0, GSqSq = 0, GSqSk = 0;
};

/// chunk_stats() of the annotation grammar: the aggregates of the detailed
/// formats (vllm_detailed, sglang_detailed, atom_detailed with both sqsq and
/// sqsk); nullopt where the reference raises NotImplementedError (native
/// formats, unmatched names, "NA").
std::optional<ChunkStats> parseChunkStats(llvm::StringRef Name);

/// Ops whose `annotation` the reference sets (§A.1: name prefixes).
bool isAnnotationTarget(llvm::StringRef OpName);

/// The user annotations of a trace (cat containing "user_annotation", so
/// gpu_user_annotation ranges too), stably sorted by ts.
class AnnotationIndex {
public:
  explicit AnnotationIndex(const Trace &T);
  /// The first annotation A with A.ts <= ts and ts + dur < A.ts + A.dur
  /// (strict end), NoEvent when none (the reference's "NA").
  EventId annotationOf(double Ts, double Dur) const;
  /// annotationOf(E's ts, E's dur), as the OpDesc::Annotation text.
  std::string annotationNameOf(EventId E) const;

private:
  const Trace &T;
  std::vector<EventId> Sorted;
};

} // namespace tl

#endif // TL_ANALYSIS_ITERATIONANNOTATION_H
