//===- JobCriticalPath.cpp - A job's critical path across ranks -----------===//
#include "tl/Driver/JobCriticalPath.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CollectiveInstances.h"
#include "tl/Driver/CollectiveMatch.h"
#include "tl/Driver/RankTable.h"
#include "tl/IR/Trace.h"
#include "tl/Support/NumberFormat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;

namespace tl {

RankCriticalPath summarizeRankCriticalPath(const Trace &T,
                                           AnalysisManager &AM) {
  RankCriticalPath R;
  const CriticalPath &CP = AM.get<CriticalPath>();
  std::vector<std::vector<EventId>> Kernels;
  std::vector<CollectiveInstance> Insts =
      collectCollectiveInstances(T, {}, &Kernels);
  // Reaching the end of any kernel of an instance is reaching the
  // instance's end: there the job walk looks at the other members.
  DenseMap<EventId, int64_t> StopOf;
  for (size_t I = 0; I < Kernels.size(); ++I)
    for (EventId K : Kernels[I])
      StopOf.try_emplace(K, int64_t(I));
  ArrayRef<CpWindow> Ws = CP.windows();
  std::vector<CpChainOrigin> Origins;
  // The sinks first, one per window (a window without segments has none).
  std::vector<int> SinkOrigin(Ws.size(), -1);
  for (size_t I = 0; I < Ws.size(); ++I)
    if (!Ws[I].Segments.empty()) {
      const CpSegment &Last = Ws[I].Segments.back();
      SinkOrigin[I] = int(Origins.size());
      Origins.push_back({Last.To, Last.ToEnd, Ws[I].Start});
    }
  size_t FirstColl = Origins.size();
  for (size_t I = 0; I < Insts.size(); ++I) {
    // The instance starts with its first kernel; its floor is the start of
    // the window it starts in (windows tile the timeline, in time order).
    EventId First = Kernels[I].front();
    for (EventId K : Kernels[I])
      if (T.ts(K) < T.ts(First))
        First = K;
    double Floor = T.ts(First);
    for (const CpWindow &W : Ws)
      if (W.Start <= T.ts(First))
        Floor = W.Start;
    Origins.push_back({First, false, Floor});
  }
  std::vector<CpChain> Chains =
      criticalChains(T, AM, Origins, [&](EventId E) -> int64_t {
        auto It = StopOf.find(E);
        return It == StopOf.end() ? -1 : It->second;
      });
  for (size_t I = 0; I < Ws.size(); ++I) {
    RankCpWindow W;
    W.Step = Ws[I].Step;
    W.Start = Ws[I].Start;
    W.End = Ws[I].End;
    W.ByCategory = Ws[I].ByCategory;
    if (SinkOrigin[I] >= 0)
      W.Sink = Chains[size_t(SinkOrigin[I])];
    else
      W.Sink.From = W.Sink.To = W.End;
    R.Windows.push_back(W);
  }
  for (size_t I = 0; I < Insts.size(); ++I)
    R.Collectives.push_back({Chains[FirstColl + I], Insts[I].End});
  return R;
}

double JobCriticalPath::totalUs() const {
  double S = 0;
  for (const JobCpShare &R : Total)
    S += R.CriticalUs;
  return S;
}

const JobCpShare *JobCriticalPath::owner() const {
  const JobCpShare *Best = nullptr;
  for (const JobCpShare &R : Total)
    if (R.CriticalUs > 0 && (!Best || R.CriticalUs > Best->CriticalUs))
      Best = &R;
  return Best;
}

namespace {
void addChain(JobCpShare &S, const CpChain &C) {
  for (unsigned I = 0; I < NumCpCategories; ++I) {
    S.ByCategory[I] += C.ByCategory[I];
    S.CriticalUs += C.ByCategory[I];
  }
}

void addComm(JobCpShare &S, double Us) {
  S.ByCategory[unsigned(CpCategory::GpuComm)] += Us;
  S.CriticalUs += Us;
}
} // namespace

namespace {
// A rank's path with ShiftUs added to every time, so that the paths of
// ranks on other clocks compare (spec §6.8 uses the aligned clocks).
RankCriticalPath shifted(const RankCriticalPath &P, double ShiftUs) {
  RankCriticalPath Q = P;
  if (ShiftUs == 0)
    return Q;
  auto Move = [&](CpChain &C) {
    C.From += ShiftUs;
    C.To += ShiftUs;
  };
  for (RankCpWindow &W : Q.Windows) {
    W.Start += ShiftUs;
    W.End += ShiftUs;
    Move(W.Sink);
  }
  for (RankCpCollective &C : Q.Collectives) {
    Move(C.Chain);
    C.End += ShiftUs;
  }
  return Q;
}
} // namespace

JobCriticalPath computeJobCriticalPath(ArrayRef<RankSummary> Ranks,
                                       ArrayRef<MatchedCollective> Colls,
                                       ArrayRef<double> ShiftUs) {
  JobCriticalPath P;
  std::vector<RankCriticalPath> Paths;
  for (size_t I = 0; I < Ranks.size(); ++I)
    Paths.push_back(shifted(Ranks[I].CriticalPath,
                            I < ShiftUs.size() ? ShiftUs[I] : 0));
  // Rank -> position in Ranks; (position, instance) -> matched instance.
  std::map<int64_t, size_t> Pos;
  for (size_t I = 0; I < Ranks.size(); ++I)
    Pos.emplace(Ranks[I].Claim.Rank, I);
  std::vector<std::vector<const MatchedCollective *>> MatchOf(Ranks.size());
  for (size_t I = 0; I < Ranks.size(); ++I)
    MatchOf[I].assign(Paths[I].Collectives.size(), nullptr);
  for (const MatchedCollective &C : Colls)
    for (const MatchedMember &M : C.Present) {
      auto It = Pos.find(M.Rank);
      if (It != Pos.end() && M.Index < MatchOf[It->second].size())
        MatchOf[It->second][M.Index] = &C;
    }
  std::set<int64_t> StepNums;
  for (const RankSummary &R : Ranks)
    for (const RankCpWindow &W : R.CriticalPath.Windows)
      StepNums.insert(W.Step);
  for (const RankSummary &R : Ranks) {
    JobCpShare S;
    S.Rank = R.Claim.Rank;
    P.Total.push_back(S);
  }
  for (int64_t N : StepNums) {
    JobCpStep St;
    St.Step = N;
    St.Ranks = P.Total;
    for (JobCpShare &S : St.Ranks)
      S = JobCpShare{S.Rank, 0, {}};
    // The sink: the latest window end of the step (ties: lowest rank).
    const RankCpWindow *Sink = nullptr;
    size_t Cur = 0;
    for (size_t I = 0; I < Ranks.size(); ++I)
      for (const RankCpWindow &W : Paths[I].Windows)
        if (W.Step == N && (!Sink || W.End > Sink->End)) {
          Sink = &W;
          Cur = I;
        }
    if (!Sink)
      continue;
    St.End = Sink->End;
    St.SinkRank = Ranks[Cur].Claim.Rank;
    const CpChain *C = &Sink->Sink;
    // Each instance is entered at most once: the loop ends.
    std::set<std::pair<size_t, size_t>> Seen;
    while (true) {
      addChain(St.Ranks[Cur], *C);
      St.Start = C->From;
      if (C->Stop < 0)
        break;
      size_t Idx = size_t(C->Stop);
      const std::vector<RankCpCollective> &Mine =
          Paths[Cur].Collectives;
      if (Idx >= Mine.size() || !Seen.insert({Cur, Idx}).second)
        break;
      double EndR = Mine[Idx].End, StartR = Mine[Idx].Chain.To;
      // The last arriver among the members; the rank itself wins ties
      // (SPAN before COLL), then the lowest rank.
      size_t Next = Cur, NextIdx = Idx;
      double NextStart = StartR;
      const MatchedCollective *M = MatchOf[Cur][Idx];
      if (M && M->countsForStragglers())
        for (const MatchedMember &Mm : M->Present) {
          auto It = Pos.find(Mm.Rank);
          if (It == Pos.end() ||
              Mm.Index >= Paths[It->second].Collectives.size())
            continue;
          double S = Paths[It->second].Collectives[Mm.Index]
                         .Chain.To;
          if (S > NextStart) {
            Next = It->second;
            NextIdx = Mm.Index;
            NextStart = S;
          }
        }
      // [start of the last arriver, end on this rank]: the transfer, on
      // the rank the path goes to (a later start than the end, clock
      // noise, is a 0-length segment).
      double From = std::min(NextStart, EndR);
      addComm(St.Ranks[Next], EndR - From);
      St.Start = From;
      if (Next != Cur) {
        ++St.Jumps;
        if (!Seen.insert({Next, NextIdx}).second)
          break;
      }
      Cur = Next;
      C = &Paths[Cur].Collectives[NextIdx].Chain;
    }
    for (size_t I = 0; I < St.Ranks.size(); ++I) {
      P.Total[I].CriticalUs += St.Ranks[I].CriticalUs;
      for (unsigned K = 0; K < NumCpCategories; ++K)
        P.Total[I].ByCategory[K] += St.Ranks[I].ByCategory[K];
    }
    P.Steps.push_back(std::move(St));
  }
  return P;
}

static PyValue stepCell(int64_t Step) {
  return Step < 0 ? pyText("") : pyInt(Step);
}

static double sumOf(const std::array<double, NumCpCategories> &A,
                    bool (*Pred)(CpCategory)) {
  double S = 0;
  for (unsigned I = 0; I < NumCpCategories; ++I)
    S += Pred(CpCategory(I)) ? A[I] : 0;
  return S;
}

/// "cpu_bound", "gpu_bound" or "overhead", the largest of the roll-ups
/// (ties in that order).
static StringRef boundBy(const std::array<double, NumCpCategories> &A) {
  double Cpu = sumOf(A, isCpuBound), Gpu = sumOf(A, isGpuBound),
         Over = sumOf(A, isCpOverhead);
  if (Cpu >= Gpu && Cpu >= Over)
    return "cpu_bound";
  return Gpu >= Over ? "gpu_bound" : "overhead";
}

CsvTable criticalByRankTable(ArrayRef<RankSummary> Ranks) {
  std::vector<std::string> Cols{"rank", "step", "window_start_us",
                                "window_end_us", "length_us"};
  for (unsigned I = 0; I < NumCpCategories; ++I)
    Cols.push_back((cpCategoryName(CpCategory(I)) + "_pct").str());
  for (const char *C : {"cpu_bound_pct", "gpu_bound_pct", "overhead_pct",
                        "bound"})
    Cols.push_back(C);
  CsvTable Tab(std::move(Cols));
  for (const RankSummary &R : Ranks)
    for (const RankCpWindow &W : R.CriticalPath.Windows) {
      double Len = W.End - W.Start;
      auto Pct = [&](double Us) { return pyFloat(Len > 0 ? Us / Len * 100 : 0); };
      std::vector<PyValue> Row{pyInt(R.Claim.Rank), stepCell(W.Step),
                               pyFloat(W.Start), pyFloat(W.End),
                               pyFloat(Len)};
      for (double Us : W.ByCategory)
        Row.push_back(Pct(Us));
      Row.push_back(Pct(sumOf(W.ByCategory, isCpuBound)));
      Row.push_back(Pct(sumOf(W.ByCategory, isGpuBound)));
      Row.push_back(Pct(sumOf(W.ByCategory, isCpOverhead)));
      Row.push_back(pyText(boundBy(W.ByCategory)));
      Tab.addRow(std::move(Row));
    }
  return Tab;
}

CsvTable criticalJobTable(const JobCriticalPath &P) {
  std::vector<std::string> Cols{"step",  "job_start_us", "job_end_us",
                                "job_length_us", "sink_rank", "jumps",
                                "rank", "critical_us", "pct"};
  for (unsigned I = 0; I < NumCpCategories; ++I)
    Cols.push_back((cpCategoryName(CpCategory(I)) + "_us").str());
  CsvTable Tab(std::move(Cols));
  for (const JobCpStep &S : P.Steps)
    for (const JobCpShare &R : S.Ranks) {
      std::vector<PyValue> Row{
          stepCell(S.Step),     pyFloat(S.Start),
          pyFloat(S.End),       pyFloat(S.length()),
          pyInt(S.SinkRank),    pyInt(S.Jumps),
          pyInt(R.Rank),        pyFloat(R.CriticalUs),
          pyFloat(S.length() > 0 ? R.CriticalUs / S.length() * 100 : 0)};
      for (double Us : R.ByCategory)
        Row.push_back(pyFloat(Us));
      Tab.addRow(std::move(Row));
    }
  return Tab;
}

static std::string us(double V) { return printfDouble("%.3f", V); }
static std::string pct(double V) { return printfDouble("%.2f", V); }

std::string criticalPathMarkdown(ArrayRef<RankSummary> Ranks,
                                 const JobCriticalPath &P) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "## Critical path\n\n";
  OS << "Each rank's own critical path (its `critical_path.json`), over "
        "all its windows, µs; per window in `multirank/critical_by_rank.csv`"
        ". CPU-bound, GPU-bound and overhead are the roll-ups of "
        "docs/CriticalPath.md.\n\n";
  OS << "| rank | windows | length µs | CPU-bound % | GPU-bound % | "
        "overhead % | gpu_comm % | bound |\n";
  OS << "|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const RankSummary &R : Ranks) {
    std::array<double, NumCpCategories> A{};
    double Len = 0;
    for (const RankCpWindow &W : R.CriticalPath.Windows) {
      Len += W.End - W.Start;
      for (unsigned I = 0; I < NumCpCategories; ++I)
        A[I] += W.ByCategory[I];
    }
    auto Pc = [&](double Us) { return pct(Len > 0 ? Us / Len * 100 : 0); };
    OS << "| " << R.Claim.Rank << " | " << R.CriticalPath.Windows.size()
       << " | " << us(Len) << " | " << Pc(sumOf(A, isCpuBound)) << " | "
       << Pc(sumOf(A, isGpuBound)) << " | " << Pc(sumOf(A, isCpOverhead))
       << " | " << Pc(A[unsigned(CpCategory::GpuComm)]) << " | "
       << boundBy(A) << " |\n";
  }
  OS << "\n### Job critical path\n\n";
  const JobCpShare *Own = P.owner();
  if (!Own) {
    OS << "No job critical path (no rank has a critical path).\n";
    return Text;
  }
  double Total = P.totalUs();
  OS << "Per step, from the latest end over the ranks back to a window "
        "start; at every complete collective the path goes to the member "
        "that started it last (critical-path.md §6.8). Per step and rank in "
        "`multirank/critical_job.csv`.\n\n";
  OS << "**Job critical path: rank " << Own->Rank << "** owns "
     << pct(Own->CriticalUs / Total * 100) << " % of it ("
     << us(Own->CriticalUs) << " of " << us(Total) << " µs over "
     << P.Steps.size() << " step" << (P.Steps.size() == 1 ? "" : "s")
     << ").\n\n";
  OS << "| step | length µs | sink rank | jumps | most on rank | its % |\n";
  OS << "|---:|---:|---:|---:|---:|---:|\n";
  for (const JobCpStep &S : P.Steps) {
    const JobCpShare *Top = nullptr;
    for (const JobCpShare &R : S.Ranks)
      if (!Top || R.CriticalUs > Top->CriticalUs)
        Top = &R;
    OS << "| " << (S.Step < 0 ? std::string("all") : std::to_string(S.Step))
       << " | " << us(S.length()) << " | " << S.SinkRank << " | " << S.Jumps
       << " | " << (Top ? std::to_string(Top->Rank) : "") << " | "
       << pct(Top && S.length() > 0 ? Top->CriticalUs / S.length() * 100 : 0)
       << " |\n";
  }
  OS << "\n| rank | critical µs | % | gpu_comm µs | CPU-bound µs | GPU-bound µs "
        "| overhead µs |\n";
  OS << "|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const JobCpShare &R : P.Total)
    OS << "| " << R.Rank << " | " << us(R.CriticalUs) << " | "
       << pct(R.CriticalUs / Total * 100) << " | "
       << us(R.ByCategory[unsigned(CpCategory::GpuComm)]) << " | "
       << us(sumOf(R.ByCategory, isCpuBound)) << " | "
       << us(sumOf(R.ByCategory, isGpuBound)) << " | "
       << us(sumOf(R.ByCategory, isCpOverhead)) << " |\n";
  return Text;
}

} // namespace tl
