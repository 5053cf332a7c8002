//===- Job.h - Analysing every rank of a job -------------------*- C++ -*-===//
//
// A job (JobInputs.h) runs through one Session: its traces on a few worker
// threads, each into <out>/rank<N>/ (the normal single-trace report, rank
// from RankResolution.h), each rank's IR freed once it is summarised, so
// memory stays that of one rank per worker; then the job report
// (JobReport.h) into <out>/, from the summaries only. The two halves are
// separate so that MPI processes can each analyse a share of the ranks and
// process 0 finish the job (tools/tl-opt/MpiJob.cpp). docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_JOB_H
#define TL_DRIVER_JOB_H

#include "tl/Driver/JobInputs.h"
#include "tl/Driver/JobReport.h"
#include "tl/Driver/RankResolution.h"
#include "tl/Driver/RankTable.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

class OutputTransaction;
class Session;
struct SessionOptions;

/// What the analysis of one trace of a job left for the job report.
struct RankOutcome {
  /// In job order (JobInputs::Traces).
  size_t Position = 0;
  /// False: not analysed (the job stopped at another trace's error).
  bool Started = false;
  /// What the trace says of its rank (valid once imported).
  bool Imported = false;
  DistributedIds Ids;
  /// The error that stopped this trace ("" = none); without one, the
  /// summary, or none when another trace claimed its rank first (which
  /// of the two is wrong is for finishJob to say, in job order).
  std::string Error;
  std::optional<RankSummary> Summary;
  bool FailedPasses = false, FailOnTripped = false;
};

/// The job's first line on Diag ("tl-opt: job: DIR: 8 traces: ..."),
/// unless quiet.
void announceJob(const SessionOptions &O, const JobInputs &In,
                 llvm::raw_ostream &Diag);

/// Ranks analysed at once: --threads (0 = the cores), at most the traces;
/// 1 with --timing, --pass-statistics or a progress line (they describe
/// one trace's run at a time).
unsigned jobWorkers(const SessionOptions &O, size_t NumTraces);

/// Analyse the traces of In at Positions (ascending) on Workers threads,
/// each rank's report into OutDir/rank<N>/, written into
/// WriteDir/rank<N>/ (Out, when given, owns WriteDir: error messages name
/// OutDir). A worker takes the next position once its rank is summarised
/// and freed; after an error no new rank starts. Diag gets each rank's
/// messages as whole blocks. Result: one outcome per position.
std::vector<RankOutcome> analyzeRanks(Session &S, const JobInputs &In,
                                      llvm::ArrayRef<size_t> Positions,
                                      llvm::StringRef OutDir,
                                      llvm::StringRef WriteDir,
                                      OutputTransaction *Out,
                                      llvm::raw_ostream &Diag,
                                      unsigned Workers);

struct JobResult {
  JobReport Report;
  /// Some rank had a failed pass (tl-opt exit 2) / matched --fail-on (3).
  bool FailedPasses = false;
  bool FailOnTripped = false;
};

/// Run every rank and write the job report into Out (its directory; the
/// caller commits it, so the job's report changes as a whole). Progress
/// ("rank 3/8: ...") and warnings go to Diag (progress not with --quiet).
/// Errors: a trace that fails to import, two traces of one rank (both
/// named), an unwritable directory; nothing is then committed.
llvm::Expected<JobResult> runJob(Session &S, const JobInputs &In,
                                 OutputTransaction &Out,
                                 llvm::raw_ostream &Diag);

/// The job report from every trace's outcome (Outcomes: any order, one
/// per position of In): the first error in job order (an import error, two
/// traces of one rank) as a sequential run would meet it, else the ranks
/// resolved in job order, the cross-rank analysis and the job report
/// written into Out's staging directory.
llvm::Expected<JobResult> finishJob(const SessionOptions &O,
                                    const JobInputs &In,
                                    std::vector<RankOutcome> Outcomes,
                                    OutputTransaction &Out,
                                    llvm::raw_ostream &Diag);

/// A job's output directory must not hold a single trace's report
/// (findings.json): the job's analysis.md would replace its own and leave
/// the rest beside it.
llvm::Error checkJobOutputDir(llvm::StringRef Dir);
/// The converse for a single trace's -o: not a job's report directory
/// (multirank/ranks.csv).
llvm::Error checkSingleOutputDir(llvm::StringRef Dir);

} // namespace tl

#endif // TL_DRIVER_JOB_H
