//===- MissingSymbol.cpp - A plugin with an undefined symbol ---------------===//
//
// Links against a function nobody defines (a plugin built against another
// tl, or missing a library). Loaded lazily, the first call would end the
// process ("symbol lookup error", exit 127); it must be refused at load.
//
//===----------------------------------------------------------------------===//
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"

extern "C" void tlTestSymbolNobodyDefines();

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "MissingSymbol", "1.0",
          [](tl::PassRegistry &) { tlTestSymbolNobodyDefines(); }};
}
