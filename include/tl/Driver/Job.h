//===- Job.h - Analysing every rank of a job -------------------*- C++ -*-===//
//
// A job (JobInputs.h) runs through one Session: its traces one after
// another, each into <out>/rank<N>/ (the normal single-trace report, rank
// from RankResolution.h), each rank's IR freed before the next is imported
// so memory stays that of one rank; then the job report (JobReport.h) into
// <out>/. docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_JOB_H
#define TL_DRIVER_JOB_H

#include "tl/Driver/JobInputs.h"
#include "tl/Driver/JobReport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tl {

class OutputTransaction;
class Session;

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

/// A job's output directory must not hold a single trace's report
/// (findings.json): the job's analysis.md would replace its own and leave
/// the rest beside it.
llvm::Error checkJobOutputDir(llvm::StringRef Dir);
/// The converse for a single trace's -o: not a job's report directory
/// (multirank/ranks.csv).
llvm::Error checkSingleOutputDir(llvm::StringRef Dir);

} // namespace tl

#endif // TL_DRIVER_JOB_H
