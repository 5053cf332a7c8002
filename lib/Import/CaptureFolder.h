//===- CaptureFolder.h - A folder of graph-capture traces -------*- C++ -*-===//
//
// The capture folder's `execution_details.json` (spec/tracelens-inference.md
// §C.1-§C.3): which capture trace holds the graphs of which batch size and
// mode, and the choice of file for one iteration.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_IMPORT_CAPTUREFOLDER_H
#define TL_LIB_IMPORT_CAPTUREFOLDER_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tl {

struct CaptureFolder {
  std::string Dir;
  /// False when the folder has no execution_details.json.
  bool HasDetails = false;
  /// Batch sizes of the usable entries, missing files included (§C.2).
  std::vector<int64_t> Sizes;
  /// "{batch}_{mode}" -> path of an existing capture trace.
  std::map<std::string, std::string> Files;
  /// Entries skipped (bad mode or batch size, missing file), one line each.
  std::vector<std::string> Warnings;

  /// The capture file for an iteration of Batch tokens with NumGraphLaunches
  /// graph launches (§C.3 steps 3-4), or nullopt with the reason in Why.
  std::optional<std::string> chooseFile(int64_t Batch, size_t NumGraphLaunches,
                                        std::string &Why) const;
};

/// Read Dir/execution_details.json. A folder that is not a directory and a
/// malformed details file are errors naming the file; a missing details
/// file leaves the folder empty, with a warning.
llvm::Expected<CaptureFolder> loadCaptureFolder(llvm::StringRef Dir);

} // namespace tl

#endif // TL_LIB_IMPORT_CAPTUREFOLDER_H
