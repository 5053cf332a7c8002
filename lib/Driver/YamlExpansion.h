//===- YamlExpansion.h - how big a YAML text is with aliases expanded -----===//
//
// A YAML alias (*a) stands for the whole anchored node, so a small config
// file can describe an astronomically large document ("billion laughs").
// Reading the settings copies every scalar it visits, so the expanded size
// is measured first, from the parser's events, in one pass over the text.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_DRIVER_YAMLEXPANSION_H
#define TL_LIB_DRIVER_YAMLEXPANSION_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tl {

/// Bytes of scalar text (plus one per node) in Text's first document (the
/// one YAML::Load reads) with every alias replaced by what it names,
/// saturating at UINT64_MAX. Throws what the
/// yaml-cpp parser throws on malformed input.
uint64_t yamlExpandedSize(llvm::StringRef Text);

} // namespace tl

#endif // TL_LIB_DRIVER_YAMLEXPANSION_H
