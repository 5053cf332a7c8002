//===- ComputePass.cpp - Category routing for the compute passes ----------===//
#include "tl/Compute/ComputePass.h"


using namespace llvm;

namespace tl::compute {

std::vector<std::string> unclaimedCategories(const ComputeInput &In,
                                             ArrayRef<std::string> Claimed) {
  std::vector<std::string> Out;
  for (const auto &[Key, Display] : In.categories())
    if (!is_contained(Claimed, Key))
      Out.push_back(Key);
  return Out;
}

std::vector<std::pair<std::string, PyValue>> peakItems(const Peaks &P,
                                                       bool WithMaf) {
  std::vector<std::pair<std::string, PyValue>> Out;
  if (WithMaf) {
    std::optional<double> Maf = P.matrixBf16();
    Out.push_back({"peak_maf_tflops", Maf ? peakValue(*Maf) : PyValue::none()});
  }
  Out.push_back({"peak_hbm_bw_tbs",
                 P.HbmTbs ? PyValue::real(*P.HbmTbs) : PyValue::none()});
  return Out;
}

} // namespace tl::compute
