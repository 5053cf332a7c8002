//===- PassPlugin.h - Loadable analyzer plugins ----------------*- C++ -*-===//
//
// A plugin is a shared object exporting
//
//   extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
//     return {TL_PLUGIN_API_VERSION, "MyPlugin", "1.0",
//             [](tl::PassRegistry &R) { R.registerPass<MyPass>(); }};
//   }
//
// The driver checks APIVersion before calling RegisterCallbacks, so a plugin
// built against a different tl ABI is refused with a clear message.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASSPLUGIN_H
#define TL_PASS_PASSPLUGIN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

/// Bump when Pass, PassRegistry, FindingSink, Finding, AnalysisManager or
/// Emitter change layout or virtual interface. 2: passes describe
/// themselves (tier, capabilities, pipelines, prefetch, skill), analyses are
/// keyed by type, plugins register emitters, findings carry an insight.
#define TL_PLUGIN_API_VERSION 2

#define TL_PLUGIN_EXPORT __attribute__((visibility("default")))

namespace tl {
class PassRegistry;
}

extern "C" {
struct tlPassPluginInfo {
  uint32_t APIVersion;
  const char *PluginName;
  const char *PluginVersion;
  void (*RegisterCallbacks)(tl::PassRegistry &);
};
}

namespace tl {

/// A loaded plugin (the library stays loaded for the process lifetime).
class PassPlugin {
public:
  /// Load Path, check the entry point and API version. Does not register.
  static llvm::Expected<PassPlugin> load(llvm::StringRef Path);

  llvm::StringRef getFilename() const { return Filename; }
  llvm::StringRef getPluginName() const { return Info.PluginName; }
  llvm::StringRef getPluginVersion() const { return Info.PluginVersion; }
  uint32_t getAPIVersion() const { return Info.APIVersion; }

  /// Run the plugin's registration; duplicate names become an error.
  llvm::Error registerPasses(PassRegistry &Registry) const;

private:
  PassPlugin(std::string Filename, tlPassPluginInfo Info)
      : Filename(std::move(Filename)), Info(Info) {}
  std::string Filename;
  tlPassPluginInfo Info;
};

/// Built-in plugins: `<dir of tool>/../lib/tl/passes/*.so`, sorted by name.
std::vector<std::string> findBuiltinPlugins(llvm::StringRef ToolPath);

} // namespace tl

#endif // TL_PASS_PASSPLUGIN_H
