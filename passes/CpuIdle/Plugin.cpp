//===- Plugin.cpp - Entry point of the CpuIdle plugin ---------------------===//
#include "CpuIdlePass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "CpuIdle", "1.0", tl::registerCpuIdlePass};
}
