//===- StepSelection.cpp - --steps: which ProfilerSteps to analyse --------===//
#include "tl/Analysis/StepSelection.h"

#include "tl/Analysis/ProfilerSteps.h"
#include "tl/Analysis/StepChecks.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace llvm;
using namespace tl;

namespace {

Error specError(StringRef Spec, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "--steps=" + Spec + ": " + Msg);
}

/// The runtime call that launched a GPU event: the IR's link, else the one
/// runtime call with the same correlation (spec §2.4: HTA links this way;
/// some memsets carry no launch flow).
class LauncherFinder {
public:
  explicit LauncherFinder(const Trace &T) : T(T) {}
  EventId operator()(EventId G) {
    if (T.isLinked(G))
      return T.parent(G);
    std::optional<int64_t> C = T.correlation(G);
    if (!C)
      return NoEvent;
    if (!Built) {
      Built = true;
      for (EventKind K : {EventKind::Runtime, EventKind::Driver})
        for (EventId R : T.eventsOfKind(K))
          if (std::optional<int64_t> RC = T.correlation(R)) {
            if (*RC >= std::numeric_limits<int64_t>::max() - 1)
              continue; // DenseMap's reserved keys
            auto [It, New] = ByCorr.try_emplace(*RC, R);
            if (!New)
              It->second = NoEvent; // ambiguous
          }
    }
    if (*C >= std::numeric_limits<int64_t>::max() - 1)
      return NoEvent;
    auto It = ByCorr.find(*C);
    return It == ByCorr.end() ? NoEvent : It->second;
  }

private:
  const Trace &T;
  bool Built = false;
  DenseMap<int64_t, EventId> ByCorr;
};

/// The step whose CPU range holds Ts, or -1.
int stepAt(ArrayRef<StepWindow> Steps, double Ts) {
  auto It = std::upper_bound(
      Steps.begin(), Steps.end(), Ts,
      [](double V, const StepWindow &S) { return V < S.CpuStart; });
  if (It == Steps.begin())
    return -1;
  --It;
  return Ts < It->CpuEnd ? int(It - Steps.begin()) : -1;
}

/// Every GPU event of T with the position in Steps of the step that launched
/// it (spec §2.4's launch attribution), -1 when its launch lies outside
/// every step, NoLaunch when it has no launch at all.
constexpr int NoLaunch = -2;
template <typename Fn>
void forEachGpuLaunch(const Trace &T, ArrayRef<StepWindow> Steps, Fn F) {
  LauncherFinder Launcher(T);
  for (EventId G : T.gpuEvents()) {
    EventId R = Launcher(G);
    F(G, R == NoEvent ? NoLaunch : stepAt(Steps, T.ts(R)));
  }
}

std::vector<int64_t> stepNumbers(const StepWindows &W) {
  std::vector<int64_t> N;
  for (const StepWindow &S : W.Steps)
    N.push_back(S.Number);
  return N;
}

} // namespace

StepWindows tl::computeStepWindows(const Trace &T,
                                   std::optional<double> FirstStart) {
  StepWindows Out;
  std::vector<ProfilerStep> PS = collectProfilerSteps(T);
  if (PS.empty())
    return Out;
  for (const ProfilerStep &P : PS) {
    StepWindow S;
    S.Number = P.Number;
    S.CpuStart = P.Start;
    S.CpuEnd = P.End;
    Out.Steps.push_back(S);
  }
  // The quality gate's truncation checks (TraceQuality.cpp), on the same
  // steps; warm-up and outliers come from the steady-state rule below.
  std::optional<Interval> Span = profilerSpan(T);
  if (!truncatedStepEvidence(PS, Span ? std::optional<double>(Span->End)
                                      : std::nullopt)
           .empty())
    Out.Steps.back().Truncated = true;

  std::vector<EventId> Unlaunched;
  forEachGpuLaunch(T, Out.Steps, [&](EventId G, int I) {
    if (I == NoLaunch)
      Unlaunched.push_back(G);
    if (I < 0)
      return;
    StepWindow &S = Out.Steps[I];
    ++S.GpuEvents;
    if (!S.Gpu)
      S.Gpu = Interval{T.ts(G), T.end(G)};
    S.Gpu->Start = std::min(S.Gpu->Start, T.ts(G));
    S.Gpu->End = std::max(S.Gpu->End, T.end(G));
  });
  // Work launched before the recording: GPU events without a launch that
  // end before the steps' first GPU work.
  double FirstGpu = std::numeric_limits<double>::infinity();
  for (const StepWindow &S : Out.Steps)
    if (S.Gpu)
      FirstGpu = std::min(FirstGpu, S.Gpu->Start);
  double PreEnd = -std::numeric_limits<double>::infinity();
  for (EventId G : Unlaunched)
    if (T.end(G) < FirstGpu) {
      ++Out.PreTraceGpu;
      PreEnd = std::max(PreEnd, T.end(G));
    }
  Out.PartialStart = Out.PreTraceGpu && PreEnd > Out.Steps.front().CpuStart;
  for (size_t I = 0; I < Out.Steps.size(); ++I) {
    StepWindow &S = Out.Steps[I];
    S.Start = I == 0 ? std::max(S.CpuStart, PreEnd)
                     : std::max(Out.Steps[I - 1].End, S.CpuStart);
    if (I == 0 && FirstStart)
      S.Start = *FirstStart;
    S.End = S.Gpu ? std::max(S.CpuEnd, S.Gpu->End) : S.CpuEnd;
    S.End = std::max(S.End, S.Start);
  }
  // The rule's candidates: every step but a truncated one.
  std::vector<size_t> Cand;
  std::vector<double> Times;
  for (size_t I = 0; I < Out.Steps.size(); ++I)
    if (!Out.Steps[I].Truncated) {
      Cand.push_back(I);
      Times.push_back(Out.Steps[I].time());
    }
  Out.Steady = steadyRule(Times);
  for (size_t &P : Out.Steady.Warmup)
    Out.Steps[P = Cand[P]].Warmup = true;
  for (size_t &P : Out.Steady.Outliers)
    Out.Steps[P = Cand[P]].Outlier = true;
  if (auto &Sel = Out.Steady.Selection)
    Sel = std::pair{Cand[Sel->first], Cand[Sel->second]};
  return Out;
}

