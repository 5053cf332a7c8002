//===- CollectiveReportValidator.h - A job's collective files -*- C++ -*-===//
//
// `tl-opt --validate-report` on a job (JobReportValidator.h): the
// collective files of out/multirank/ agree with each other. collectives.csv
// has its columns and unique instance ids, an ok instance as many members
// as its group size; collectives_long.csv a row per present member of
// instances of collectives.csv, whose starts give the instance's first
// start, arrival skew, first and last rank and blame (Σ waits), every ok
// instance a row per member; collective_summary.csv counts the ok
// instances and their blame; stragglers.csv's blame and times last add up
// to those of the instances the straggler statistics use.
// docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_COLLECTIVEREPORTVALIDATOR_H
#define TL_DRIVER_COLLECTIVEREPORTVALIDATOR_H

#include "tl/Report/ReportValidator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

namespace tl {

/// Dir is the job's output directory, Ranks the ranks of ranks.csv.
/// Issues (level "job", rule "collectives") go into R. Nothing is checked
/// when the job wrote no collectives.csv.
void checkCollectiveFiles(llvm::StringRef Dir, const llvm::StringSet<> &Ranks,
                          ValidationResult &R);

} // namespace tl

#endif // TL_DRIVER_COLLECTIVEREPORTVALIDATOR_H
