//===- ProfilerSteps.cpp - ProfilerStep#N ranges and their stats ---------===//

#include "tl/Analysis/ProfilerSteps.h"

#include "tl/Support/Stats.h"

#include <algorithm>

using namespace tl;

std::vector<ProfilerStep> tl::collectProfilerSteps(const Trace &T) {
  std::vector<ProfilerStep> Steps;
  for (EventId E : T.eventsOfKind(EventKind::UserAnnotation)) {
    llvm::StringRef N = T.name(E);
    if (!N.consume_front("ProfilerStep#"))
      continue;
    ProfilerStep S;
    int64_t Num;
    if (!N.getAsInteger(10, Num))
      S.Number = Num;
    S.Event = E;
    S.Start = T.ts(E);
    S.End = T.end(E);
    Steps.push_back(S);
  }
  std::stable_sort(Steps.begin(), Steps.end(),
                   [](const ProfilerStep &A, const ProfilerStep &B) {
                     return A.Start < B.Start;
                   });
  if (Steps.empty())
    return Steps;
  // Attribute each linked GPU event to the step its launch started in.
  for (EventId G : T.gpuEvents()) {
    EventId R = T.parent(G);
    if (R == NoEvent)
      continue;
    double Ts = T.ts(R);
    auto It = std::upper_bound(
        Steps.begin(), Steps.end(), Ts,
        [](double V, const ProfilerStep &S) { return V < S.Start; });
    if (It == Steps.begin())
      continue;
    --It;
    if (Ts < It->End) {
      ++It->GpuEvents;
      It->GpuTime += T.dur(G);
    }
  }
  return Steps;
}

std::optional<double> tl::medianExcluding(llvm::ArrayRef<double> Values,
                                          size_t Skip) {
  std::vector<double> Rest;
  for (size_t I = 0; I < Values.size(); ++I)
    if (I != Skip)
      Rest.push_back(Values[I]);
  if (Rest.empty())
    return std::nullopt;
  return numpyMedian(Rest);
}

std::optional<double> tl::typicalStepValue(llvm::ArrayRef<double> Values) {
  if (Values.size() >= 3)
    return numpyMedian(Values.slice(1, Values.size() - 2));
  return medianExcluding(Values, 0);
}
