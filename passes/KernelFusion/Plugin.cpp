//===- Plugin.cpp - Entry point of the KernelFusion plugin ----------------===//
#include "KernelFusionPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "KernelFusion", "1.0", tl::registerKernelFusionPass};
}
