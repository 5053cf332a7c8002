//===- ElfCheck.h - Is a file a loadable shared object? --------*- C++ -*-===//
//
// dlopen maps a file without checking that its segments lie inside it: a
// truncated .so is a bus error on first touch. The header, the program
// headers and the section table are checked against the file size first,
// and the class, byte order, type and machine against this process.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_PASS_ELFCHECK_H
#define TL_LIB_PASS_ELFCHECK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tl {

/// Success, or what is wrong in a few words ("truncated: segment 2 ends at
/// byte 12288, the file has 4096 bytes").
llvm::Error checkLoadableElf(llvm::StringRef Path);

} // namespace tl

#endif // TL_LIB_PASS_ELFCHECK_H
