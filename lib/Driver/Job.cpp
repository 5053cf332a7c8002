//===- Job.cpp - Analysing every rank of a job ----------------------------===//
#include "tl/Driver/Job.h"
#include "tl/Driver/RankResolution.h"
#include "tl/Driver/Session.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/IR/Trace.h"
#include "tl/Support/HeapTrim.h"
#include "tl/Support/OutputTransaction.h"
#include "tl/Support/RelativePath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <set>

using namespace llvm;

namespace tl {

static Error error(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error checkJobOutputDir(StringRef Dir) {
  SmallString<256> F(Dir);
  sys::path::append(F, "findings.json");
  if (sys::fs::exists(F))
    return error(Dir + ": holds the report of a single trace "
                       "(findings.json); a job would write its analysis.md "
                       "over that one: remove the report or give another -o");
  return Error::success();
}

Error checkSingleOutputDir(StringRef Dir) {
  SmallString<256> F(Dir);
  sys::path::append(F, "multirank", "ranks.csv");
  if (sys::fs::exists(F))
    return error(Dir + ": holds the report of a job (multirank/ranks.csv); "
                       "a single trace's report would replace its "
                       "analysis.md: remove the report or give another -o");
  return Error::success();
}

/// "rank0.json, rank1.json, ..." (at most 20 names).
static std::string traceNames(const JobInputs &In) {
  std::string Out;
  size_t Shown = std::min<size_t>(In.Traces.size(), 20);
  for (size_t I = 0; I < Shown; ++I) {
    StringRef P = In.Traces[I];
    Out += (I ? ", " : "") +
           (In.Directory.empty() ? P : sys::path::filename(P)).str();
  }
  if (Shown < In.Traces.size())
    Out += ", and " + std::to_string(In.Traces.size() - Shown) + " more";
  return Out;
}

/// rank<N> directories of the output directory that are no rank of this
/// job and hold files tl did not write (an earlier tl's report has no
/// manifest): named, never removed. Those of an earlier, larger job with a
/// manifest go at the commit.
static std::vector<std::string>
staleRankDirs(const OutputTransaction &Out, const std::set<int64_t> &Ranks) {
  std::vector<std::string> Stale;
  for (StringRef F : Out.foreignEntries()) {
    StringRef Name = F.split('/').first;
    StringRef Num = Name;
    int64_t N;
    if (!Num.consume_front("rank") || Num.empty() || !all_of(Num, isDigit) ||
        Num.getAsInteger(10, N) || Ranks.count(N))
      continue;
    SmallString<256> Full(Out.dir());
    sys::path::append(Full, Name);
    if (!sys::fs::is_directory(Full))
      continue;
    if (Stale.empty() || Stale.back() != Name)
      Stale.push_back(Name.str());
  }
  llvm::sort(Stale);
  Stale.erase(std::unique(Stale.begin(), Stale.end()), Stale.end());
  return Stale;
}

Expected<JobResult> runJob(Session &S, const JobInputs &In,
                           OutputTransaction &Out, raw_ostream &Diag) {
  StringRef OutDir = Out.dir();
  const SessionOptions &O = S.options();
  StringRef Tool = O.ToolName;
  size_t N = In.Traces.size();
  if (!O.Quiet)
    Diag << Tool << ": job: "
         << (In.Directory.empty() ? std::string() : In.Directory + ": ") << N
         << " trace" << (N == 1 ? "" : "s") << ": " << traceNames(In)
         << "\n";
  RankResolver Resolver(N);
  JobResult Res;
  JobReport &J = Res.Report;
  J.Directory = In.Directory;
  J.NumTraces = N;
  std::set<int64_t> Ranks;
  for (size_t I = 0; I < N; ++I) {
    StringRef Path = In.Traces[I];
    Expected<std::unique_ptr<TraceRun>> R = S.importTrace(Path);
    if (!R)
      return R.takeError();
    // The rank is known once the trace is read; a second claim fails
    // before its report could replace the first one's.
    Expected<RankClaim> C =
        Resolver.claim(Path, I, distributedIds((*R)->trace()));
    if (!C)
      return C.takeError();
    SmallString<256> Dir(OutDir);
    sys::path::append(Dir, "rank" + std::to_string(C->Rank));
    // On a terminal the import's progress line is still open (the cursor
    // at its start): clear it first.
    if (O.Progress && O.ProgressInteractive)
      Diag << "\x1b[K";
    if (!O.Quiet)
      Diag << Tool << ": rank " << C->Rank << " (" << I + 1 << "/" << N
           << "): " << Path << " -> " << Dir << "\n";
    (*R)->setOutput(Out, "rank" + std::to_string(C->Rank));
    if (Error E = S.gate(**R))
      return E;
    if (Error E = S.runPasses(**R))
      return E;
    if (Error E = S.emitReport(**R))
      return E;
    Res.FailedPasses |= !(*R)->failures().empty();
    Res.FailOnTripped |= (*R)->failOnTripped();
    J.Ranks.push_back(summarizeRank(
        (*R)->trace(), (*R)->analyses().get<GpuTimeline>(), std::move(*C)));
    Ranks.insert(J.Ranks.back().Claim.Rank);
    // Free this rank's IR and analyses before the next import.
    uint64_t Events = (*R)->trace().size();
    R->reset();
    if (heapTrimPays(Events))
      releaseFreeHeapPages();
  }
  llvm::sort(J.Ranks, [](const RankSummary &A, const RankSummary &B) {
    return A.Claim.Rank < B.Claim.Rank;
  });
  J.ExpectedRanks = Resolver.expectedRanks();
  crossRankAnalysis(J);
  for (const std::string &W :
       Resolver.warnings([](StringRef P) { return P.str(); }))
    WithColor::warning(Diag, Tool) << W << "\n";
  J.Warnings = Resolver.warnings(
      [&](StringRef P) { return relativePath(P, OutDir); });
  for (const std::string &D : staleRankDirs(Out, Ranks)) {
    std::string W = D + "/: no rank of this job (left by an earlier run)";
    SmallString<256> Full(OutDir);
    sys::path::append(Full, D);
    WithColor::warning(Diag, Tool) << Full << ": no rank of this job (left "
                                   << "by an earlier run)\n";
    J.Warnings.push_back(W);
  }
  if (Error E = writeJobReport(J, OutDir, Out.stagingDir()))
    return createStringError(inconvertibleErrorCode(),
                             Out.unstaged(toString(std::move(E))));
  if (!O.Quiet)
    Diag << Tool << ": job: " << J.Ranks.size() << " rank"
         << (J.Ranks.size() == 1 ? "" : "s") << "; job report in " << OutDir
         << "\n";
  return Res;
}

} // namespace tl
