//===- ConvPass.h - Registration of the pass --------------------*- C++ -*-===//
//
// The pass's logic (Conv.cpp) is a library of its own: the plugin entry
// (Plugin.cpp) registers it when tl-opt loads the plugin, and unit tests
// link the library and register it without loading anything.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASSES_CONV_CONVPASS_H
#define TL_PASSES_CONV_CONVPASS_H

namespace tl {

class PassRegistry;

/// Register the conv pass with R.
void registerConvPass(PassRegistry &R);

} // namespace tl

#endif // TL_PASSES_CONV_CONVPASS_H
