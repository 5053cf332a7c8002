//===- CpuIdlePass.h - Registration of the pass -----------------*- C++ -*-===//
//
// The pass's logic (CpuIdle.cpp) is a library of its own: the plugin entry
// (Plugin.cpp) registers it when tl-opt loads the plugin, and unit tests
// link the library and register it without loading anything.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASSES_CPUIDLE_CPUIDLEPASS_H
#define TL_PASSES_CPUIDLE_CPUIDLEPASS_H

namespace tl {

class PassRegistry;

/// Register the cpu-idle pass with R.
void registerCpuIdlePass(PassRegistry &R);

} // namespace tl

#endif // TL_PASSES_CPUIDLE_CPUIDLEPASS_H
