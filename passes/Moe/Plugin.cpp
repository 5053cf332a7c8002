//===- Plugin.cpp - Entry point of the Moe plugin -------------------------===//
#include "MoePass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Moe", "1.0", tl::registerMoePass};
}
