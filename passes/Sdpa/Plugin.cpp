//===- Plugin.cpp - Entry point of the Sdpa plugin ------------------------===//
#include "SdpaPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Sdpa", "1.0", tl::registerSdpaPass};
}
