//===- Plugin.cpp - Entry point of the Triton plugin ----------------------===//
#include "TritonPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Triton", "1.0", tl::registerTritonPass};
}
