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
/// 3: FindingSink::artifact returns an Error (reference-schema paths are
/// refused), fusion candidates and multi-kernel data are typed.
#define TL_PLUGIN_API_VERSION 3

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
  /// Load Path, check the file (ELF header and segments inside the file,
  /// class and machine of this process), the entry point and the API
  /// version. Does not register. A relative Path is taken from the current
  /// directory, never searched for on the library path.
  static llvm::Expected<PassPlugin> load(llvm::StringRef Path);

  llvm::StringRef getFilename() const { return Filename; }
  llvm::StringRef getPluginName() const { return Info.PluginName; }
  llvm::StringRef getPluginVersion() const { return Info.PluginVersion; }
  uint32_t getAPIVersion() const { return Info.APIVersion; }

  /// Run the plugin's registration; duplicate names and a throwing
  /// callback become an error. Isolate: its passes run in a child process
  /// (PassInfo::Isolated).
  llvm::Error registerPasses(PassRegistry &Registry,
                             bool Isolate = false) const;

  /// Load Path and register it into a copy of Registry in a forked child:
  /// a crash, abort, exit or hang while loading or registering becomes an
  /// error naming the file (`... killed by signal SIGSEGV (...)`). Other
  /// problems are left for load() and registerPasses() to report.
  static llvm::Error tryInChild(llvm::StringRef Path,
                                const PassRegistry &Registry,
                                unsigned TimeoutSeconds);

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
