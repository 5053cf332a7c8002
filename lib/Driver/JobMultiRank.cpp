//===- JobMultiRank.cpp - The "Multi-rank" section of a job report --------===//
#include "tl/Driver/JobMultiRank.h"

#include "tl/Analysis/StepSelection.h"
#include "tl/Driver/HtaStragglers.h"
#include "tl/Driver/JobReport.h"
#include "tl/Driver/StreamIdle.h"
#include "tl/Support/Markdown.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/Stats.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;

namespace tl {

static std::string us(double V) { return printfDouble("%.3f", V); }

std::string multiRankMarkdown(const JobReport &J) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "## Multi-rank\n\n";
  std::set<int64_t> Nodes;
  if (J.GpusPerNode)
    for (const RankSummary &R : J.Ranks)
      Nodes.insert(R.Claim.Rank / *J.GpusPerNode);
  OS << "World size " << J.ExpectedRanks << " (" << J.Ranks.size()
     << " present), ";
  if (J.GpusPerNode)
    OS << Nodes.size() << " node" << (Nodes.size() == 1 ? "" : "s") << ", "
       << *J.GpusPerNode << " GPUs per node";
  else
    OS << "nodes unknown (deviceProperties differ or list one GPU)";
  // T_job(N) = max over ranks of T_r(N), over the steps every rank has.
  std::map<int64_t, std::pair<size_t, double>> StepMax;
  for (const RankSummary &R : J.Ranks)
    for (auto &[N, T] : R.StepTimes) {
      auto &[Count, Max] = StepMax[N];
      ++Count;
      Max = std::max(Max, T);
    }
  std::vector<int64_t> Steps;
  std::vector<double> TJob;
  for (auto &[N, CM] : StepMax)
    if (CM.first == J.Ranks.size()) {
      Steps.push_back(N);
      TJob.push_back(CM.second);
    }
  if (Steps.empty())
    OS << "; no ProfilerStep every rank has: the ranges are each rank's "
          "first to last GPU event.\n\n";
  else
    OS << "; steps analysed: " << describeSteps(Steps)
       << " (every step each rank has; the ranges are their windows), "
          "median T_job "
       << us(numpyMedian(TJob)) << " us.\n\n";

  std::map<int64_t, const RankStragglerRow *> Wait;
  for (const RankStragglerRow &R : J.Stragglers.Ranks)
    Wait[R.Rank] = &R;
  std::set<int64_t> StepSet(Steps.begin(), Steps.end());
  OS << "Per rank, in µs over the analysed range "
        "(`multirank/rank_timeline.csv`, across ranks "
        "`multirank/rank_timeline_stats.csv`):\n\n"
        "| rank | node | step time | computation | exposed comm | host-wait "
        "idle | sync-wait idle | other idle | tail idle | communication | "
        "wait | blame | clock offset |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const RankSummary &R : J.Ranks) {
    const RankTimeline &T = R.Timeline;
    OS << "| " << R.Claim.Rank << " | ";
    if (J.GpusPerNode)
      OS << R.Claim.Rank / *J.GpusPerNode;
    double StepUs = 0;
    for (auto &[N, Us] : R.StepTimes)
      if (StepSet.count(N))
        StepUs += Us;
    OS << " | " << (Steps.empty() ? std::string() : us(StepUs)) << " | ";
    if (T.HasGpu)
      OS << us(T.ComputationUs) << " | " << us(T.ExposedCommUs) << " | "
         << us(T.HostWaitIdleUs) << " | " << us(T.SyncWaitIdleUs) << " | "
         << us(T.OtherIdleUs) << " | " << us(T.TailIdleUs) << " | "
         << us(T.TotalCommUs) << " | ";
    else
      OS << "no GPU events |  |  |  |  |  |  | ";
    auto It = Wait.find(R.Claim.Rank);
    if (It != Wait.end() && It->second->Instances)
      OS << us(It->second->TotalWait) << " | " << us(It->second->Blame);
    else
      OS << " | ";
    OS << " | ";
    if (std::optional<double> Off = J.Clock.rankOffset(R.Claim.Rank))
      OS << us(*Off);
    OS << " |\n";
  }
  OS << "\n";

  const ClockAlignment &C = J.Clock;
  if (!C.BaseShiftUs.empty())
    OS << "The traces' `baseTimeNanoseconds` differ: every rank's times "
          "were moved to the earliest base before matching.\n\n";
  if (C.NodeOffsetUs.size() > 1) {
    OS << "Clock offsets against node 0, from the ends of the collectives "
          "the nodes share:";
    bool First = true;
    for (auto &[Node, Off] : C.NodeOffsetUs)
      if (Node != 0) {
        OS << (First ? " node " : ", node ") << Node << " " << us(Off) << " us";
        First = false;
      }
    OS << " (median transfer " << us(C.MedianTransferUs) << " us); "
       << (C.Applied ? "`--align=collective` subtracted them before the "
                       "skews were measured.\n\n"
                     : "skews are on the raw clocks (`--align=none`).\n\n");
  }
  OS << htaStyleMarkdown(J) << streamIdleMarkdown(J.Ranks);
  // With collectives the job's findings section lists them all; name them
  // here only then.
  bool Listed = !J.Collectives.empty();
  std::string Names;
  for (const JobFinding &F : J.Stragglers.Findings) {
    StringRef Id = F.Id;
    if (Id != "MR-COMPUTE-SKEW" && Id != "MR-EXPOSED-COMM" &&
        Id != "MR-LOW-OVERLAP" && Id != "MR-CLOCK")
      continue;
    if (Names.empty())
      OS << "Timeline and clock findings:" << (Listed ? " " : "\n\n");
    if (Listed)
      OS << (Names.empty() ? "" : ", ") << "**" << F.Id << "** (" << F.Severity
         << ")";
    else
      OS << "- **" << F.Id << "** (" << F.Severity << "): " << mdEscape(F.Title)
         << ". " << mdEscape(F.Detail) << "\n";
    Names += F.Id;
  }
  if (!Names.empty())
    OS << (Listed ? " (under Job findings below).\n\n" : "\n");
  return Text;
}

} // namespace tl