std::vector<std::vector<EventId>>
tl::launchedGpuEvents(const Trace &T, ArrayRef<StepWindow> Steps) {
  std::vector<std::vector<EventId>> Out(Steps.size());
  forEachGpuLaunch(T, Steps, [&](EventId G, int I) {
    if (I >= 0)
      Out[I].push_back(G);
  });
  return Out;
}

SteadyRule tl::steadyRule(ArrayRef<double> Times) {
  SteadyRule R;
  size_t N = Times.size();
  if (N == 0)
    return R;
  R.Median = numpyMedian(Times);
  std::vector<double> Dev;
  for (double T : Times)
    Dev.push_back(std::fabs(T - R.Median));
  R.Mad = numpyMedian(Dev);
  // 1.4826 x MAD estimates a normal spread's standard deviation.
  R.Tol = std::max(0.25 * R.Median, 3 * 1.4826 * R.Mad);
  if (N < 3) {
    R.TooFew = true;
    R.Selection = std::pair{size_t(0), N - 1};
    return R;
  }
  size_t First = 0;
  while (N - First > 2 && Times[First] > R.Median + R.Tol)
    R.Warmup.push_back(First++);
  size_t BestStart = 0, BestLen = 0;
  for (size_t I = First; I < N;) {
    if (std::fabs(Times[I] - R.Median) > R.Tol) {
      R.Outliers.push_back(I++);
      continue;
    }
    size_t J = I;
    while (J < N && std::fabs(Times[J] - R.Median) <= R.Tol)
      ++J;
    if (J - I >= BestLen) { // ties: the later run
      BestStart = I;
      BestLen = J - I;
    }
    I = J;
  }
  if (BestLen)
    R.Selection = std::pair{BestStart, BestStart + BestLen - 1};
  return R;
}

Expected<StepSpec> tl::parseStepSpec(StringRef Text) {
  StepSpec S;
  S.Text = Text.str();
  StringRef V = Text.trim();
  auto Num = [](StringRef X, int64_t &Out) {
    X = X.trim();
    return !X.empty() && all_of(X, isDigit) && !X.getAsInteger(10, Out);
  };
  auto Bad = [&] {
    return specError(Text, "expected all, steady, hta, N, A..B, first:N "
                           "or last:N (N = the N of ProfilerStep#N)");
  };
  if (V == "all")
    return S;
  if (V == "steady" || V == "hta") {
    S.K = V == "hta" ? StepSpec::Kind::Hta : StepSpec::Kind::Steady;
    return S;
  }
  for (auto [Prefix, K] : {std::pair{StringRef("first:"), StepSpec::Kind::First},
                           std::pair{StringRef("last:"), StepSpec::Kind::Last}})
    if (V.starts_with(Prefix)) {
      S.K = K;
      if (!Num(V.drop_front(Prefix.size()), S.A))
        return Bad();
      if (S.A == 0)
        return specError(Text, "the step count must be at least 1");
      return S;
    }
  S.K = StepSpec::Kind::Range;
  size_t Dots = V.find("..");
  StringRef L = V, R = V;
  if (Dots != StringRef::npos) {
    L = V.take_front(Dots);
    R = V.drop_front(Dots + 2);
  } else if (size_t Dash = V.find('-'); Dash != StringRef::npos) {
    L = V.take_front(Dash);
    R = V.drop_front(Dash + 1);
  }
  if (!Num(L, S.A) || !Num(R, S.B))
    return Bad();
  if (S.A > S.B)
    return specError(Text, "the range is empty (" + Twine(S.A) + " > " +
                               Twine(S.B) + ")");
  return S;
}

