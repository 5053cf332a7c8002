//===- DType.cpp - dtype sizes and precision names ------------------------===//
#include "tl/Analysis/DType.h"

#include "llvm/ADT/StringSwitch.h"

#include <string>

using namespace tl;

std::optional<int> tl::bytesPerElement(llvm::StringRef TypeName) {
  std::string L = TypeName.lower();
  int B = llvm::StringSwitch<int>(L)
              .Cases("double", "long int", 8)
              .Cases("float", "scalar", "int", 4)
              .Cases("c10::half", "c10::bfloat16", 2)
              .Cases("c10::float8_e4m3fnuz", "c10::float8_e4m3fn",
                     "c10::float8_e5m2", "c10::float8_e8m0fnu", 1)
              .Cases("unsigned char", "signed char", "fp8",
                     "c10::float4_e2m1fn_x2", "fp4", 1)
              .Default(0);
  if (B == 0)
    return std::nullopt;
  return B;
}

std::optional<llvm::StringRef> tl::precisionOf(llvm::StringRef TypeName) {
  std::string L = TypeName.lower();
  llvm::StringRef P = llvm::StringSwitch<llvm::StringRef>(L)
                          .Case("float", "fp32")
                          .Case("double", "fp64")
                          .Case("c10::half", "fp16")
                          .Case("c10::bfloat16", "bf16")
                          .Cases("c10::float8_e4m3fnuz", "c10::float8_e4m3fn",
                                 "unsigned char", "fp8", "fp8")
                          .Cases("fp4", "mxfp4", "c10::float4_e2m1fn_x2", "fp4")
                          .Default("");
  if (P.empty())
    return std::nullopt;
  return P;
}

std::optional<int> tl::collDtypeBytes(llvm::StringRef Dtype) {
  int B = llvm::StringSwitch<int>(Dtype)
              .Cases("Float", "Int", 4)
              .Cases("Long", "Double", 8)
              .Cases("BFloat16", "Half", "Short", 2)
              .Cases("Bool", "Byte", 1)
              .Default(0);
  if (B == 0)
    return std::nullopt;
  return B;
}

int tl::tritonDtypeBytes(llvm::StringRef TypeName) {
  return llvm::StringSwitch<int>(TypeName)
      .Cases("BFloat16", "Half", 2)
      .Cases("Float", "Int", 4)
      .Cases("Double", "Long", 8)
      .Cases("Byte", "Char", 1)
      .Default(0);
}
