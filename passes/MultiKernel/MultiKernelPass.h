//===- MultiKernelPass.h - Registration of the pass -------------*- C++ -*-===//
//
// The pass's logic (MultiKernel.cpp) is a library of its own: the plugin entry
// (Plugin.cpp) registers it when tl-opt loads the plugin, and unit tests
// link the library and register it without loading anything.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASSES_MULTIKERNEL_MULTIKERNELPASS_H
#define TL_PASSES_MULTIKERNEL_MULTIKERNELPASS_H

namespace tl {

class PassRegistry;

/// Register the multi-kernel pass with R.
void registerMultiKernelPass(PassRegistry &R);

} // namespace tl

#endif // TL_PASSES_MULTIKERNEL_MULTIKERNELPASS_H
