//===- KernelFusionPass.h - Registration of the pass ------------*- C++ -*-===//
//
// The pass's logic (KernelFusion.cpp) is a library of its own: the plugin entry
// (Plugin.cpp) registers it when tl-opt loads the plugin, and unit tests
// link the library and register it without loading anything.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASSES_KERNELFUSION_KERNELFUSIONPASS_H
#define TL_PASSES_KERNELFUSION_KERNELFUSIONPASS_H

namespace tl {

class PassRegistry;

/// Register the kernel-fusion pass with R.
void registerKernelFusionPass(PassRegistry &R);

} // namespace tl

#endif // TL_PASSES_KERNELFUSION_KERNELFUSIONPASS_H
