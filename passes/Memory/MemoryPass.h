//===- MemoryPass.h - Registration of the pass ------------------*- C++ -*-===//
//
// The pass's logic (Memory.cpp) is a library of its own: the plugin entry
// (Plugin.cpp) registers it when tl-opt loads the plugin, and unit tests
// link the library and register it without loading anything.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASSES_MEMORY_MEMORYPASS_H
#define TL_PASSES_MEMORY_MEMORYPASS_H

namespace tl {

class PassRegistry;

/// Register the memory pass with R.
void registerMemoryPass(PassRegistry &R);

} // namespace tl

#endif // TL_PASSES_MEMORY_MEMORYPASS_H
