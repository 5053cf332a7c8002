//===- JobCriticalPath.h - A job's critical path across ranks --*- C++ -*-===//
//
// Spec critical-path.md §6.8. Each rank's critical path (CriticalPath.h)
// reduced, before its IR is freed, to pieces the job can stitch: per
// window its summary and the chain from its sink back to the last
// collective it waited on, and per collective instance the chain from the
// instance's start back to the previous collective's end (or the window's
// start), each as its time per category. Process 0 joins the chains
// through the matched instances: at a complete implicit-sync instance the
// path goes to the member that started last (the COLL edges from every
// member's start to each member's end), so a straggler owns the path.
// docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_JOBCRITICALPATH_H
#define TL_DRIVER_JOBCRITICALPATH_H

#include "tl/Analysis/CriticalPath.h"
#include "tl/Report/CsvTable.h"

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tl {

class AnalysisManager;
class Trace;
struct MatchedCollective;
struct RankSummary;

/// One window of a rank's own critical path.
struct RankCpWindow {
  int64_t Step = -1; // -1: the whole trace (no ProfilerStep)
  double Start = 0, End = 0;
  std::array<double, NumCpCategories> ByCategory{};
  /// From the window's sink back to the first collective end (Stop = its
  /// instance index) or the window's start.
  CpChain Sink;
};

/// One collective instance of a rank (RankCollectives::Instances order):
/// the chain from its start (Chain.To) back, and its end.
struct RankCpCollective {
  CpChain Chain;
  double End = 0;
};

/// What the job keeps of a rank's critical path.
struct RankCriticalPath {
  std::vector<RankCpWindow> Windows;
  std::vector<RankCpCollective> Collectives;
};

/// T's critical path (AM's CriticalPath) and the chains of its collective
/// instances (collectCollectiveInstances' order).
RankCriticalPath summarizeRankCriticalPath(const Trace &T,
                                           AnalysisManager &AM);

/// A rank's part of the job path of one step (or of all of them).
struct JobCpShare {
  int64_t Rank = 0;
  double CriticalUs = 0;
  std::array<double, NumCpCategories> ByCategory{};
};

/// The job path of one step: from the latest sink over the ranks back to
/// a window start, through the last arrivers of the collectives.
struct JobCpStep {
  int64_t Step = -1;
  double Start = 0, End = 0;
  int64_t SinkRank = 0;
  /// Jumps from one rank to another (COLL segments).
  unsigned Jumps = 0;
  /// Every rank of the job, rank order.
  std::vector<JobCpShare> Ranks;
  double length() const { return End - Start; }
};

struct JobCriticalPath {
  std::vector<JobCpStep> Steps; // step order
  /// Summed over the steps, rank order.
  std::vector<JobCpShare> Total;
  double totalUs() const;
  /// The rank with the most critical time (ties: the lowest); null when
  /// the path is empty.
  const JobCpShare *owner() const;
};

/// Ranks: rank order, each with its RankCriticalPath; Colls: the matched
/// instances (MatchedMember::Index into the ranks' instances). ShiftUs:
/// per entry of Ranks, what moves its times onto the clock the
/// collectives were matched on (ClockAlignment::rankShiftUs; empty: 0).
JobCriticalPath computeJobCriticalPath(llvm::ArrayRef<RankSummary> Ranks,
                                       llvm::ArrayRef<MatchedCollective> Colls,
                                       llvm::ArrayRef<double> ShiftUs = {});

/// multirank/critical_by_rank.csv: every rank's own path per window.
CsvTable criticalByRankTable(llvm::ArrayRef<RankSummary> Ranks);
/// multirank/critical_job.csv: the job path's time per step and rank.
CsvTable criticalJobTable(const JobCriticalPath &P);
/// The job analysis.md's "Critical path" section.
std::string criticalPathMarkdown(llvm::ArrayRef<RankSummary> Ranks,
                                 const JobCriticalPath &P);

} // namespace tl

#endif // TL_DRIVER_JOBCRITICALPATH_H
