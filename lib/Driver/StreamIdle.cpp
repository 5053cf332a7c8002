//===- StreamIdle.cpp - HTA's idle time breakdown per stream --------------===//
#include "tl/Driver/StreamIdle.h"

#include "tl/Driver/RankTable.h"
#include "tl/IR/Trace.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tl {

std::vector<StreamIdle> computeStreamIdle(const Trace &T) {
  std::map<int64_t, std::vector<EventId>> ByStream;
  for (EventId E : T.gpuEvents())
    if (std::optional<int64_t> S = T.stream(E))
      ByStream[*S].push_back(E);
  std::vector<StreamIdle> Out;
  for (auto &[Stream, Es] : ByStream) {
    llvm::stable_sort(Es,
                      [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
    StreamIdle S;
    S.Stream = Stream;
    for (size_t I = 1; I < Es.size(); ++I) {
      double PrevEnd = T.end(Es[I - 1]), Ts = T.ts(Es[I]);
      // Events of one stream do not overlap; a clock glitch that makes
      // them is no idle time.
      double Gap = std::max(0.0, Ts - PrevEnd);
      EventId L = T.isLinked(Es[I]) ? T.parent(Es[I]) : NoEvent;
      if (L != NoEvent && T.ts(L) > PrevEnd)
        S.HostWaitUs += Gap;
      else if (Gap < HtaKernelWaitUs)
        S.KernelWaitUs += Gap;
      else
        S.OtherUs += Gap;
    }
    Out.push_back(S);
  }
  return Out;
}

CsvTable idleByStreamTable(ArrayRef<RankSummary> Ranks) {
  CsvTable Tab(
      {"rank", "stream", "idle_category", "idle_time", "idle_time_ratio"});
  for (const RankSummary *R : inRankOrder(Ranks))
    for (const StreamIdle &S : R->IdleByStream) {
      double Total = S.totalUs();
      for (auto [Name, Us] : {std::pair{"host_wait", S.HostWaitUs},
                              std::pair{"kernel_wait", S.KernelWaitUs},
                              std::pair{"other", S.OtherUs}})
        Tab.addRow(
            {pyInt(R->Claim.Rank), pyInt(S.Stream), pyText(Name), pyFloat(Us),
             Total > 0 ? pyFloat(pyRound(Us / Total, 2)) : PyValue::none()});
    }
  return Tab;
}

std::string streamIdleMarkdown(ArrayRef<RankSummary> Ranks) {
  double Host = 0, Kernel = 0, Other = 0;
  const StreamIdle *Most = nullptr;
  int64_t MostRank = 0;
  for (const RankSummary &R : Ranks)
    for (const StreamIdle &S : R.IdleByStream) {
      Host += S.HostWaitUs;
      Kernel += S.KernelWaitUs;
      Other += S.OtherUs;
      if (!Most || S.totalUs() > Most->totalUs() ||
          (S.totalUs() == Most->totalUs() && R.Claim.Rank < MostRank)) {
        Most = &S;
        MostRank = R.Claim.Rank;
      }
    }
  if (!Most)
    return "";
  auto Us = [](double V) { return printfDouble("%.3f", V); };
  std::string Text =
      "Idle time per GPU stream (HTA's `get_idle_time_breakdown`: the gap "
      "before each event on its stream, host_wait when its launch came "
      "after the previous event ended, else kernel_wait under " +
      printfDouble("%.0f", HtaKernelWaitUs) +
      " us, else other; `multirank/idle_by_stream.csv`), over every rank "
      "and stream: host_wait " +
      Us(Host) + " us, kernel_wait " + Us(Kernel) + " us, other " + Us(Other) +
      " us";
  if (Most->totalUs() > 0)
    Text += "; the most on rank " + std::to_string(MostRank) + " stream " +
            std::to_string(Most->Stream) + " (" + Us(Most->totalUs()) + " us)";
  return Text + ".\n\n";
}

} // namespace tl
