//===- Plugin.cpp - Entry point of the MultiKernel plugin -----------------===//
#include "MultiKernelPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "MultiKernel", "1.0", tl::registerMultiKernelPass};
}
