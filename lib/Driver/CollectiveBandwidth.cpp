//===- CollectiveBandwidth.cpp - MR-COLL-BW -------------------------------===//
#include "tl/Driver/CollectiveBandwidth.h"

#include "tl/Support/NumberFormat.h"
#include "tl/Support/Stats.h"

#include <string>

using namespace llvm;

namespace tl {

static std::string fmt2(double V) { return printfDouble("%.2f", V); }
static std::string fmt3(double V) { return printfDouble("%.3f", V); }

static std::string sizeText(int64_t Bytes) {
  double MiB = double(Bytes) / (1 << 20);
  return fmt2(MiB) + " MiB";
}

std::vector<JobFinding> bandwidthFindings(ArrayRef<CollectiveFamily> Families,
                                          const LinkPeaks &Peaks,
                                          double SumTJobUs) {
  std::vector<JobFinding> Out;
  constexpr int64_t MinBytes = int64_t(1) << 20; // below: latency-bound
  if (!Peaks.any() || SumTJobUs <= 0)
    return Out;
  for (const CollectiveFamily &F : Families) {
    if (!F.Bytes || *F.Bytes < MinBytes || F.BusBw.empty())
      continue;
    double Peak = F.NodeSpan == "intra_node"   ? Peaks.IntraNodeBusbwGBps
                  : F.NodeSpan == "inter_node" ? Peaks.InterNodeBusbwGBps
                                               : 0;
    if (Peak <= 0)
      continue;
    double Median = numpyMedian(F.BusBw);
    double Total = F.transferTotalUs();
    double Share = Total / SumTJobUs * 100;
    if (Median >= 0.5 * Peak || Share < 5)
      continue;
    JobFinding J;
    J.Id = "MR-COLL-BW";
    J.Severity = "medium";
    J.Collective = F.CollType;
    J.TimeUs = Total;
    J.ImpactPct = Share;
    std::string Link = F.NodeSpan == "intra_node" ? "intra-node" : "inter-node";
    J.Title = "collective bandwidth low: " + F.CollType + " of " +
              sizeText(*F.Bytes) + " on process group " + F.Pg +
              " reaches a median bus bandwidth of " + fmt2(Median) +
              " GB/s, " + fmt2(Median / Peak * 100) + " % of the " + Link +
              " peak " + fmt2(Peak) + " GB/s";
    J.Detail = std::to_string(F.BusBw.size()) + " of " +
               std::to_string(F.Transfer.size()) +
               " instances with a bandwidth (" + F.CollName + ", " + F.Dtype +
               "); their transfers take " + fmt3(Total / 1000) + " ms, " +
               fmt2(Share) +
               " % of the job's step time. Check the algorithm and protocol "
               "(NCCL_ALGO/NCCL_PROTO), the topology and concurrent traffic "
               "on the link.";
    Out.push_back(std::move(J));
  }
  return Out;
}

} // namespace tl
