//===- JobReport.cpp - The report of a multi-rank job ---------------------===//
#include "tl/Driver/JobReport.h"

#include "tl/Driver/AllToAllv.h"
#include "tl/Driver/CollectiveTables.h"
#include "tl/Driver/CompatTables.h"
#include "tl/Driver/JobMultiRank.h"
#include "tl/Driver/JobSteps.h"
#include "tl/Driver/KernelByRank.h"
#include "tl/Driver/StreamIdle.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/HtmlPage.h"
#include "tl/Report/JobCharts.h"
#include "tl/Support/Markdown.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/RelativePath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace tl {

static std::string ms(double Us) { return printfDouble("%.3f", Us / 1e3); }
static std::string pct(double P) { return printfDouble("%.2f", P); }

/// rank_breakdown.svg's rows, in rank order.
static std::vector<JobRankBar> rankBars(ArrayRef<RankSummary> Ranks) {
  std::vector<JobRankBar> Bars;
  for (const RankSummary &R : Ranks)
    Bars.push_back({R.Claim.Rank, R.HasGpu, R.ComputationUs, R.ExposedCommUs,
                    R.ExposedMemcpyUs, R.IdleUs});
  return Bars;
}

/// collective_skew.svg: per rank and matched collective, how late the rank
/// started it after the first member.
static SkewHeatmap skewHeatmap(const JobReport &J) {
  SkewHeatmap H;
  std::map<int64_t, size_t> Row;
  for (const RankSummary &R : J.Ranks) {
    Row.emplace(R.Claim.Rank, H.Ranks.size());
    H.Ranks.push_back(R.Claim.Rank);
  }
  for (const MatchedCollective &C : J.Collectives) {
    SkewColumn Col{instanceId(C), C.CollType, C.Step, {}};
    // Members and present ranks are both ascending: merge them (a present
    // rank outside the expected members still has its cell).
    auto M = C.Members.begin(), ME = C.Members.end();
    auto P = C.Present.begin(), PE = C.Present.end();
    while (M != ME || P != PE) {
      bool TakeP = P != PE && (M == ME || P->Rank <= *M);
      int64_t R = TakeP ? P->Rank : *M;
      if (auto It = Row.find(R); It != Row.end())
        Col.Cells.push_back(
            TakeP ? SkewCell{It->second, SkewCell::Kind::Arrived,
                             P->Start - C.FirstStart}
                  : SkewCell{It->second, SkewCell::Kind::Missing, 0});
      if (M != ME && *M == R)
        ++M;
      if (TakeP)
        ++P;
    }
    H.Columns.push_back(std::move(Col));
  }
  return H;
}

/// One CSV of the job report: its file name (relative to multirank/) and
/// how to build it (built only when written, one at a time), or, for a
/// table too large to hold, how to write it a row at a time.
struct JobTable {
  StringRef Name;
  function_ref<CsvTable()> Build;
  function_ref<Error(StringRef Dir, StringRef Name)> Write = {};
};

/// Tables into Multi, in order; the first failed write ends it.
static Error writeJobTables(StringRef Multi, ArrayRef<JobTable> Tables) {
  for (const JobTable &T : Tables)
    if (Error E = T.Write ? T.Write(Multi, T.Name)
                          : writeCsvTable(Multi, T.Name, T.Build()))
      return E;
  return Error::success();
}

/// collective_summary.csv and, with all_to_allv instances, the §5.5
/// tables (the heat-map up to 1,024 ranks).
static Error writeCollectiveExtras(const JobReport &J, StringRef Multi) {
  auto Summary = [&] {
    return collectiveSummaryTable(J.Collectives, J.GpusPerNode);
  };
  auto A2a = [&] { return allToAllvTable(J.Collectives); };
  auto A2aSummary = [&] { return allToAllvSummaryTable(J.Collectives); };
  auto A2aHeatmap = [&] { return allToAllvHeatmapTable(J.Collectives); };
  std::vector<JobTable> Tables = {{"collective_summary.csv", Summary}};
  if (hasAllToAllv(J.Collectives)) {
    Tables.push_back({"all2allv.csv", A2a});
    Tables.push_back({"all2allv_summary.csv", A2aSummary});
    if (std::max<int64_t>(J.ExpectedRanks, int64_t(J.Ranks.size())) <=
        AllToAllvHeatmapMaxRanks)
      Tables.push_back({"all2allv_heatmap.csv", A2aHeatmap});
  }
  return writeJobTables(Multi, Tables);
}