std::string tl::describeSteps(ArrayRef<int64_t> N) {
  if (N.empty())
    return "no ProfilerStep";
  if (N.size() == 1)
    return "ProfilerStep#" + std::to_string(N[0]);
  bool Contiguous = true;
  for (size_t I = 1; I < N.size(); ++I)
    Contiguous &= N[I] == N[I - 1] + 1;
  if (Contiguous)
    return "ProfilerStep#" + std::to_string(N.front()) + "..#" +
           std::to_string(N.back());
  std::string Out = "ProfilerStep#" + std::to_string(N[0]);
  constexpr size_t Shown = 10;
  for (size_t I = 1; I < N.size() && I < Shown; ++I)
    Out += ", #" + std::to_string(N[I]);
  if (N.size() > Shown)
    Out += ", ... (" + std::to_string(N.size()) + " steps)";
  return Out;
}

Expected<std::pair<size_t, size_t>> tl::selectSteps(const StepSpec &Spec,
                                                    const StepWindows &W) {
  assert(!Spec.isAll() && "--steps=all selects the whole trace");
  const std::vector<StepWindow> &S = W.Steps;
  std::vector<int64_t> Nums = stepNumbers(W);
  std::string Has = "the trace has " + describeSteps(Nums);
  size_t Count = S.size();
  auto Position = [&](int64_t N) -> std::optional<size_t> {
    for (size_t I = 0; I < Count; ++I)
      if (S[I].Number == N)
        return I;
    return std::nullopt;
  };
  switch (Spec.K) {
  case StepSpec::Kind::All:
    break;
  case StepSpec::Kind::Steady:
    if (!W.Steady.Selection)
      return specError(Spec.Text,
                       "every step is a warm-up, outlier or truncated one (" +
                           describeSteps(Nums) + ")");
    return *W.Steady.Selection;
  case StepSpec::Kind::Hta:
    // HTA's default: every step but the last, truncated or not.
    if (Count < 2)
      return specError(Spec.Text, "the trace has one step (" +
                                      describeSteps(Nums) +
                                      "); --steps=hta leaves out the last");
    return std::pair{size_t(0), Count - 2};
  case StepSpec::Kind::First:
  case StepSpec::Kind::Last:
    if (uint64_t(Spec.A) > Count)
      return specError(Spec.Text, "the trace has " + Twine(Count) + " step" +
                                      (Count == 1 ? "" : "s") + " (" +
                                      describeSteps(Nums) + ")");
    if (Spec.K == StepSpec::Kind::First)
      return std::pair{size_t(0), size_t(Spec.A - 1)};
    return std::pair{Count - size_t(Spec.A), Count - 1};
  case StepSpec::Kind::Range: {
    std::optional<size_t> A = Position(Spec.A), B = Position(Spec.B);
    if (!A || !B)
      return specError(Spec.Text, Has);
    if (*A > *B)
      return specError(Spec.Text, "ProfilerStep#" + Twine(Spec.A) +
                                      " comes after #" + Twine(Spec.B) +
                                      " in the trace");
    return std::pair{*A, *B};
  }
  }
  return specError(Spec.Text, Has);
}

StepRestriction tl::stepRestriction(const Trace &T, const StepWindows &W,
                                    size_t First, size_t Last,
                                    StringRef Spec) {
  StepRestriction Out;
  TraceWindow &Win = Out.Window;
  Win.Spec = Spec.str();
  for (size_t I = 0; I < W.Steps.size(); ++I) {
    const StepWindow &S = W.Steps[I];
    Win.AllSteps.push_back(S.Number);
    if (I >= First && I <= Last)
      Win.Steps.push_back(S.Number);
    if (S.Warmup)
      Win.Flags.push_back({S.Number, "warm-up"});
    if (S.Outlier)
      Win.Flags.push_back({S.Number, "outlier"});
    if (S.Truncated)
      Win.Flags.push_back({S.Number, "truncated"});
  }
  Win.SteadyMedian = W.Steady.Median;
  Win.SteadyTol = W.Steady.Tol;
  Win.SteadyTooFew = W.Steady.TooFew;
  Win.PartialStart = W.PartialStart;
  Win.HostStart = W.Steps[First].CpuStart;
  Win.HostEnd = W.Steps[Last].CpuEnd;
  Win.GpuStart = W.Steps[First].Start;
  Win.GpuEnd = W.Steps[Last].End;
  Win.RecordedEvents = T.size();
  auto InHost = [&](double Ts) {
    return Win.HostStart <= Ts && Ts < Win.HostEnd;
  };
  auto InGpu = [&](double Ts) {
    return Win.GpuStart <= Ts && Ts < Win.GpuEnd;
  };
  Out.Keep.assign(T.size(), 0);
  for (EventId E = 0; E < T.size(); ++E) {
    EventKind K = T.kind(E);
    if (!isGpuKind(K))
      Out.Keep[E] = K == EventKind::GpuUserAnnotation ? InGpu(T.ts(E))
                                                      : InHost(T.ts(E));
  }
  LauncherFinder Launcher(T);
  for (EventId G : T.gpuEvents()) {
    EventId R = Launcher(G);
    Out.Keep[G] = R != NoEvent ? Out.Keep[R] : InGpu(T.ts(G));
  }
  return Out;
}
