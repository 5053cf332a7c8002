//===- EventKind.h - Kinds of trace events ---------------------*- C++ -*-===//
#ifndef TL_IR_EVENTKIND_H
#define TL_IR_EVENTKIND_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace tl {

/// What an event is, from its `cat` (spec 1.3).
enum class EventKind : uint8_t {
  CpuOp,             // cpu_op
  PythonFunction,    // python_function
  UserAnnotation,    // user_annotation
  GpuUserAnnotation, // gpu_user_annotation
  Runtime,           // cuda_runtime (also on ROCm)
  Driver,            // cuda_driver
  Kernel,            // kernel
  Memcpy,            // gpu_memcpy
  Memset,            // gpu_memset
  Other,             // anything else, kept as a generic event
};

inline bool isGpuKind(EventKind K) {
  return K == EventKind::Kernel || K == EventKind::Memcpy ||
         K == EventKind::Memset;
}
inline bool isRuntimeKind(EventKind K) {
  return K == EventKind::Runtime || K == EventKind::Driver;
}
/// Kinds that take part in the host call tree.
inline bool isHostTreeKind(EventKind K) {
  return K == EventKind::CpuOp || K == EventKind::PythonFunction ||
         isRuntimeKind(K);
}

/// Stable lower-case spelling used by --print-ir ("cpu_op", "kernel", ...).
llvm::StringRef kindName(EventKind K);

/// Direction of a memory copy.
enum class MemcpyKind : uint8_t { None, HtoD, DtoH, DtoD, HtoH, PtoP, Other };
llvm::StringRef memcpyKindName(MemcpyKind K); // "HtoD", ...

} // namespace tl

#endif // TL_IR_EVENTKIND_H
