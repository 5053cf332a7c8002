//===- DriverConfig.h - tl-opt --config files ------------------*- C++ -*-===//
#ifndef TL_TOOLS_TLOPT_DRIVERCONFIG_H
#define TL_TOOLS_TLOPT_DRIVERCONFIG_H

#include "tl/Pass/PassPipeline.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace tl {

/// Settings read from a YAML config file; unset keys stay nullopt so the
/// driver knows what the command line may still choose.
struct DriverConfig {
  std::optional<std::string> Pipeline;
  std::optional<std::string> Arch;
  std::optional<std::string> Output;
  std::optional<unsigned> Threads;
  std::optional<bool> IncludeUnlinked;
  PassOptionOverrides PassOptions;
};

/// Read FILE. Unknown keys, wrong types and YAML syntax errors are errors
/// naming the file (and the key).
llvm::Expected<DriverConfig> loadDriverConfig(llvm::StringRef Path);

} // namespace tl

#endif // TL_TOOLS_TLOPT_DRIVERCONFIG_H
