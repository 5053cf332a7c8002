//===- SessionSettings.cpp - Config files and the precedence rule ---------===//
//
// The only place of the driver where yaml-cpp exceptions are caught; they
// become llvm::Error here.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/SessionOptions.h"

#include "YamlExpansion.h"
#include "tl/Support/TerminalText.h"
#include "tl/Support/YamlSyntax.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <yaml-cpp/yaml.h>

using namespace llvm;

namespace tl {

static Error configError(StringRef Path, const Twine &Msg) {
  // One line whatever the file holds: a key may contain a line break.
  return createStringError(inconvertibleErrorCode(),
                           singleLine((Path + ": " + Msg).str()));
}

/// A scalar as text (numbers and bools keep their spelling).
static Expected<std::string> scalar(StringRef Path, const YAML::Node &N,
                                    StringRef Key) {
  if (!N.IsScalar())
    return configError(Path, "'" + Key + "' must be a scalar value");
  return N.Scalar();
}

// One parser per setting type (Settings.def).
static Error parseValue(StringRef Path, StringRef Key, const YAML::Node &N,
                        std::string &Out) {
  auto S = scalar(Path, N, Key);
  if (!S)
    return S.takeError();
  Out = *S;
  return Error::success();
}

template <typename Int>
static Error parseInteger(StringRef Path, StringRef Key, const YAML::Node &N,
                          Int &Out) {
  auto S = scalar(Path, N, Key);
  if (!S)
    return S.takeError();
  if (StringRef(*S).getAsInteger(10, Out))
    return configError(Path, "'" + Key + "' must be a non-negative "
                                         "integer, got '" + *S + "'");
  return Error::success();
}

static Error parseValue(StringRef Path, StringRef Key, const YAML::Node &N,
                        unsigned &Out) {
  return parseInteger(Path, Key, N, Out);
}

static Error parseValue(StringRef Path, StringRef Key, const YAML::Node &N,
                        uint64_t &Out) {
  return parseInteger(Path, Key, N, Out);
}

static Error parseValue(StringRef Path, StringRef Key, const YAML::Node &N,
                        bool &Out) {
  auto S = scalar(Path, N, Key);
  if (!S)
    return S.takeError();
  std::string L = StringRef(*S).lower();
  if (L == "true" || L == "yes" || L == "on" || L == "1")
    Out = true;
  else if (L == "false" || L == "no" || L == "off" || L == "0")
    Out = false;
  else
    return configError(Path, "'" + Key + "' must be true or false, got '" +
                                 *S + "'");
  return Error::success();
}

/// A list setting: a YAML list of scalars, or one scalar.
static Error parseValue(StringRef Path, StringRef Key, const YAML::Node &N,
                        SettingList &Out) {
  if (!N.IsSequence()) {
    std::string One;
    if (Error E = parseValue(Path, Key, N, One))
      return E;
    Out = {One};
    return Error::success();
  }
  Out.clear();
  for (size_t I = 0; I < N.size(); ++I) {
    if (!N[I].IsScalar())
      return configError(Path, "'" + Key + "' list items must be scalars");
    Out.push_back(N[I].Scalar());
  }
  return Error::success();
}

static Error parsePassOptions(StringRef Path, const YAML::Node &V,
                              PassOptionOverrides &Out) {
  if (!V.IsMap())
    return configError(Path, "'passes' must map pass names to "
                             "{option: value}");
  for (auto P = V.begin(); P != V.end(); ++P) {
    std::string PassName = P->first.as<std::string>();
    YAML::Node PassNode = P->second;
    auto &Opts = Out[PassName];
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
            return configError(Path, "'passes." + PassName + "." + OptName +
                                         "' list items must be scalars");
          Text += (I ? "," : "") + OptNode[I].Scalar();
        }
      } else {
        auto S = scalar(Path, OptNode, "passes." + PassName + "." + OptName);
        if (!S)
          return S.takeError();
        Text = *S;
      }
      Opts.emplace_back(OptName, Text);
    }
  }
  return Error::success();
}

static std::string knownKeys() {
  SmallVector<StringRef, 32> Keys;
#define TL_SETTING(KEY, NAME, TYPE) Keys.push_back(KEY);
#include "tl/Driver/Settings.def"
  // `passes` second, where the first config files listed it.
  Keys.insert(Keys.begin() + 1, "passes");
  return join(Keys, ", ");
}

Expected<SessionSettings> loadSessionSettings(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return configError(Path, "cannot read config file: " +
                                 Buf.getError().message());
  return parseSessionSettings(Path, (*Buf)->getBuffer());
}

Expected<SessionSettings> parseSessionSettings(StringRef Path,
                                               StringRef Text) {
  SessionSettings C;
  // yaml-cpp reads some malformed texts without a word and ignores every
  // document after the first (tl/Support/YamlSyntax.h); they stop here.
  if (Error E = checkYamlSyntax(Text))
    return configError(Path, toString(std::move(E)));
  try {
    // Settings are short; aliases must not make them long (reading them
    // copies every scalar).
    constexpr uint64_t MaxExpanded = 16u << 20;
    if (yamlExpandedSize(Text) > MaxExpanded)
      return configError(Path, "YAML aliases expand the settings beyond 16 "
                               "MiB; write the values out instead");
    YAML::Node Root = YAML::Load(Text.str());
    if (Root.IsNull())
      return C;
    if (!Root.IsMap())
      return configError(Path, "expected a mapping of settings");
    for (auto It = Root.begin(); It != Root.end(); ++It) {
      std::string Key = It->first.as<std::string>();
      YAML::Node V = It->second;
      if (Key == "passes") {
        if (Error E = parsePassOptions(Path, V, C.PassOptions))
          return E;
        continue;
      }
#define TL_SETTING(KEY, NAME, TYPE)                                            \
  if (Key == KEY) {                                                            \
    TYPE Value{};                                                              \
    if (Error E = parseValue(Path, Key, V, Value))                             \
      return E;                                                     \
    C.NAME = std::move(Value);                                                 \
    continue;                                                                  \
  }
#include "tl/Driver/Settings.def"
      return configError(Path, "unknown key '" + Key + "' (known: " +
                                   knownKeys() + ")");
    }
  } catch (const YAML::Exception &E) {
    return configError(Path, "line " + Twine(E.mark.line + 1) + ": " + E.msg);
  }
  return C;
}

void SessionOptions::apply(const SessionSettings &Layer) {
#define TL_SETTING(KEY, NAME, TYPE)                                            \
  if (Layer.NAME)                                                              \
    NAME = *Layer.NAME;
#include "tl/Driver/Settings.def"
  for (const auto &[Pass, Opts] : Layer.PassOptions)
    PassOptions[Pass] = Opts;
}

SessionOptions resolveOptions(const SessionSettings &Config,
                              const SessionSettings &Flags) {
  SessionOptions O;
  O.apply(Config);
  O.apply(Flags);
  return O;
}

Expected<SessionOptions> resolveOptions(StringRef ConfigFile,
                                        const SessionSettings &Flags) {
  SessionSettings Config;
  if (!ConfigFile.empty()) {
    auto C = loadSessionSettings(ConfigFile);
    if (!C)
      return C.takeError();
    Config = std::move(*C);
  }
  SessionOptions O = resolveOptions(Config, Flags);
  O.ConfigFile = ConfigFile.str();
  return O;
}

} // namespace tl
