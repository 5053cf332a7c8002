//===- Plugin.cpp - Entry point of the Conv plugin ------------------------===//
#include "ConvPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Conv", "1.0", tl::registerConvPass};
}
