//===- PyLiteral.h - Python literal parsing --------------------*- C++ -*-===//
//
// Profiler "Concrete Inputs" and reference CSV cells hold Python literals
// ("[1, 1]", "False", "('c10::BFloat16', None)"); these parse them.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_PYLITERAL_H
#define TL_SUPPORT_PYLITERAL_H

#include "tl/Support/PyValue.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace tl {

/// Python int(S) (surrounding whitespace allowed).
std::optional<int64_t> parsePyInt(llvm::StringRef S);
/// Python float(S) (also "inf", "nan").
std::optional<double> parsePyFloat(llvm::StringRef S);
/// ast.literal_eval subset: ints, floats, True/False/None, quoted strings,
/// lists and tuples, nested to any depth (no recursion).
llvm::Expected<PyValue> parsePyLiteral(llvm::StringRef S);

} // namespace tl

#endif // TL_SUPPORT_PYLITERAL_H
