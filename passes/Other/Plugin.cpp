//===- Plugin.cpp - Entry point of the Other plugin -----------------------===//
#include "OtherPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Other", "1.0", tl::registerOtherPass};
}