void crossRankAnalysis(JobReport &J) {
  std::vector<RankCollectives> Cs;
  std::vector<std::optional<int64_t>> Bases;
  std::optional<size_t> Devices;
  bool Agree = true;
  // TraceLens's matching (compat/) reads the instances before they go.
  J.Compat = collectTraceLensCompat(J.Ranks);
  // The instances move out of the summaries: the matched collectives copy
  // what they need, and nothing reads them afterwards.
  for (RankSummary &R : J.Ranks) {
    Cs.push_back(std::move(R.Collectives));
    Bases.push_back(R.BaseTimeNs);
    if (Devices && *Devices != R.DeviceCount)
      Agree = false;
    Devices = R.DeviceCount;
  }
  if (Devices && Agree && *Devices >= 2)
    J.GpusPerNode = int64_t(*Devices);
  J.Collectives = matchOnAlignedClocks(std::move(Cs), Bases, J.GpusPerNode,
                                       J.AlignCollective, J.Clock);
  J.Stragglers = analyzeStragglers(J.Collectives, J.Ranks);
  std::vector<double> Shifts;
  std::vector<HtaRankInput> Hta;
  for (const RankSummary &R : J.Ranks) {
    Shifts.push_back(J.Clock.rankShiftUs(R.Claim.Rank));
    Hta.push_back({R.Claim.Rank, &R.HtaStraggler, Shifts.back()});
  }
  J.HtaStyle = htaStyleCandidates(Hta);
  J.CriticalPath = computeJobCriticalPath(J.Ranks, J.Collectives, Shifts);
  // §7.2's order: the timeline and clock findings before MR-DATA.
  std::vector<JobFinding> More = timelineFindings(J.Ranks, J.Collectives);
  for (JobFinding &F :
       bandwidthFindings(collectiveFamilies(J.Collectives, J.GpusPerNode),
                         J.Links, J.Stragglers.SumTJob))
    More.push_back(std::move(F));
  if (std::optional<JobFinding> F = clockFinding(J.Clock))
    More.push_back(std::move(*F));
  std::vector<JobFinding> &Fs = J.Stragglers.Findings;
  auto Data =
      llvm::find_if(Fs, [](const JobFinding &F) { return F.Id == "MR-DATA"; });
  Fs.insert(Data, More.begin(), More.end());
}

