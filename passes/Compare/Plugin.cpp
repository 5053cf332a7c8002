//===- Plugin.cpp - Entry point of the Compare plugin ---------------------===//
#include "ComparePass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Compare", "1.0", tl::registerComparePass};
}
