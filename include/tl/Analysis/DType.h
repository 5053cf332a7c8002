//===- DType.h - dtype sizes and precision names --------------*- C++ -*-===//
//
// Lookups of the profiler's "Input type" strings (spec perf-report §5.2) and
// of the NCCL dtype names used by coll_analysis (§6.10).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_DTYPE_H
#define TL_ANALYSIS_DTYPE_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tl {

/// Bytes per element (`name2bpe`, lower-cased lookup); nullopt for unknown
/// types such as "bool", "ScalarList" or "long".
std::optional<int> bytesPerElement(llvm::StringRef TypeName);

/// Precision tag (`torch_dtype_map`, lower-cased): "fp32", "bf16", "fp8"...;
/// nullopt for anything else.
std::optional<llvm::StringRef> precisionOf(llvm::StringRef TypeName);

/// Bytes per element of a c10 scalar type name as used by coll_analysis
/// ("Float", "BFloat16", ...; case-sensitive); nullopt when unknown.
std::optional<int> collDtypeBytes(llvm::StringRef Dtype);

/// Bytes per element of a c10 type name for the triton model (§5.10):
/// BFloat16/Half 2, Float 4, Double 8, Byte/Char 1, Int 4, Long 8, else 0.
int tritonDtypeBytes(llvm::StringRef TypeName);

} // namespace tl

#endif // TL_ANALYSIS_DTYPE_H
