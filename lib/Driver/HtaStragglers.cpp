//===- HtaStragglers.cpp - HTA-style straggler candidates of a job --------===//
#include "tl/Driver/HtaStragglers.h"

#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/StepSelection.h"
#include "tl/Driver/JobReport.h"
#include "tl/IR/Trace.h"
#include "tl/Support/Markdown.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace tl {

/// The step whose CPU range holds Ts (Steps in start order), else null.
static const StepWindow *stepAt(ArrayRef<StepWindow> Steps, double Ts) {
  auto It = std::upper_bound(
      Steps.begin(), Steps.end(), Ts,
      [](double V, const StepWindow &S) { return V < S.CpuStart; });
  if (It == Steps.begin())
    return nullptr;
  --It;
  return Ts < It->CpuEnd ? &*It : nullptr;
}

HtaStragglerInput collectHtaStragglerInput(const Trace &T,
                                           ArrayRef<StepWindow> Steps) {
  HtaStragglerInput In;
  if (Steps.empty())
    return In;
  for (const StepWindow &S : Steps)
    In.Steps.push_back(S.Number);
  // HTA's iteration of an event: host events by their ts, any thread; GPU
  // events by their launch, whose spans G(N) the step windows hold.
  double First = std::numeric_limits<double>::infinity();
  double Last = -std::numeric_limits<double>::infinity();
  for (EventKind K :
       {EventKind::CpuOp, EventKind::PythonFunction, EventKind::UserAnnotation,
        EventKind::Runtime, EventKind::Driver})
    for (EventId E : T.eventsOfKind(K))
      if (stepAt(Steps, T.ts(E))) {
        First = std::min(First, T.ts(E));
        Last = std::max(Last, T.end(E));
      }
  for (const StepWindow &S : Steps)
    if (S.Gpu) {
      First = std::min(First, S.Gpu->Start);
      Last = std::max(Last, S.Gpu->End);
    }
  if (!(First <= Last))
    return In;
  In.FirstTs = First;
  In.LastEnd = Last;

  // The comm kernels per (stream, step, name), in start order.
  using Key = std::tuple<int64_t, int64_t, std::string>;
  std::map<Key, std::vector<HtaCommKernel>> Groups;
  std::vector<EventId> Ks;
  for (EventId K : T.eventsOfKind(EventKind::Kernel))
    if (isCommKernel(T.name(K)))
      Ks.push_back(K);
  llvm::stable_sort(Ks,
                    [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
  for (EventId K : Ks) {
    EventId L = T.isLinked(K) ? T.parent(K) : NoEvent;
    const StepWindow *S = L != NoEvent ? stepAt(Steps, T.ts(L)) : nullptr;
    if (!S)
      continue; // no iteration for HTA
    HtaCommKernel C;
    C.Stream = T.stream(K).value_or(-1);
    C.Step = S->Number;
    C.Name = SharedName(T.name(K));
    C.Ts = T.ts(K);
    C.Dur = T.dur(K);
    Groups[{C.Stream, C.Step, T.name(K).str()}].push_back(C);
  }
  // From the back: a kernel no longer than a later one is never the last
  // kernel above a threshold.
  for (auto &[K, Vs] : Groups) {
    double Longest = -std::numeric_limits<double>::infinity();
    for (const HtaCommKernel &C : llvm::reverse(Vs))
      if (C.Dur > Longest) {
        In.Kernels.push_back(C);
        Longest = C.Dur;
      }
  }
  return In;
}

HtaStragglerResult htaStyleCandidates(ArrayRef<HtaRankInput> Ranks,
                                      unsigned NumCandidates) {
  HtaStragglerResult R;
  if (NumCandidates == 0) {
    R.Why = "no candidate asked for";
    return R;
  }
  std::set<int64_t> Steps;
  double TMin = std::numeric_limits<double>::infinity();
  double TMax = -std::numeric_limits<double>::infinity();
  for (const HtaRankInput &X : Ranks) {
    if (!X.In || X.In->Steps.empty() || !(X.In->FirstTs <= X.In->LastEnd))
      continue;
    Steps.insert(X.In->Steps.begin(), X.In->Steps.end());
    TMin = std::min(TMin, X.In->FirstTs + X.ShiftUs);
    TMax = std::max(TMax, X.In->LastEnd + X.ShiftUs);
  }
  if (Steps.empty()) {
    R.Why = "no rank has a ProfilerStep";
    return R;
  }
  R.NumSteps = Steps.size();
  R.MeanIterUs = (TMax - TMin) / double(R.NumSteps);
  if (!(R.MeanIterUs > 0)) {
    R.Why = "the steps take no time";
    return R;
  }
  // The last kernel of each (rank, stream, step, name) of at least 1 % of
  // the mean iteration, normalised by it.
  double Threshold = 0.01 * R.MeanIterUs;
  struct Pick {
    int64_t Rank;
    double Start, Dur;
  };
  using Family = std::pair<int64_t, std::string>;
  std::map<Family, std::map<int64_t, std::vector<Pick>>> Families;
  for (const HtaRankInput &X : Ranks) {
    if (!X.In)
      continue;
    std::set<std::tuple<int64_t, int64_t, const char *>> Seen;
    for (const HtaCommKernel &K : X.In->Kernels) {
      if (K.Dur < Threshold ||
          !Seen.insert({K.Stream, K.Step, K.Name.ref().data()}).second)
        continue;
      Families[{K.Stream, K.Name.str()}][K.Step].push_back(
          {X.Rank, (K.Ts + X.ShiftUs - TMin) / R.MeanIterUs,
           K.Dur / R.MeanIterUs});
    }
  }
  // The family whose durations vary most across ranks: the sample std per
  // step (none with one rank), averaged over its steps; ties the first in
  // (stream, name) order, as pandas' idxmax over its sorted groups.
  const std::map<int64_t, std::vector<Pick>> *Best = nullptr;
  double BestStd = 0;
  for (const auto &[F, BySteps] : Families) {
    double Sum = 0;
    unsigned N = 0;
    for (const auto &[Step, Picks] : BySteps) {
      if (Picks.size() < 2)
        continue;
      std::vector<double> Durs;
      for (const Pick &P : Picks)
        Durs.push_back(P.Dur);
      Sum += pandasGroupStd(Durs);
      ++N;
    }
    if (!N)
      continue;
    if (!Best || Sum / N > BestStd) {
      Best = &BySteps;
      BestStd = Sum / N;
      R.Stream = F.first;
      R.Kernel = F.second;
    }
  }
  if (!Best) {
    R.Why = "no communication kernel that two ranks run in one step";
    return R;
  }
  // Per step, the ranks at or above the NumCandidates-th latest start.
  std::map<int64_t, unsigned> Flags;
  for (const auto &[Step, Picks] : *Best) {
    std::vector<double> Starts;
    for (const Pick &P : Picks)
      Starts.push_back(P.Start);
    llvm::sort(Starts, std::greater<double>());
    double Cut = Starts[std::min<size_t>(NumCandidates, Starts.size()) - 1];
    for (const Pick &P : Picks)
      if (P.Start >= Cut)
        ++Flags[P.Rank];
  }
  std::vector<std::pair<int64_t, unsigned>> Order(Flags.begin(), Flags.end());
  llvm::stable_sort(
      Order, [](const auto &A, const auto &B) { return A.second > B.second; });
  for (size_t I = 0; I < Order.size() && I < NumCandidates; ++I)
    R.Candidates.push_back(Order[I].first);
  return R;
}

std::string candidatesText(const HtaStragglerResult &R) {
  std::string Out;
  for (int64_t C : R.Candidates)
    Out += (Out.empty() ? "" : ";") + std::to_string(C);
  return Out;
}

/// tl's straggler is one of the candidates; empty when either is missing.
static std::optional<bool> agree(const JobReport &J) {
  if (!J.Stragglers.Straggler || J.HtaStyle.Candidates.empty())
    return std::nullopt;
  return llvm::is_contained(J.HtaStyle.Candidates, *J.Stragglers.Straggler);
}

CsvTable jobSummaryTable(const JobReport &J) {
  CsvTable Tab({"world_size", "ranks", "steps", "collectives", "tl_straggler",
                "hta_style_candidates", "hta_style_stream", "hta_style_kernel",
                "agree"});
  const HtaStragglerResult &H = J.HtaStyle;
  bool Have = !H.Candidates.empty();
  std::optional<bool> A = agree(J);
  Tab.addRow({pyInt(J.ExpectedRanks), pyInt(int64_t(J.Ranks.size())),
              pyInt(int64_t(J.Stragglers.JobSteps.size())),
              pyInt(int64_t(J.Collectives.size())),
              pyOptInt(J.Stragglers.Straggler), pyText(candidatesText(H)),
              Have ? pyInt(H.Stream) : PyValue::none(),
              pyText(Have ? H.Kernel : ""),
              A ? PyValue::boolean(*A) : PyValue::none()});
  return Tab;
}

/// "ranks 1 and 3", "rank 3".
static std::string ranksText(ArrayRef<int64_t> Rs) {
  std::string Out = Rs.size() == 1 ? "rank " : "ranks ";
  for (size_t I = 0; I < Rs.size(); ++I)
    Out += (I == 0               ? ""
            : I + 1 == Rs.size() ? " and "
                                 : ", ") +
           std::to_string(Rs[I]);
  return Out;
}

std::string htaStyleMarkdown(const JobReport &J) {
  const HtaStragglerResult &H = J.HtaStyle;
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "HTA-style straggler candidates (HTA's `get_potential_stragglers` "
        "with "
     << HtaNumCandidates
     << " candidates, the comm regex instead of its `ncclKernel` prefix; "
        "`multirank/job_summary.csv`): ";
  if (H.Candidates.empty()) {
    OS << "none: " << H.Why << ".\n\n";
    return Text;
  }
  OS << "**" << ranksText(H.Candidates) << "**, whose " << mdCode(H.Kernel)
     << " on stream " << H.Stream
     << " (the kernel whose duration varies most across ranks) starts "
        "latest, over "
     << H.NumSteps << " step" << (H.NumSteps == 1 ? "" : "s")
     << " of mean iteration " << printfDouble("%.3f", H.MeanIterUs) << " us. ";
  const std::optional<int64_t> &S = J.Stragglers.Straggler;
  std::vector<int64_t> Others;
  for (int64_t C : H.Candidates)
    if (!S || C != *S)
      Others.push_back(C);
  if (!S)
    OS << "tl names no straggler (no rank causes waiting at a collective).";
  else if (!llvm::is_contained(H.Candidates, *S))
    OS << "They differ from tl's straggler, rank " << *S
       << " (the most blame), which is not among them.";
  else if (Others.empty())
    OS << "The same as tl's straggler.";
  else
    OS << "tl's straggler, rank " << *S << ", is among them; "
       << ranksText(Others) << (Others.size() == 1 ? " is" : " are")
       << " not tl's straggler.";
  OS << "\n\n";
  return Text;
}

} // namespace tl
