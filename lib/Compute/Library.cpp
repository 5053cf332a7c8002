//===- Library.cpp - Library detection and the kernel-fusion flag ---------===//
//
// tracelens-analysis §5.5 / §5.6.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ComputeCore.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tl::compute {

std::string detectLibrary(StringRef OpName, StringRef Kds) {
  std::string L = OpName.lower();
  static constexpr std::pair<const char *, const char *> ByName[] = {
      {"aiter::", "AITER"},  {"rocm_aiter", "AITER"}, {"fbgemm", "FBGEMM"},
      {"miopen", "MIOpen"}, {"triton", "Triton"}};
  for (auto [Pat, Lib] : ByName)
    if (StringRef(L).contains(Pat))
      return Lib;
  static constexpr std::pair<const char *, const char *> ByKernel[] = {
      {"aiter", "AITER"},
      {"ck_tile::", "CK"},
      {"ck_tile6kentry", "CK"},
      {"FmhaFwd", "CK"},
      {"FmhaBwd", "CK"},
      {"Cijk_", "Tensile"},
      {"wvSplitK", "rocBLAS"},
      {"splitKreduce", "rocBLAS"},
      {"rocprim::", "rocPRIM"},
      {"triton_", "Triton"},
      {"void at::native::", "PyTorch Native"}};
  for (auto [Pat, Lib] : ByKernel)
    if (Kds.contains(Pat))
      return Lib;
  return "";
}

std::vector<std::string> kernelNamesOf(StringRef Kds) {
  // The cell is a list of dict literals; only the 'name' strings matter.
  std::vector<std::string> Out;
  StringRef Key = "'name': ";
  size_t Pos = 0;
  while ((Pos = Kds.find(Key, Pos)) != StringRef::npos) {
    Pos += Key.size();
    if (Pos >= Kds.size())
      break;
    char Q = Kds[Pos];
    if (Q != '\'' && Q != '"')
      continue;
    std::string S;
    size_t I = Pos + 1;
    for (; I < Kds.size() && Kds[I] != Q; ++I) {
      if (Kds[I] == '\\' && I + 1 < Kds.size()) {
        ++I;
        char C = Kds[I];
        S += C == 'n' ? '\n' : C == 't' ? '\t' : C;
        continue;
      }
      S += Kds[I];
    }
    Out.push_back(std::move(S));
    Pos = I;
  }
  return Out;
}

std::string fusionMatch(ArrayRef<std::string> Kernels,
                        const FusionKernelMap &Map) {
  if (Map.empty())
    return "";
  for (const std::string &K : Kernels) {
    for (const auto &[Name, Op] : Map)
      if (Name == K)
        return Op;
    for (const auto &[Name, Op] : Map)
      if (StringRef(Name).starts_with(K) || StringRef(K).starts_with(Name))
        return Op;
  }
  return "";
}

} // namespace tl::compute
