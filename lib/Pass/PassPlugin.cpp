//===- PassPlugin.cpp - Loading analyzer plugins --------------------------===//
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tl {

static Error pluginError(StringRef Path, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "plugin '" + Path + "': " + Msg);
}

Expected<PassPlugin> PassPlugin::load(StringRef Path) {
  if (!sys::fs::exists(Path))
    return pluginError(Path, "no such file");
  if (sys::fs::is_directory(Path))
    return pluginError(Path, "is a directory, not a shared object");
  // Check the ELF magic first: dlopen's message for a text file is cryptic.
  {
    auto Buf = MemoryBuffer::getFileSlice(Path, 4, 0);
    if (!Buf || (*Buf)->getBuffer() != "\x7f" "ELF")
      return pluginError(Path, "not a shared object (no ELF header)");
  }
  std::string Err;
  sys::DynamicLibrary Lib =
      sys::DynamicLibrary::getPermanentLibrary(Path.str().c_str(), &Err);
  if (!Lib.isValid())
    return pluginError(Path, "could not load: " + Err);
  void *Sym = Lib.getAddressOfSymbol("tlGetPassPluginInfo");
  if (!Sym)
    return pluginError(Path, "missing entry point 'tlGetPassPluginInfo' "
                             "(is it a tl pass plugin?)");
  using GetInfoFn = tlPassPluginInfo (*)();
  tlPassPluginInfo Info = reinterpret_cast<GetInfoFn>(Sym)();
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

Error PassPlugin::registerPasses(PassRegistry &Registry) const {
  Registry.setOrigin("plugin " + getPluginName().str() + " (" +
                     sys::path::filename(Filename).str() + ")");
  Info.RegisterCallbacks(Registry);
  Registry.setOrigin("builtin");
  if (Error E = Registry.takeError())
    return pluginError(Filename, toString(std::move(E)));
  return Error::success();
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
