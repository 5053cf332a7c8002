//===- DriverConfig.cpp - tl-opt --config files ---------------------------===//
//
// The only place of tl-opt where yaml-cpp exceptions are caught; they become
// llvm::Error here.
//
//===----------------------------------------------------------------------===//
#include "DriverConfig.h"

#include "llvm/Support/MemoryBuffer.h"

#include <yaml-cpp/yaml.h>

using namespace llvm;

namespace tl {

static Error configError(StringRef Path, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Msg);
}

/// A scalar as text (numbers and bools keep their spelling).
static Expected<std::string> scalar(StringRef Path, const YAML::Node &N,
                                    StringRef Key) {
  if (!N.IsScalar())
    return configError(Path, "'" + Key + "' must be a scalar value");
  return N.Scalar();
}

Expected<DriverConfig> loadDriverConfig(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return configError(Path, "cannot read config file: " +
                                 Buf.getError().message());
  DriverConfig C;
  try {
    YAML::Node Root = YAML::Load((*Buf)->getBuffer().str());
    if (Root.IsNull())
      return C;
    if (!Root.IsMap())
      return configError(Path, "expected a mapping of settings");
    for (auto It = Root.begin(); It != Root.end(); ++It) {
      std::string Key = It->first.as<std::string>();
      YAML::Node V = It->second;
      if (Key == "passes") {
        if (!V.IsMap())
          return configError(Path, "'passes' must map pass names to "
                                   "{option: value}");
        for (auto P = V.begin(); P != V.end(); ++P) {
          std::string PassName = P->first.as<std::string>();
          YAML::Node PassNode = P->second;
          auto &Opts = C.PassOptions[PassName];
          if (PassNode.IsNull())
            continue;
          if (!PassNode.IsMap())
            return configError(Path, "'passes." + PassName +
                                         "' must map options to values");
          for (auto O = PassNode.begin(); O != PassNode.end(); ++O) {
            std::string OptName = O->first.as<std::string>();
            YAML::Node OptNode = O->second;
            std::string Text;
            if (OptNode.IsSequence()) {
              // A YAML list is a list option: [1, 2] -> "1,2".
              for (size_t I = 0; I < OptNode.size(); ++I) {
                if (!OptNode[I].IsScalar())
                  return configError(Path, "'passes." + PassName + "." +
                                               OptName +
                                               "' list items must be scalars");
                Text += (I ? "," : "") + OptNode[I].Scalar();
              }
            } else {
              auto S = scalar(Path, OptNode, "passes." + PassName + "." +
                                                   OptName);
              if (!S)
                return S.takeError();
              Text = *S;
            }
            Opts.emplace_back(OptName, Text);
          }
        }
        continue;
      }
      auto S = scalar(Path, V, Key);
      if (!S)
        return S.takeError();
      if (Key == "pipeline") {
        C.Pipeline = *S;
      } else if (Key == "arch") {
        C.Arch = *S;
      } else if (Key == "output") {
        C.Output = *S;
      } else if (Key == "threads") {
        unsigned N;
        if (StringRef(*S).getAsInteger(10, N))
          return configError(Path, "'threads' must be a non-negative "
                                   "integer, got '" + *S + "'");
        C.Threads = N;
      } else if (Key == "include-unlinked") {
        std::string L = StringRef(*S).lower();
        if (L == "true" || L == "yes" || L == "on" || L == "1")
          C.IncludeUnlinked = true;
        else if (L == "false" || L == "no" || L == "off" || L == "0")
          C.IncludeUnlinked = false;
        else
          return configError(Path, "'include-unlinked' must be true or "
                                   "false, got '" + *S + "'");
      } else {
        return configError(Path, "unknown key '" + Key +
                                     "' (known: pipeline, passes, arch, "
                                     "output, threads, include-unlinked)");
      }
    }
  } catch (const YAML::Exception &E) {
    return configError(Path, "line " + Twine(E.mark.line + 1) + ": " + E.msg);
  }
  return C;
}

} // namespace tl
