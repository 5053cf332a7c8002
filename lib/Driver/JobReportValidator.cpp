//===- JobReportValidator.cpp - Checking a job's report -------------------===//
#include "tl/Driver/JobReportValidator.h"
#include "tl/Driver/CollectiveReportValidator.h"
#include "tl/Driver/RankTable.h"
#include "tl/Driver/RankTimeline.h"

#include "tl/Support/Csv.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace tl {

static std::string join(StringRef Dir, StringRef A, StringRef B = "") {
  SmallString<256> P(Dir);
  sys::path::append(P, A);
  if (!B.empty())
    sys::path::append(P, B);
  return std::string(P);
}

bool isJobReportDir(StringRef Dir) {
  return sys::fs::exists(join(Dir, "multirank", "ranks.csv"));
}

namespace {
struct Checker {
  ValidationResult R;
  void error(StringRef Rule, const Twine &Msg) {
    R.Issues.push_back(
        {ValidationIssue::Kind::Error, "job", Rule.str(), Msg.str()});
  }
  /// The file's CSV rows (header first); none, with an issue, when
  /// unreadable.
  std::vector<CsvRow> csv(StringRef Path, StringRef Rule) {
    ++R.Checks;
    auto B = MemoryBuffer::getFile(Path);
    if (!B) {
      error(Rule, Path + ": " + B.getError().message());
      return {};
    }
    auto Rows = parseCsv((*B)->getBuffer());
    if (!Rows) {
      error(Rule, Path + ": " + toString(Rows.takeError()));
      return {};
    }
    return std::move(*Rows);
  }
};
} // namespace

/// rank_timeline.csv: its columns, a row per rank of ranks.csv, and the
/// parts adding up (busy + idle = total, the four idle causes = idle,
/// HTA's idle + compute + non-compute = kernel time); the stats file's
/// columns and one row per metric.
static void checkRankTimeline(StringRef Dir, const StringSet<> &Ranks,
                              Checker &C) {
  std::vector<CsvRow> Rows =
      C.csv(join(Dir, "multirank", "rank_timeline.csv"), "rank_timeline");
  if (Rows.empty())
    return;
  const std::vector<std::string> Want = rankTimelineTable({}).columns();
  ++C.R.Checks;
  if (Rows.front() != Want) {
    C.error("rank_timeline",
            "multirank/rank_timeline.csv: not the timeline's columns");
    return;
  }
  ++C.R.Checks;
  if (Rows.size() - 1 != Ranks.size())
    C.error("rank_timeline",
            "multirank/rank_timeline.csv: " + Twine(Rows.size() - 1) +
                " rows for " + Twine(Ranks.size()) + " ranks");
  for (size_t I = 1; I < Rows.size(); ++I) {
    const CsvRow &Row = Rows[I];
    ++C.R.Checks;
    if (Row.size() != Want.size() || !Ranks.count(Row[0])) {
      C.error("rank_timeline", "multirank/rank_timeline.csv: row " + Twine(I) +
                                   " is no rank of ranks.csv");
      continue;
    }
    StringMap<double> V;
    bool Empty = false;
    for (size_t K = 1; K < Want.size(); ++K) {
      double D = 0;
      if (StringRef(Row[K]).getAsDouble(D))
        Empty |= Want[K] != "comm_hidden_pct" &&
                 Want[K] != "hta_comp_comm_overlap_pctg";
      V[Want[K]] = D;
    }
    if (Empty)
      continue;
    auto Sum = [&](std::initializer_list<const char *> Parts,
                   const char *Whole) {
      double S = 0;
      for (const char *P : Parts)
        S += V[P];
      ++C.R.Checks;
      if (std::fabs(S - V[Whole]) > 1e-6 * std::max(1.0, V["total_us"]))
        C.error("rank_timeline", "multirank/rank_timeline.csv: rank " + Row[0] +
                                     ": the parts of " + Whole +
                                     " do not add up to it");
    };
    Sum({"busy_us", "idle_us"}, "total_us");
    Sum({"host_wait_idle_us", "sync_wait_idle_us", "other_idle_us",
         "tail_idle_us"},
        "idle_us");
    Sum({"hta_idle_time_us", "hta_compute_time_us", "hta_non_compute_time_us"},
        "hta_kernel_time_us");
  }
  std::vector<CsvRow> Stats =
      C.csv(join(Dir, "multirank", "rank_timeline_stats.csv"), "rank_timeline");
  if (Stats.empty())
    return;
  ++C.R.Checks;
  bool Ok = Stats.front() == rankTimelineStatsTable({}).columns() &&
            Stats.size() == Want.size();
  for (size_t K = 1; Ok && K < Want.size(); ++K)
    Ok = !Stats[K].empty() && Stats[K][0] == Want[K];
  if (!Ok)
    C.error("rank_timeline", "multirank/rank_timeline_stats.csv: not one "
                             "row per rank_timeline.csv metric");
}

