//===- Plugin.cpp - Entry point of the Elementwise plugin -----------------===//
#include "ElementwisePass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Elementwise", "1.0", tl::registerElementwisePass};
}
