//===- Plugin.cpp - Entry point of the Gemm plugin ------------------------===//
#include "GemmPass.h"
#include "tl/Pass/PassPlugin.h"

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "Gemm", "1.0", tl::registerGemmPass};
}
