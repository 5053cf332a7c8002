//===- ClockAlign.cpp - Clock alignment across the nodes of a job ---------===//
#include "tl/Driver/ClockAlign.h"

#include "tl/Support/NumberFormat.h"
#include "tl/Support/Stats.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace tl {

std::optional<double> ClockAlignment::rankOffset(int64_t Rank) const {
  if (!GpusPerNode || *GpusPerNode <= 0)
    return std::nullopt;
  auto It = NodeOffsetUs.find(Rank / *GpusPerNode);
  if (It == NodeOffsetUs.end())
    return std::nullopt;
  return It->second;
}

double ClockAlignment::rankShiftUs(int64_t Rank) const {
  auto It = BaseShiftUs.find(Rank);
  double Us = It == BaseShiftUs.end() ? 0 : It->second;
  if (Applied)
    if (std::optional<double> Off = rankOffset(Rank))
      Us -= *Off;
  return Us;
}

std::vector<std::string> ClockAlignment::warnings() const {
  std::vector<std::string> W;
  for (int64_t K : LargeNodes) {
    double Off = NodeOffsetUs.at(K);
    W.push_back("clock offset of node " + std::to_string(K) + ": " +
                printfDouble("%.3f", Off) + " us against node 0, " +
                printfDouble("%.1f", std::fabs(Off) / MedianTransferUs * 100) +
                " % of the median transfer time (" +
                printfDouble("%.3f", MedianTransferUs) +
                " us): arrival skew across nodes may be a clock effect" +
                (Applied ? " (--align=collective subtracted it)"
                         : " (--align=collective subtracts it)"));
  }
  return W;
}

/// Moves every instance of the ranks on a node by -offset.
static void shift(std::vector<RankCollectives> &Ranks,
                  const std::map<int64_t, double> &ByRank) {
  for (RankCollectives &R : Ranks) {
    auto It = ByRank.find(R.Rank);
    if (It == ByRank.end() || It->second == 0)
      continue;
    for (CollectiveInstance &I : R.Instances) {
      I.Start += It->second;
      I.End += It->second;
    }
  }
}

static double median(std::vector<double> V) { return numpyMedian(V); }

std::vector<MatchedCollective> matchOnAlignedClocks(
    std::vector<RankCollectives> Ranks, ArrayRef<std::optional<int64_t>> BaseNs,
    std::optional<int64_t> GpusPerNode, bool Align, ClockAlignment &Out) {
  Out = ClockAlignment();
  Out.GpusPerNode = GpusPerNode;
  // A common base when every trace has one and they differ.
  bool AllBase = !BaseNs.empty() &&
                 all_of(BaseNs, [](const auto &B) { return B.has_value(); });
  if (AllBase) {
    int64_t Min = **std::min_element(BaseNs.begin(), BaseNs.end());
    bool Differ = any_of(BaseNs, [&](const auto &B) { return *B != Min; });
    if (Differ) {
      for (size_t I = 0; I < Ranks.size() && I < BaseNs.size(); ++I)
        Out.BaseShiftUs[Ranks[I].Rank] = double(*BaseNs[I] - Min) / 1000;
      shift(Ranks, Out.BaseShiftUs);
    }
  }
  std::vector<MatchedCollective> Cs = matchCollectives(Ranks);

  std::vector<double> Transfers;
  for (const MatchedCollective &C : Cs)
    if (C.countsForStragglers() && C.Present.size() > 1)
      Transfers.push_back(C.Transfer);
  Out.MedianTransferUs = Transfers.empty() ? 0 : median(Transfers);
  if (!GpusPerNode || *GpusPerNode <= 0)
    return Cs;
  int64_t G = *GpusPerNode;
  Out.NodeOffsetUs[0] = 0;
  std::map<int64_t, std::vector<double>> Diffs;
  for (const MatchedCollective &C : Cs) {
    if (!C.countsForStragglers() || C.Present.size() < 2)
      continue;
    std::map<int64_t, std::vector<double>> Ends;
    for (const MatchedMember &M : C.Present)
      Ends[M.Rank / G].push_back(M.End);
    auto Zero = Ends.find(0);
    if (Zero == Ends.end())
      continue;
    double E0 = median(Zero->second);
    for (auto &[Node, Es] : Ends)
      if (Node != 0)
        Diffs[Node].push_back(median(Es) - E0);
  }
  for (auto &[Node, D] : Diffs) {
    double Off = median(D);
    Out.NodeOffsetUs[Node] = Off;
    if (Out.MedianTransferUs > 0 && std::fabs(Off) > 0.1 * Out.MedianTransferUs)
      Out.LargeNodes.push_back(Node);
  }
  if (!Align || Diffs.empty())
    return Cs;
  std::map<int64_t, double> ByRank;
  for (const RankCollectives &R : Ranks)
    if (std::optional<double> Off = Out.rankOffset(R.Rank))
      ByRank[R.Rank] = -*Off;
  shift(Ranks, ByRank);
  Out.Applied = true;
  return matchCollectives(Ranks);
}

std::optional<JobFinding> clockFinding(const ClockAlignment &A) {
  if (A.LargeNodes.empty())
    return std::nullopt;
  JobFinding F;
  F.Id = "MR-CLOCK";
  F.Severity = "info";
  double Worst = 0;
  std::string Offsets;
  for (auto &[Node, Off] : A.NodeOffsetUs) {
    if (Node == 0)
      continue;
    Offsets += (Offsets.empty() ? "node " : ", node ") + std::to_string(Node) +
               " " + printfDouble("%.3f", Off) + " us";
    if (std::fabs(Off) > std::fabs(Worst))
      Worst = Off;
  }
  F.TimeUs = Worst;
  F.ImpactPct = std::fabs(Worst) / A.MedianTransferUs * 100;
  F.Title = "node clocks differ by up to " + printfDouble("%.3f", Worst) +
            " us, " + printfDouble("%.1f", F.ImpactPct) +
            " % of the median transfer time: arrival skew across nodes may "
            "be a clock effect";
  F.Detail = "Offsets against node 0, from the ends of the collectives the "
             "nodes share: " +
             Offsets + " (median transfer " +
             printfDouble("%.3f", A.MedianTransferUs) + " us). " +
             (A.Applied ? "--align=collective subtracted them before the "
                          "skews were measured."
                        : "The skews are on the raw clocks; "
                          "--align=collective subtracts the offsets.");
  return F;
}

} // namespace tl