std::string jobMarkdown(const JobReport &J, StringRef OutDir) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "# Job report\n\n";
  OS << J.NumTraces << " trace" << (J.NumTraces == 1 ? "" : "s");
  if (!J.Directory.empty())
    OS << " (directory " << mdCode(relativePath(J.Directory, OutDir)) << ")";
  OS << ", " << J.Ranks.size() << " of " << J.ExpectedRanks << " rank"
     << (J.ExpectedRanks == 1 ? "" : "s")
     << ". Each rank's own report is in `rank<N>/`; this table is in "
        "`multirank/ranks.csv`.\n\n";

  if (const RankSummary *Slow = slowestRank(J.Ranks)) {
    const RankSummary *Fast = nullptr;
    for (const RankSummary &R : J.Ranks)
      if (R.HasGpu && (!Fast || R.TotalUs < Fast->TotalUs))
        Fast = &R;
    OS << "**Slowest rank: rank " << Slow->Claim.Rank << "** ("
       << mdCode(relativePath(Slow->Claim.Path, OutDir))
       << "): GPU timeline " << ms(Slow->TotalUs) << " ms";
    if (Fast != Slow)
      OS << ", " << ms(Slow->TotalUs - Fast->TotalUs) << " ms ("
         << pct((Slow->TotalUs - Fast->TotalUs) / Fast->TotalUs * 100)
         << " %) longer than the fastest, rank " << Fast->Claim.Rank << " ("
         << ms(Fast->TotalUs) << " ms)";
    else
      OS << " (the only rank with GPU events)";
    OS << ".\n\n";
  } else {
    OS << "No rank has GPU events.\n\n";
  }

  OS << "## Per-rank GPU timeline\n\n"
        "Per rank, the numbers of its `perf_report_csvs/gpu_timeline.csv`: "
        "ms over its GPU timeline (first GPU event start to last GPU event "
        "end), % of that time; communication and memcpy are their total "
        "time, exposed communication the part no computation overlaps. Wall "
        "time spans every event of the trace, CPU included.\n\n";
  OS << "| rank | file | wall ms | GPU ms | busy ms | computation ms | "
        "computation % | communication ms | communication % | memcpy ms | "
        "memcpy % | idle ms | idle % | exposed comm ms | exposed comm % |\n";
  OS << "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        "---:|---:|\n";
  for (const RankSummary &R : J.Ranks) {
    std::string Rank = std::to_string(R.Claim.Rank);
    OS << "| [" << Rank << "](rank" << Rank << "/analysis.md) | "
       << mdCode(relativePath(R.Claim.Path, OutDir), /*InTable=*/true)
       << " | " << ms(R.WallUs) << " | ";
    if (!R.HasGpu) {
      OS << "no GPU events |  |  |  |  |  |  |  |  |  |  |  |\n";
      continue;
    }
    OS << ms(R.TotalUs) << " | " << ms(R.BusyUs) << " | "
       << ms(R.ComputationUs) << " | " << pct(R.pct(R.ComputationUs))
       << " | " << ms(R.TotalCommUs) << " | " << pct(R.pct(R.TotalCommUs))
       << " | " << ms(R.TotalMemcpyUs) << " | "
       << pct(R.pct(R.TotalMemcpyUs)) << " | " << ms(R.IdleUs) << " | "
       << pct(R.pct(R.IdleUs)) << " | " << ms(R.ExposedCommUs) << " | "
       << pct(R.pct(R.ExposedCommUs)) << " |\n";
  }
  OS << "\n![Per-rank GPU time](multirank/rank_breakdown.svg)\n\n"
     << multiRankMarkdown(J);
  if (!J.Collectives.empty())
    OS << "\n"
       << collectivesMarkdown(J.Collectives)
       << "\n![Arrival skew per rank and collective]"
          "(multirank/collective_skew.svg)\n\n"
       << stragglersMarkdown(J.Stragglers);
  OS << "\n" << criticalPathMarkdown(J.Ranks, J.CriticalPath);
  if (!J.Warnings.empty()) {
    OS << "\n## Warnings\n\n";
    for (const std::string &W : J.Warnings)
      OS << "- " << mdEscape(W) << "\n";
  }
  return Text;
}

