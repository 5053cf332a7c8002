//===- IterationAnnotation.h - Serving runners' iteration names -*- C++ -*-===//
//
// vLLM, SGLang, ATOM and diffusion runners mark each model iteration with a
// user annotation whose name encodes the batch (`execute_32_context_0(...)
// _generation_32(...)`, `step[DECODE bs=8]`, ...). The grammar is the
// reference's IterationAnnotation (spec/tracelens-inference.md §A.1): the
// formats are tried in order, each a prefix match, and the first whose
// parser succeeds wins.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_ITERATIONANNOTATION_H
#define TL_SUPPORT_ITERATIONANNOTATION_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>

namespace tl {

enum class IterationFormat : uint8_t {
  None, // no format matched (batch size 1)
  VllmDetailed,
  VllmNative,
  SglangDetailed,
  SglangNative,
  AtomDetailed,
  AtomNative,
  DiffusionNative,
};

struct IterationAnnotation {
  IterationFormat Format = IterationFormat::None;
  int64_t BatchSize = 1;
};

/// Parses iteration annotation names. Holds the compiled patterns, so build
/// one per task, not per name.
class IterationAnnotationParser {
public:
  IterationAnnotationParser();
  ~IterationAnnotationParser();
  IterationAnnotationParser(const IterationAnnotationParser &) = delete;
  IterationAnnotationParser &operator=(const IterationAnnotationParser &) =
      delete;

  /// The first format that matches and parses (None, batch 1, otherwise).
  IterationAnnotation parse(llvm::StringRef Name) const;
  /// True when Name starts with a *detailed* pattern (vllm, atom, sglang),
  /// whether or not its fields parse.
  bool matchesDetailed(llvm::StringRef Name) const;
  /// True when Name starts with a *native* pattern (vllm, sglang, atom,
  /// diffusion).
  bool matchesNative(llvm::StringRef Name) const;

private:
  struct Patterns;
  std::unique_ptr<Patterns> P;
};

} // namespace tl

#endif // TL_SUPPORT_ITERATIONANNOTATION_H
