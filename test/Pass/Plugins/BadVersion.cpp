//===- BadVersion.cpp - A plugin built for another API version ------------===//
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION + 1000, "BadVersion", "1.0",
          [](tl::PassRegistry &) {}};
}
