//===- Plugin.cpp - Entry point of the Memory plugin ----------------------===//
#include "MemoryPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Memory", "1.0", tl::registerMemoryPass};
}
