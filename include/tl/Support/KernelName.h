//===- KernelName.h - Short kernel names for titles -------------*- C++ -*-===//
//
// GPU kernel names are C++ signatures of up to ~1000 characters. Titles and
// headings show a short form (docs/ReportFormat.md "Names in the report");
// the full name stays in evidence tables and findings.json.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_KERNELNAME_H
#define TL_SUPPORT_KERNELNAME_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

/// A short name of at most MaxLen characters (UTF-8 code points):
///  - a name that fits is returned unchanged;
///  - an Itanium-mangled name (`_Z...`) is demangled first;
///  - a C++ signature `ret ns::base<args>(params)` becomes `base<a1, a2, …>`:
///    return type, parameter list and namespace qualifiers are dropped; the
///    template arguments keep their order, each without its qualifiers and
///    with its parameter lists shown as `(…)`, as many as fit, then `…`;
///  - anything else is cut to MaxLen - 1 characters followed by `…`.
std::string shortKernelName(llvm::StringRef Name, size_t MaxLen = 80);

/// Number of UTF-8 code points of S.
size_t displayWidth(llvm::StringRef S);

} // namespace tl

#endif // TL_SUPPORT_KERNELNAME_H