Error writeJobReport(const JobReport &J, StringRef OutDir,
                     StringRef WriteDir) {
  if (WriteDir.empty())
    WriteDir = OutDir;
  SmallString<256> Multi(WriteDir);
  sys::path::append(Multi, "multirank");
  if (std::error_code EC = sys::fs::create_directories(Multi))
    return createStringError(EC, Multi + ": cannot create directory: " +
                                     EC.message());
  if (Error E = writeCsvTable(Multi, "ranks.csv",
                              ranksTable(J.Ranks, OutDir, &J.Clock)))
    return E;
  // The charts once, as files and inlined in analysis.html.
  HtmlImages Images;
  auto Chart = [&](StringRef Name, auto Render) -> Error {
    std::string Svg;
    raw_string_ostream SOS(Svg);
    Render(SOS);
    Images[("multirank/" + Name).str()] = {"image/svg+xml", Svg};
    return writeFileAtomically(Multi, Name,
                               [&](raw_ostream &OS) { OS << Svg; });
  };
  if (Error E = Chart("rank_breakdown.svg", [&](raw_ostream &OS) {
        renderRankBreakdownSvg(OS, rankBars(J.Ranks),
                               "Job — GPU Time per Rank");
      }))
    return E;
  auto CpByRank = [&] { return criticalByRankTable(J.Ranks); };
  auto CpJob = [&] { return criticalJobTable(J.CriticalPath); };
  auto Steps = [&] { return jobStepsTable(J.Ranks); };
  auto StepMatrix = [&] { return stepMatrixTable(J.Ranks); };
  auto KernelByRank = [&] { return kernelByRankTable(J.Ranks); };
  auto Timeline = [&] { return rankTimelineTable(J.Ranks); };
  auto TimelineStats = [&] { return rankTimelineStatsTable(J.Ranks); };
  auto IdleByStream = [&] { return idleByStreamTable(J.Ranks); };
  auto Summary = [&] { return jobSummaryTable(J); };
  if (Error E = writeJobTables(Multi,
                               {{"critical_by_rank.csv", CpByRank},
                                {"critical_job.csv", CpJob},
                                {"steps.csv", Steps},
                                {"step_matrix.csv", StepMatrix},
                                {"kernel_by_rank.csv", KernelByRank},
                                {"rank_timeline.csv", Timeline},
                                {"rank_timeline_stats.csv", TimelineStats},
                                {"idle_by_stream.csv", IdleByStream},
                                {"job_summary.csv", Summary}}))
    return E;
  if (!J.Collectives.empty()) {
    if (Error E = writeCollectivesCsv(Multi, J.Collectives, J.GpusPerNode))
      return E;
    if (Error E = writeCollectivesLongCsv(Multi, J.Collectives))
      return E;
    if (Error E = writeCollectiveExtras(J, Multi))
      return E;
    auto Stragglers = [&] { return stragglersTable(J.Stragglers); };
    auto StepStragglers = [&] { return stepStragglersTable(J.Stragglers); };
    auto NcclLong = [&](StringRef Dir, StringRef Name) {
      return writeNcclLongCsv(Dir, Name, J.Compat);
    };
    auto NcclSync = [&](StringRef Dir, StringRef Name) {
      return writeNcclImplicitSyncCsv(Dir, Name, J.Compat);
    };
    auto NcclSyncSummary = [&] {
      return ncclSummaryImplicitSyncTable(J.Compat);
    };
    auto NcclLongSummary = [&] { return ncclSummaryLongTable(J.Compat); };
    auto CompatStragglers = [&] { return compatStragglerTable(J.Compat); };
    if (Error E = writeJobTables(
            Multi,
            {{"stragglers.csv", Stragglers},
             {"straggler_steps.csv", StepStragglers},
             {"compat/nccl_long.csv", {}, NcclLong},
             {"compat/nccl_implicit_sync.csv", {}, NcclSync},
             {"compat/nccl_summary_implicit_sync.csv", NcclSyncSummary},
             {"compat/nccl_summary_long.csv", NcclLongSummary},
             {"compat/straggler_summary.csv", CompatStragglers}}))
      return E;
    if (Error E = Chart("collective_skew.svg", [&](raw_ostream &OS) {
          renderSkewHeatmapSvg(OS, skewHeatmap(J),
                               "Job — Collective Arrival Skew");
        }))
      return E;
  }
  if (!J.Collectives.empty() || !J.Stragglers.Findings.empty()) {
    std::string Json = jobFindingsJson(J.Stragglers);
    if (Error E = writeFileAtomically(
            Multi, "findings.json", [&](raw_ostream &OS) { OS << Json; }))
      return E;
  }
  std::string Md = jobMarkdown(J, OutDir);
  if (Error E = writeMarkdownHtmlPage(WriteDir, "analysis.html", Md, Images,
                                      "tl job report"))
    return E;
  return writeFileAtomically(WriteDir, "analysis.md",
                             [&](raw_ostream &OS) { OS << Md; });
}

} // namespace tl
