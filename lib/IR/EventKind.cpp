//===- EventKind.cpp - Names of event kinds -------------------------------===//
#include "tl/IR/EventKind.h"

using namespace tl;

llvm::StringRef tl::kindName(EventKind K) {
  switch (K) {
  case EventKind::CpuOp:
    return "cpu_op";
  case EventKind::PythonFunction:
    return "python_function";
  case EventKind::UserAnnotation:
    return "user_annotation";
  case EventKind::GpuUserAnnotation:
    return "gpu_user_annotation";
  case EventKind::Runtime:
    return "cuda_runtime";
  case EventKind::Driver:
    return "cuda_driver";
  case EventKind::Kernel:
    return "kernel";
  case EventKind::Memcpy:
    return "gpu_memcpy";
  case EventKind::Memset:
    return "gpu_memset";
  case EventKind::Other:
    return "other";
  }
  return "other";
}

llvm::StringRef tl::memcpyKindName(MemcpyKind K) {
  switch (K) {
  case MemcpyKind::None:
    return "";
  case MemcpyKind::HtoD:
    return "HtoD";
  case MemcpyKind::DtoH:
    return "DtoH";
  case MemcpyKind::DtoD:
    return "DtoD";
  case MemcpyKind::HtoH:
    return "HtoH";
  case MemcpyKind::PtoP:
    return "PtoP";
  case MemcpyKind::Other:
    return "Other";
  }
  return "";
}
