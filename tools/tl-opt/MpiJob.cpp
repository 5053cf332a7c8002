//===- MpiJob.cpp - tl-opt --mpi: a job spread over MPI processes ---------===//
#include "MpiJob.h"
#include "MpiWorld.h"
#include "Options.h"

#include "tl/Driver/Job.h"
#include "tl/Driver/RankOutcomeCodec.h"
#include "tl/Driver/Session.h"
#include "tl/Support/OutputTransaction.h"
#include "tl/Support/TerminalText.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

/// tl-opt --mpi: process 0's OutputTransaction (Out, null on the others)
/// is where every process writes its ranks' reports; the others learn its
/// staging directory first. Every process returns process 0's exit code.
int runMpiJob(Session &S, const JobInputs &Job, OutputTransaction *Out,
              StringRef OutDir, MpiWorld &W) {
  // An empty staging directory: process 0 failed (and said why).
  std::string Staging =
      W.broadcast(Out ? Out->stagingDir().str() : std::string());
  if (Staging.empty())
    return 1;
  std::string Dir = W.broadcast(Out ? Out->dir().str() : std::string());
  const SessionOptions &O = S.options();
  int Exit = 0;
  // Process p analyses the traces p, p + P, p + 2P, ... of the job.
  std::vector<size_t> Positions;
  for (size_t I = size_t(W.rank()); I < Job.Traces.size();
       I += size_t(W.size()))
    Positions.push_back(I);
  if (W.rank() == 0)
    announceJob(O, Job, errs());
  std::vector<RankOutcome> Mine;
  if (Positions.empty()) {
    // More processes than traces: nothing to analyse here.
  } else if (Error E = S.begin()) {
    // Its first trace carries the error to process 0.
    RankOutcome R;
    R.Position = Positions.front();
    R.Started = true;
    R.Error = toString(std::move(E));
    Mine.push_back(std::move(R));
  } else {
    Mine = analyzeRanks(S, Job, Positions, Dir, Staging, Out, errs(),
                        jobWorkers(O, Positions.size()));
  }
  Expected<std::vector<std::string>> All = W.gather(encodeRankOutcomes(Mine));
  if (W.rank() == 0) {
    Exit = [&]() -> int {
      if (!All)
        return fail(All.takeError());
      std::vector<RankOutcome> Outcomes;
      for (const std::string &B : *All)
        if (Error E = decodeRankOutcomes(B, Outcomes))
          return fail(std::move(E));
      Expected<JobResult> R =
          finishJob(O, Job, std::move(Outcomes), *Out, errs());
      if (!R)
        return fail(R.takeError());
      Error E = Out->commit();
      for (const std::string &Wn : Out->warnings())
        WithColor::warning(errs(), "tl-opt") << terminalSafe(Wn) << "\n";
      if (E)
        return fail(std::move(E));
      return R->FailedPasses ? 2 : R->FailOnTripped ? 3 : 0;
    }();
  }
  return W.broadcast(Exit);
}

} // namespace tl
