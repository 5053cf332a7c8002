//===- ReportData.cpp - Typed data passes hand the reference files --------===//
#include "tl/Report/ReportData.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tl {

void ReportData::append(ReportData Other) {
  for (CategoryMetrics &C : Other.Metrics) {
    auto It = find_if(Metrics, [&](const CategoryMetrics &M) {
      return M.Key == C.Key;
    });
    if (It != Metrics.end())
      *It = std::move(C);
    else
      Metrics.push_back(std::move(C));
  }
  if (Other.MultiKernelData)
    MultiKernelData = std::move(Other.MultiKernelData);
  if (Other.FusionCandidates)
    FusionCandidates = std::move(Other.FusionCandidates);
}

const CategoryMetrics *ReportData::metrics(StringRef Key) const {
  for (const CategoryMetrics &C : Metrics)
    if (C.Key == Key)
      return &C;
  return nullptr;
}

bool isValidMetricsKey(StringRef Key) {
  return !Key.empty() && all_of(Key, [](char C) {
    return isAlnum(C) || C == '_' || C == '-';
  });
}

} // namespace tl
