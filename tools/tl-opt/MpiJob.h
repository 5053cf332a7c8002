//===- MpiJob.h - tl-opt --mpi: a job spread over MPI processes --*- C++ -*-===//
//
// Process p analyses the job's traces p, p + P, ...; process 0 gathers the
// rank outcomes (RankOutcomeCodec.h), writes the job report and commits
// it. docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_TOOLS_TLOPT_MPIJOB_H
#define TL_TOOLS_TLOPT_MPIJOB_H

#include "llvm/ADT/StringRef.h"

namespace tl {

class MpiWorld;
class OutputTransaction;
class Session;
struct JobInputs;

/// tl-opt --mpi: process 0's OutputTransaction (Out, null on the others)
/// is where every process writes its ranks' reports; the others learn its
/// staging directory first. Every process returns process 0's exit code.
int runMpiJob(Session &S, const JobInputs &Job, OutputTransaction *Out,
              llvm::StringRef OutDir, MpiWorld &W);

} // namespace tl

#endif // TL_TOOLS_TLOPT_MPIJOB_H
