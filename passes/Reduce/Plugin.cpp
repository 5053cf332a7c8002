//===- Plugin.cpp - Entry point of the Reduce plugin ----------------------===//
#include "ReducePass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Reduce", "1.0", tl::registerReducePass};
}