ValidationResult validateJobReport(StringRef Dir) {
  Checker C;
  std::vector<CsvRow> Rows =
      C.csv(join(Dir, "multirank", "ranks.csv"), "ranks.csv");
  if (Rows.empty())
    return std::move(C.R);
  const std::vector<std::string> Want = ranksTable({}, ".").columns();
  ++C.R.Checks;
  if (Rows.front() != Want) {
    C.error("ranks.csv", "multirank/ranks.csv: not the rank table's columns");
    return std::move(C.R);
  }
  std::string Md;
  ++C.R.Checks;
  if (auto B = MemoryBuffer::getFile(join(Dir, "analysis.md")))
    Md = (*B)->getBuffer().str();
  else
    C.error("analysis.md", "analysis.md: " + B.getError().message());
  if (!Md.empty() && !StringRef(Md).starts_with("# Job report\n"))
    C.error("analysis.md", "analysis.md: not a job report");
  // Every linked file (the rank reports, the charts) exists.
  for (size_t Pos = 0;
       (Pos = StringRef(Md).find("](", Pos)) != StringRef::npos;) {
    size_t End = StringRef(Md).find(')', Pos);
    if (End == StringRef::npos)
      break;
    StringRef Target = StringRef(Md).slice(Pos + 2, End);
    Pos = End;
    if (Target.empty() || Target.starts_with("#") || Target.contains("://"))
      continue;
    ++C.R.Checks;
    if (!sys::fs::exists(join(Dir, Target)))
      C.error("links",
              "analysis.md: linked file '" + Target + "' does not exist");
  }
  StringSet<> RankIds;
  for (size_t I = 1; I < Rows.size(); ++I)
    if (!Rows[I].empty())
      RankIds.insert(Rows[I][0]);
  checkRankTimeline(Dir, RankIds, C);
  checkCollectiveFiles(Dir, RankIds, C.R);
  for (size_t I = 1; I < Rows.size(); ++I) {
    const CsvRow &Row = Rows[I];
    if (Row.size() != Want.size()) {
      C.error("ranks.csv", "multirank/ranks.csv: row " + Twine(I) +
                               " has " + Twine(Row.size()) + " fields");
      continue;
    }
    StringMap<std::string> Cell;
    for (size_t K = 0; K < Want.size(); ++K)
      Cell[Want[K]] = Row[K];
    std::string Rank = "rank" + Row[0];
    std::string RankDir = join(Dir, Rank);
    // The rank's own report, as any single-trace report.
    ++C.R.Checks;
    if (!sys::fs::is_directory(RankDir)) {
      C.error("ranks", Rank + "/: missing");
      continue;
    }
    ValidationResult Sub = validateReport(RankDir);
    C.R.Checks += Sub.Checks;
    for (ValidationIssue &Is : Sub.Issues) {
      Is.Message = Rank + "/: " + Is.Message;
      C.R.Issues.push_back(std::move(Is));
    }
    ++C.R.Checks;
    if (!Md.empty() &&
        !StringRef(Md).contains("| [" + Row[0] + "](" + Rank + "/analysis.md) |"))
      C.error("analysis.md", "analysis.md: no row for " + Rank);
    // Its gpu_timeline.csv's numbers, the same text.
    if (Cell["total_time_ms"].empty())
      continue;
    std::vector<CsvRow> TL = C.csv(
        join(RankDir, "perf_report_csvs", "gpu_timeline.csv"), "timeline");
    for (size_t K = 1; K < TL.size(); ++K) {
      if (TL[K].size() != 3)
        continue;
      const std::string &Type = TL[K][0];
      ++C.R.Checks;
      auto Ms = Cell.find(Type + "_ms");
      if (Ms == Cell.end() || Ms->second != TL[K][1])
        C.error("timeline", "multirank/ranks.csv: " + Rank + " " + Type +
                                 " is not its gpu_timeline.csv's " + TL[K][1]);
      auto Pct = Cell.find(Type + "_pct");
      if (Pct != Cell.end() && Pct->second != TL[K][2])
        C.error("timeline", "multirank/ranks.csv: " + Rank + " " + Type +
                                 " percent is not its gpu_timeline.csv's " +
                                 TL[K][2]);
    }
  }
  checkManifest(Dir, C.R);
  return std::move(C.R);
}

} // namespace tl
