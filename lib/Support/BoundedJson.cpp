//===- BoundedJson.cpp - llvm::json::parse with a nesting bound -----------===//
#include "tl/Support/BoundedJson.h"

using namespace llvm;

Expected<json::Value> tl::parseJsonBounded(StringRef Text, unsigned MaxDepth) {
  // Brackets inside strings do not nest; a backslash escapes the next byte.
  // Unbalanced or malformed text is left for json::parse to report.
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0, N = Text.size(); I < N; ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxDepth)
        return createStringError(inconvertibleErrorCode(),
                                 "nesting deeper than " + Twine(MaxDepth) +
                                     " at offset " + Twine(I));
    } else if ((C == ']' || C == '}') && Depth) {
      --Depth;
    }
  }
  return json::parse(Text);
}
