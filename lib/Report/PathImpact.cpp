//===- PathImpact.cpp - On-path share of a finding's events ---------------===//
#include "tl/Report/PathImpact.h"

#include "tl/Analysis/CriticalPath.h"
#include "tl/IR/Trace.h"

#include <algorithm>
#include <vector>

using namespace llvm;

namespace tl {

std::optional<PathShare> pathShareOf(ArrayRef<uint32_t> Events,
                                     const Trace &T, const CriticalPath &CP) {
  if (Events.empty())
    return std::nullopt;
  // Nested instances can name one kernel twice; its time counts once.
  std::vector<uint32_t> Ids(Events.begin(), Events.end());
  std::sort(Ids.begin(), Ids.end());
  Ids.erase(std::unique(Ids.begin(), Ids.end()), Ids.end());
  PathShare S;
  for (uint32_t E : Ids) {
    if (E >= T.size())
      continue;
    S.EventUs += T.dur(E);
    S.OnPathUs += CP.onPathUsOf(E);
  }
  if (S.EventUs <= 0)
    return std::nullopt;
  return S;
}

} // namespace tl
