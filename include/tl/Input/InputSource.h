//===- InputSource.h - InputStream as a JsonReader source -------*- C++ -*-===//
//
// The importer's input for JsonReader: InputStream's buffered bytes, and the
// string limit (MaxStringBytes) reported as RapidJSON's capped parser stack
// allocator reported it: the stream ends with an error at that offset.
//
//===----------------------------------------------------------------------===//
#ifndef TL_INPUT_INPUTSOURCE_H
#define TL_INPUT_INPUTSOURCE_H

#include "tl/Input/InputStream.h"

#include <string>

namespace tl {

class LLVM_LIBRARY_VISIBILITY InputSource {
public:
  InputSource(InputStream &In, uint64_t Limit) : In(In), Limit(Limit) {}
  const char *ptr() const { return In.ptr(); }
  const char *end() const { return In.end(); }
  void setPtr(const char *P) { In.setPtr(P); }
  bool next() { return In.next(); }
  uint64_t tellAt(const char *P) const { return In.tellAt(P); }
  void stackLimit(const char *At) {
    if (In.hasError())
      return;
    In.setPtr(At);
    In.abort("expected strings shorter than " + std::to_string(Limit) +
             " bytes and shallower nesting (string limit)");
  }

private:
  InputStream &In;
  uint64_t Limit;
};

} // namespace tl

#endif // TL_INPUT_INPUTSOURCE_H
