//===- PassPlugin.cpp - Loading analyzer plugins --------------------------===//
#include "tl/Pass/PassPlugin.h"
#include "ElfCheck.h"
#include "tl/Pass/PassIsolation.h"
#include "tl/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>
#include <exception>

using namespace llvm;

namespace tl {

static Error pluginError(StringRef Path, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "plugin '" + Path + "': " + Msg);
}

/// The file a plugin path names, resolved once: a bare `libX.so` is the
/// one in the current directory (what was checked is what is loaded; dlopen
/// would search the library path for a name without a slash).
static std::string resolvePluginPath(StringRef Path) {
  SmallString<256> Abs(Path);
  if (sys::fs::make_absolute(Abs))
    return Path.str();
  return Abs.str().str();
}

Expected<PassPlugin> PassPlugin::load(StringRef Path) {
  std::string File = resolvePluginPath(Path);
  if (!sys::fs::exists(File))
    return pluginError(Path, "no such file");
  if (sys::fs::is_directory(File))
    return pluginError(Path, "is a directory, not a shared object");
  if (Error E = checkLoadableElf(File))
    return pluginError(Path, toString(std::move(E)));
  // RTLD_NOW: an undefined symbol is an error here, not a "symbol lookup
  // error" that ends the process on the first call to it.
  void *Handle = ::dlopen(File.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!Handle) {
    const char *Why = ::dlerror();
    return pluginError(Path, Twine("could not load: ") +
                                 (Why ? Why : "unknown error"));
  }
  std::string Err;
  // The same library (dlopen counts references); kept for the process
  // lifetime.
  sys::DynamicLibrary Lib =
      sys::DynamicLibrary::getPermanentLibrary(File.c_str(), &Err);
  if (!Lib.isValid())
    return pluginError(Path, "could not load: " + Err);
  void *Sym = Lib.getAddressOfSymbol("tlGetPassPluginInfo");
  if (!Sym)
    return pluginError(Path, "missing entry point 'tlGetPassPluginInfo' "
                             "(is it a tl pass plugin?)");
  using GetInfoFn = tlPassPluginInfo (*)();
  tlPassPluginInfo Info;
  try {
    Info = reinterpret_cast<GetInfoFn>(Sym)();
  } catch (...) {
    return pluginError(Path, "tlGetPassPluginInfo threw an exception");
  }
  if (Info.APIVersion != TL_PLUGIN_API_VERSION)
    return pluginError(Path, "plugin API version " + Twine(Info.APIVersion) +
                                 " does not match tl-opt's " +
                                 Twine(TL_PLUGIN_API_VERSION) +
                                 "; rebuild it against this tl");
  if (!Info.PluginName || !*Info.PluginName)
    return pluginError(Path, "plugin has no name");
  if (!Info.RegisterCallbacks)
    return pluginError(Path, "plugin has no registration callback");
  if (!Info.PluginVersion)
    Info.PluginVersion = "";
  return PassPlugin(Path.str(), Info);
}

Error PassPlugin::registerPasses(PassRegistry &Registry, bool Isolate) const {
  Registry.setOrigin("plugin " + getPluginName().str() + " (" +
                     sys::path::filename(Filename).str() + ")");
  Registry.setIsolated(Isolate);
  std::string Threw;
  try {
    Info.RegisterCallbacks(Registry);
  } catch (const std::exception &Ex) {
    Threw = std::string("registration callback threw an exception: ") +
            Ex.what();
  } catch (...) {
    Threw = "registration callback threw an exception of unknown type";
  }
  Registry.setOrigin("builtin");
  Registry.setIsolated(false);
  Error E = Registry.takeError();
  if (!Threw.empty()) {
    consumeError(std::move(E));
    return pluginError(Filename, Threw);
  }
  if (E)
    return pluginError(Filename, toString(std::move(E)));
  return Error::success();
}

Error PassPlugin::tryInChild(StringRef Path, const PassRegistry &Registry,
                             unsigned TimeoutSeconds) {
  ChildRunOptions CO;
  CO.TimeoutSeconds = TimeoutSeconds;
  ChildRunResult R = runInChildProcess(
      [&] {
        // The child's own copy of the registry: nothing comes back but
        // whether the child survived. Errors the parent finds again.
        auto &Copy = const_cast<PassRegistry &>(Registry);
        if (auto P = load(Path))
          consumeError(P->registerPasses(Copy, /*Isolate=*/true));
        else
          consumeError(P.takeError());
        return PassOutput();
      },
      CO);
  if (!R.Output.Failed)
    return Error::success();
  StringRef Msg = R.Output.Message;
  // The timeout is the registration's, not a pass's.
  if (Msg.starts_with("timed out"))
    return pluginError(Path, "loading or registering it did not finish "
                             "within " +
                                 Twine(TimeoutSeconds) + " s (--pass-timeout)");
  Msg.consume_back(" before returning its results");
  return pluginError(Path, "loading or registering it failed: " + Msg);
}

std::vector<std::string> findBuiltinPlugins(StringRef ToolPath) {
  SmallString<256> Dir(sys::path::parent_path(ToolPath));
  sys::path::append(Dir, "..", "lib", "tl", "passes");
  std::vector<std::string> Out;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".so")
      Out.push_back(It->path());
  llvm::sort(Out);
  return Out;
}

} // namespace tl
