//===- NumberFormat.cpp - Numbers written as JSON attributes or text ------===//
#include "tl/Support/NumberFormat.h"

#include "tl/Support/PyFormat.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

void tl::jsonNumAttr(llvm::json::OStream &J, llvm::StringRef Key, double V) {
  J.attributeBegin(Key);
  J.rawValue(jsonNumber(V));
  J.attributeEnd();
}

std::string tl::printfDouble(const char *Format, double V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format(Format, V);
  return S;
}
