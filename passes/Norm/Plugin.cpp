//===- Plugin.cpp - Entry point of the Norm plugin ------------------------===//
#include "NormPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Norm", "1.0", tl::registerNormPass};
}
