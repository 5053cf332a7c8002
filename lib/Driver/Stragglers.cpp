//===- Stragglers.cpp - Straggler ranks of a job --------------------------===//
#include "tl/Driver/Stragglers.h"

#include "tl/Support/Markdown.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;

namespace tl {

/// "80.0 us", "3.1 ms".
static std::string timeText(double Us) {
  return Us >= 1000 ? printfDouble("%.1f ms", Us / 1e3)
                    : printfDouble("%.1f us", Us);
}

/// "all-reduces", the plural a finding names a collective type by.
static std::string typePlural(StringRef T) {
  if (T == "allreduce")
    return "all-reduces";
  if (T == "allgather")
    return "all-gathers";
  if (T == "reducescatter")
    return "reduce-scatters";
  if (T == "alltoall" || T == "alltoallv")
    return "all-to-alls";
  if (T == "sendrecv")
    return "send/recv pairs";
  if (T == "broadcast" || T == "reduce" || T == "barrier")
    return (T + "s").str();
  return "collectives";
}

/// "step 3", "steps 3-7" (numbers), "" without steps.
static std::string stepsText(const std::set<int64_t> &Steps) {
  if (Steps.empty())
    return "";
  if (Steps.size() == 1)
    return "step " + std::to_string(*Steps.begin());
  return "steps " + std::to_string(*Steps.begin()) + "-" +
         std::to_string(*Steps.rbegin());
}

static double median(std::vector<double> V) {
  return V.empty() ? 0 : numpyMedian(V);
}

StragglerAnalysis analyzeStragglers(ArrayRef<MatchedCollective> Cs,
                                    ArrayRef<RankSummary> Ranks) {
  StragglerAnalysis S;
  std::map<int64_t, RankStragglerRow> Rows;
  for (const RankSummary &R : Ranks) {
    RankStragglerRow &Row = Rows[R.Claim.Rank];
    Row.Rank = R.Claim.Rank;
    Row.CommKernelUs = R.TotalCommUs;
    Row.ComputationUs = R.ComputationUs;
    // §5.2's cause hint: the time the GPU waited for this rank's host.
    Row.IdleUs = R.Timeline.HasGpu ? R.Timeline.HostWaitIdleUs : R.IdleUs;
  }
  std::map<int64_t, std::map<int64_t, unsigned>> LastByStep;
  std::map<int64_t, StepStragglerRow> Steps;
  double TotalBlame = 0, SkewSum = 0, TransferSum = 0;
  unsigned Counted = 0, Bad = 0;
  for (const MatchedCollective &C : Cs) {
    if (C.Status != MatchStatus::Ok)
      ++Bad;
    if (!C.countsForStragglers() || C.Present.size() < 2)
      continue;
    ++Counted;
    SkewSum += C.ArrivalSkew;
    TransferSum += C.Transfer;
    TotalBlame += C.Blame;
    for (const MatchedMember &M : C.Present) {
      RankStragglerRow &Row = Rows[M.Rank];
      Row.Rank = M.Rank;
      ++Row.Instances;
      Row.TotalWait += M.Wait;
    }
    RankStragglerRow &Last = Rows[C.LastRank];
    ++Last.TimesLast;
    Last.Blame += C.Blame;
    Last.CausedSkew += C.ArrivalSkew;
    ++Rows[C.FirstRank].TimesFirst;
    if (C.Step) {
      StepStragglerRow &St = Steps[*C.Step];
      St.Step = *C.Step;
      ++St.Instances;
      St.MeanSkew += C.ArrivalSkew; // a sum until the end
      St.Blame += C.Blame;
      ++LastByStep[*C.Step][C.LastRank];
    }
  }
  for (auto &[R, Row] : Rows) {
    Row.BlameShare = TotalBlame > 0 ? 100 * Row.Blame / TotalBlame : 0;
    S.Ranks.push_back(Row);
  }
  llvm::stable_sort(S.Ranks, [](const RankStragglerRow &A,
                                const RankStragglerRow &B) {
    return A.Blame > B.Blame;
  });
  for (auto &[N, St] : Steps) {
    St.MeanSkew /= St.Instances;
    for (auto &[R, K] : LastByStep[N])
      if (K > St.TimesLast) {
        St.TimesLast = K;
        St.LastRank = R;
      }
    S.Steps.push_back(St);
  }

  // Σ T_job over the steps every rank recorded.
  std::map<int64_t, std::pair<size_t, double>> StepMax;
  for (const RankSummary &R : Ranks)
    for (auto &[N, T] : R.StepTimes) {
      auto &[Count, Max] = StepMax[N];
      ++Count;
      Max = std::max(Max, T);
    }
  for (auto &[N, CM] : StepMax)
    if (CM.first == Ranks.size()) {
      S.SumTJob += CM.second;
      S.JobSteps.push_back(N);
    }
  if (S.JobSteps.empty())
    for (const RankSummary &R : Ranks)
      S.SumTJob = std::max(S.SumTJob, R.TotalUs);

  if (!S.Ranks.empty() && S.Ranks.front().Blame > 0)
    S.Straggler = S.Ranks.front().Rank;

  // MR-STRAGGLER (§5.2 criteria).
  bool Found = false;
  if (S.Straggler && S.SumTJob > 0) {
    const RankStragglerRow &R = S.Ranks.front();
    double Impact = 100 * R.CausedSkew / S.SumTJob;
    if (R.BlameShare >= 50 && R.TimesLast >= 3 && R.pctLast() >= 50 &&
        Impact >= 5) {
      Found = true;
      JobFinding F;
      F.Id = "MR-STRAGGLER";
      F.Rank = R.Rank;
      F.ImpactPct = Impact;
      F.Severity = Impact >= 10 ? "high" : Impact >= 3 ? "medium" : "low";
      // The collective type it is most often last in, and its steps.
      std::map<std::string, unsigned> LastOf;
      for (const MatchedCollective &C : Cs)
        if (C.countsForStragglers() && C.Present.size() > 1 &&
            C.LastRank == R.Rank)
          ++LastOf[C.CollType];
      std::string Type;
      unsigned Most = 0;
      for (auto &[T, K] : LastOf)
        if (K > Most) {
          Most = K;
          Type = T;
        }
      unsigned OfType = 0, LastOfType = 0;
      double LateSum = 0;
      std::set<int64_t> TypeSteps;
      for (const MatchedCollective &C : Cs) {
        if (!C.countsForStragglers() || C.Present.size() < 2 ||
            C.CollType != Type ||
            none_of(C.Present,
                    [&](const MatchedMember &M) { return M.Rank == R.Rank; }))
          continue;
        ++OfType;
        if (C.Step)
          TypeSteps.insert(*C.Step);
        if (C.LastRank == R.Rank) {
          ++LastOfType;
          LateSum += C.ArrivalSkew;
        }
      }
      F.Collective = Type;
      F.TimeUs = LastOfType ? LateSum / LastOfType : 0;
      std::string Steps = stepsText(TypeSteps);
      F.Title = "rank " + std::to_string(R.Rank) + " reaches " +
                printfDouble("%.0f", 100.0 * LastOfType / OfType) +
                " % of the " + typePlural(Type) +
                (Steps.empty() ? "" : " of " + Steps) + " last, by " +
                timeText(F.TimeUs) + " on average";
      // Cause hint: more GPU work than the others, else a host delay.
      std::vector<double> Others, OtherIdle;
      for (const RankStragglerRow &O : S.Ranks)
        if (O.Rank != R.Rank) {
          Others.push_back(O.ComputationUs);
          OtherIdle.push_back(O.IdleUs);
        }
      double Med = median(Others);
      std::string Cause;
      if (!Others.empty() && R.ComputationUs > 1.1 * Med)
        Cause = "compute imbalance (rank has more GPU work before "
                "collectives: computation " +
                timeText(R.ComputationUs) + " vs " + timeText(Med) +
                " median of the others, +" +
                printfDouble("%.0f", 100 * (R.ComputationUs - Med) / Med) +
                " %)";
      else if (!OtherIdle.empty() &&
               R.IdleUs > *std::max_element(OtherIdle.begin(),
                                            OtherIdle.end()))
        Cause = "host-side delay (CPU/dataloader) on this rank: its GPU "
                "waits for the host most (" +
                timeText(R.IdleUs) + " host-wait idle)";
      else
        Cause = "unexplained (check clocks, network, or a different code "
                "path)";
      std::string Over =
          S.JobSteps.empty()
              ? std::string("the longest GPU timeline")
              : "the job's " + stepsText(std::set<int64_t>(
                                   S.JobSteps.begin(), S.JobSteps.end()));
      F.Detail = "Rank " + std::to_string(R.Rank) + " arrives last at " +
                 std::to_string(R.TimesLast) + " of its " +
                 std::to_string(R.Instances) + " collectives (" +
                 printfDouble("%.1f", R.pctLast()) +
                 " %); the others wait " + timeText(R.Blame) + " for it (" +
                 printfDouble("%.2f", R.BlameShare) +
                 " % of all waiting); its arrival skew adds up to " +
                 timeText(R.CausedSkew) + ", " +
                 printfDouble("%.2f", Impact) + " % of the " +
                 timeText(S.SumTJob) + " of " + Over + ". Cause: " + Cause +
                 ".";
      S.Findings.push_back(std::move(F));
    }
  }
  // MR-IMBALANCE: waiting without a single culprit.
  if (!Found && Counted >= 3 && TransferSum > 0 &&
      SkewSum / Counted >= 0.05 * TransferSum / Counted) {
    JobFinding F;
    F.Id = "MR-IMBALANCE";
    F.Severity = "medium";
    F.TimeUs = SkewSum / Counted;
    F.Title = "load imbalance without a single straggler: collectives wait " +
              timeText(F.TimeUs) + " on average for their last rank";
    F.Detail = "Top ranks by the waiting they cause:";
    for (size_t I = 0; I < S.Ranks.size() && I < 3; ++I)
      F.Detail += (I ? ", rank " : " rank ") +
                  std::to_string(S.Ranks[I].Rank) + " " +
                  timeText(S.Ranks[I].Blame);
    F.Detail += ".";
    S.Findings.push_back(std::move(F));
  }
  if (Bad) {
    JobFinding F;
    F.Id = "MR-DATA";
    F.Severity = "info";
    F.Title = std::to_string(Bad) + " collective instance" +
              (Bad == 1 ? " is" : "s are") +
              " incomplete, mismatched or unaligned across ranks";
    F.Detail = "They are listed in multirank/collectives.csv (status) and "
               "left out of the straggler and bandwidth statistics.";
    S.Findings.push_back(std::move(F));
  }
  return S;
}

CsvTable stragglersTable(const StragglerAnalysis &S) {
  CsvTable Tab({"rank", "instances", "times_last", "pct_last", "times_first",
                "total_wait_us", "mean_wait_us", "blame_us",
                "blame_share_pct", "caused_skew_us", "comm_kernel_us",
                "computation_us"});
  for (const RankStragglerRow &R : S.Ranks)
    Tab.addRow({pyInt(R.Rank), pyInt(R.Instances), pyInt(R.TimesLast),
                pyFloat(R.pctLast()), pyInt(R.TimesFirst),
                pyFloat(R.TotalWait), pyFloat(R.meanWait()), pyFloat(R.Blame),
                pyFloat(R.BlameShare), pyFloat(R.CausedSkew),
                pyFloat(R.CommKernelUs), pyFloat(R.ComputationUs)});
  return Tab;
}

CsvTable stepStragglersTable(const StragglerAnalysis &S) {
  CsvTable Tab({"step", "instances", "last_rank", "times_last", "pct_last",
                "mean_arrival_skew_us", "blame_us"});
  for (const StepStragglerRow &R : S.Steps)
    Tab.addRow({pyInt(R.Step), pyInt(R.Instances), pyInt(R.LastRank),
                pyInt(R.TimesLast), pyFloat(100.0 * R.TimesLast / R.Instances),
                pyFloat(R.MeanSkew), pyFloat(R.Blame)});
  return Tab;
}

std::string stragglersMarkdown(const StragglerAnalysis &S) {
  std::string Text;
  raw_string_ostream OS(Text);
  unsigned Any = 0;
  for (const RankStragglerRow &R : S.Ranks)
    Any += R.Instances;
  if (Any) {
    OS << "## Stragglers\n\nOver the complete implicit-sync collectives: "
          "how often each rank arrives last, the waiting it causes the "
          "others (blame) and the arrival skew of the collectives it is "
          "last in (`multirank/stragglers.csv`; per step "
          "`multirank/straggler_steps.csv`).\n\n";
    if (S.Straggler)
      OS << "**Straggler: rank " << *S.Straggler << "** (the most blame).\n\n";
    OS << "| rank | collectives | last | last % | first | wait us | blame "
          "us | blame % | caused skew us | computation us |\n"
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const RankStragglerRow &R : S.Ranks)
      OS << "| " << R.Rank << " | " << R.Instances << " | " << R.TimesLast
         << " | " << printfDouble("%.1f", R.pctLast()) << " | "
         << R.TimesFirst << " | " << printfDouble("%.3f", R.TotalWait)
         << " | " << printfDouble("%.3f", R.Blame) << " | "
         << printfDouble("%.2f", R.BlameShare) << " | "
         << printfDouble("%.3f", R.CausedSkew) << " | "
         << printfDouble("%.3f", R.ComputationUs) << " |\n";
    if (!S.Steps.empty()) {
      OS << "\nBy step (the rank most often last):\n\n| step | "
            "collectives | last rank | times last | mean arrival skew us | "
            "blame us |\n|---:|---:|---:|---:|---:|---:|\n";
      for (const StepStragglerRow &R : S.Steps)
        OS << "| " << R.Step << " | " << R.Instances << " | " << R.LastRank
           << " | " << R.TimesLast << " | "
           << printfDouble("%.3f", R.MeanSkew) << " | "
           << printfDouble("%.3f", R.Blame) << " |\n";
    }
    OS << "\n";
  }
  if (!S.Findings.empty()) {
    OS << "## Job findings (system tier)\n\n";
    for (const JobFinding &F : S.Findings)
      OS << "- **" << F.Id << "** (" << F.Severity
         << "): " << mdEscape(F.Title) << ". " << mdEscape(F.Detail) << "\n";
    OS << "\n";
  }
  return Text;
}

std::string jobFindingsJson(const StragglerAnalysis &S) {
  std::string Text;
  raw_string_ostream OS(Text);
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("kind", "tl-job-findings");
    J.attribute("version", 1);
    J.attributeBegin("straggler");
    if (S.Straggler)
      J.value(*S.Straggler);
    else
      J.value(nullptr);
    J.attributeEnd();
    J.attributeArray("findings", [&] {
      for (const JobFinding &F : S.Findings)
        J.object([&] {
          J.attribute("id", F.Id);
          J.attribute("tier", "system");
          J.attribute("category", "multirank");
          J.attribute("severity", F.Severity);
          J.attribute("title", F.Title);
          J.attribute("detail", F.Detail);
          if (F.Rank)
            J.attribute("rank", *F.Rank);
          if (!F.Collective.empty())
            J.attribute("collective", F.Collective);
          J.attribute("time_us", F.TimeUs);
          J.attribute("impact_pct", F.ImpactPct);
        });
    });
  });
  OS << "\n";
  return Text;
}

} // namespace tl
