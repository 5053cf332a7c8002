//===- Job.cpp - Analysing every rank of a job ----------------------------===//
#include "tl/Driver/Job.h"
#include "tl/Driver/JobCriticalPath.h"
#include "tl/Driver/RankResolution.h"
#include "tl/Driver/Session.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/IR/Trace.h"
#include "tl/Support/HeapTrim.h"
#include "tl/Support/OutputTransaction.h"
#include "tl/Support/RelativePath.h"
#include "tl/Support/ThreadCount.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

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

unsigned jobWorkers(const SessionOptions &O, size_t NumTraces) {
  if (O.Timing || O.PassStatistics || O.Progress || NumTraces < 2)
    return 1;
  return unsigned(std::min<size_t>(effectiveThreads(O.Threads), NumTraces));
}

namespace {
/// The state the workers of analyzeRanks share.
struct RankWork {
  Session &S;
  const JobInputs &In;
  ArrayRef<size_t> Positions;
  StringRef OutDir, WriteDir;
  OutputTransaction *Out;
  raw_ostream &Diag;
  bool Buffered;
  std::vector<RankOutcome> &Outcomes;
  std::atomic<size_t> Next{0};
  std::atomic<bool> Stop{false};
  /// Diag, Live and the message order below.
  std::mutex M;
  /// Messages reach Diag in job order, as one rank after another writes
  /// them: the first unfinished rank's directly, the later ones' kept in
  /// Held until the ranks before them are done.
  size_t Shown = 0;
  std::vector<std::string> Held;
  std::vector<bool> Finished;
  /// Claims as they come, so that two traces of one rank never write one
  /// directory; finishJob resolves again in job order for the messages.
  RankResolver Live;

  RankWork(Session &S, const JobInputs &In, ArrayRef<size_t> Positions,
           StringRef OutDir, StringRef WriteDir, OutputTransaction *Out,
           raw_ostream &Diag, bool Buffered,
           std::vector<RankOutcome> &Outcomes)
      : S(S), In(In), Positions(Positions), OutDir(OutDir),
        WriteDir(WriteDir), Out(Out), Diag(Diag), Buffered(Buffered),
        Outcomes(Outcomes), Held(Positions.size()),
        Finished(Positions.size()), Live(In.Traces.size()) {}

  /// One rank, start to summary; its IR is freed on return.
  void analyze(size_t I, std::string &Buf, raw_ostream &RankDiag);
  void worker();
  /// Text for the I-th rank's messages (M held).
  void show(size_t I, StringRef Text) {
    if (I == Shown) {
      Diag << Text;
      Diag.flush();
    } else {
      Held[I] += Text;
    }
  }
  /// The I-th rank wrote its last message (M held); NoMore: the ranks
  /// still held are shown whatever their state (all workers are done).
  void finish(size_t I, bool NoMore = false) {
    if (I < Finished.size())
      Finished[I] = true;
    while (Shown < Held.size() && (Finished[Shown] || NoMore)) {
      ++Shown;
      if (Shown < Held.size()) {
        Diag << Held[Shown];
        Diag.flush();
        Held[Shown].clear();
      }
    }
  }
};
} // namespace

void RankWork::analyze(size_t I, std::string &Buf, raw_ostream &RankDiag) {
  RankOutcome &R = Outcomes[I];
  const SessionOptions &O = S.options();
  size_t N = In.Traces.size();
  StringRef Path = In.Traces[R.Position];
  // A buffered rank's messages reach Diag whole, after each stage.
  auto Flush = [&] {
    if (!Buffered)
      return;
    RankDiag.flush();
    if (Buf.empty())
      return;
    std::lock_guard<std::mutex> L(M);
    show(I, Buf);
    Buf.clear();
  };
  auto Fail = [&](Error E) {
    R.Error = toString(std::move(E));
    Flush();
    Stop = true;
  };
  R.Started = true;
  Expected<std::unique_ptr<TraceRun>> Run =
      S.importTrace(Path, Stage::Report, Buffered ? &RankDiag : nullptr);
  if (!Run)
    return Fail(Run.takeError());
  R.Imported = true;
  R.Ids = distributedIds((*Run)->trace());
  // The rank is known once the trace is read; a second claim fails
  // before its report could replace the first one's.
  Expected<RankClaim> C = [&] {
    std::lock_guard<std::mutex> L(M);
    return Live.claim(Path, R.Position, R.Ids);
  }();
  if (!C) {
    // Which of the two is named first is the job order's choice:
    // finishJob claims again, in that order.
    consumeError(C.takeError());
    Flush();
    Stop = true;
    return;
  }
  std::string Sub = "rank" + std::to_string(C->Rank);
  SmallString<256> Dir(OutDir), WDir(WriteDir);
  sys::path::append(Dir, Sub);
  sys::path::append(WDir, Sub);
  Flush();
  if (!O.Quiet) {
    std::string Line;
    raw_string_ostream LS(Line);
    // On a terminal the import's progress line is still open (the cursor
    // at its start): clear it first.
    if (O.Progress && O.ProgressInteractive)
      LS << "\x1b[K";
    LS << O.ToolName << ": rank " << C->Rank << " (" << R.Position + 1
       << "/" << N << "): " << Path << " -> " << Dir << "\n";
    std::lock_guard<std::mutex> L(M);
    show(I, Line);
  }
  if (Out)
    (*Run)->setOutput(*Out, Sub);
  else
    (*Run)->setOutputDirs(Dir, WDir);
  if (Error E = S.gate(**Run))
    return Fail(std::move(E));
  Flush();
  if (Error E = S.runPasses(**Run))
    return Fail(std::move(E));
  Flush();
  if (Error E = S.emitReport(**Run))
    return Fail(std::move(E));
  Flush();
  R.FailedPasses = !(*Run)->failures().empty();
  R.FailOnTripped = (*Run)->failOnTripped();
  R.Summary = summarizeRank((*Run)->trace(),
                            (*Run)->analyses().get<GpuTimeline>(),
                            std::move(*C));
  R.Summary->CriticalPath =
      summarizeRankCriticalPath((*Run)->trace(), (*Run)->analyses());
  // Free this rank's IR and analyses before the next import.
  uint64_t Events = (*Run)->trace().size();
  Run->reset();
  if (heapTrimPays(Events))
    releaseFreeHeapPages();
}

void RankWork::worker() {
  std::string Buf;
  raw_string_ostream RankDiag(Buf);
  RankDiag.SetUnbuffered();
  while (!Stop) {
    size_t I = Next++;
    if (I >= Positions.size())
      return;
    analyze(I, Buf, RankDiag);
    std::lock_guard<std::mutex> L(M);
    finish(I);
  }
}

std::vector<RankOutcome> analyzeRanks(Session &S, const JobInputs &In,
                                      ArrayRef<size_t> Positions,
                                      StringRef OutDir, StringRef WriteDir,
                                      OutputTransaction *Out,
                                      raw_ostream &Diag, unsigned Workers) {
  std::vector<RankOutcome> Outcomes(Positions.size());
  for (size_t I = 0; I < Positions.size(); ++I)
    Outcomes[I].Position = Positions[I];
  Workers = std::max(1u, std::min<unsigned>(Workers, Positions.size()));
  RankWork W(S, In, Positions, OutDir, WriteDir, Out, Diag, Workers > 1,
             Outcomes);
  if (Workers == 1) {
    W.worker();
    return Outcomes;
  }
  // Each rank gets its share of the cores for its own stages.
  S.setThreadsPerTrace(
      std::max(1u, effectiveThreads(S.options().Threads) / Workers));
  // A malloc arena per worker (and the main thread's): ranks are analysed
  // independently, and one shared arena made the workers take turns at its
  // lock (HeapTrim.h). Threads a worker's stages start beyond that share
  // the arenas there are.
  useMallocArenas(Workers + 1);
  std::vector<std::thread> Pool;
  for (unsigned I = 0; I < Workers; ++I)
    Pool.emplace_back([&W] { W.worker(); });
  for (std::thread &T : Pool)
    T.join();
  useMallocArenas(1);
  W.finish(Positions.size(), /*NoMore=*/true);
  return Outcomes;
}

Expected<JobResult> finishJob(const SessionOptions &O, const JobInputs &In,
                              std::vector<RankOutcome> Outcomes,
                              OutputTransaction &Out, raw_ostream &Diag) {
  StringRef OutDir = Out.dir();
  StringRef Tool = O.ToolName;
  size_t N = In.Traces.size();
  llvm::sort(Outcomes, [](const RankOutcome &A, const RankOutcome &B) {
    return A.Position < B.Position;
  });
  // In job order, as one trace after another would meet them: the first
  // error, or the first trace whose rank another trace has.
  RankResolver Resolver(N);
  JobResult Res;
  JobReport &J = Res.Report;
  J.Directory = In.Directory;
  J.NumTraces = N;
  std::set<int64_t> Ranks;
  std::string Unclaimed;
  for (RankOutcome &R : Outcomes) {
    StringRef Path = In.Traces[R.Position];
    if (!R.Started)
      return error(Path + ": not analysed (the job stopped)");
    if (R.Imported) {
      Expected<RankClaim> C = Resolver.claim(Path, R.Position, R.Ids);
      if (!C)
        return C.takeError();
    }
    // Another MPI process's error names the staging directory.
    if (!R.Error.empty())
      return error(Out.unstaged(R.Error));
    // Stopped at its claim: the other trace of its rank comes later in
    // the job, and its claim fails below.
    if (!R.Summary) {
      if (Unclaimed.empty())
        Unclaimed = Path.str();
      continue;
    }
    Res.FailedPasses |= R.FailedPasses;
    Res.FailOnTripped |= R.FailOnTripped;
    Ranks.insert(R.Summary->Claim.Rank);
    J.Ranks.push_back(std::move(*R.Summary));
  }
  if (!Unclaimed.empty())
    return error(Unclaimed + ": not analysed (another trace has its rank)");
  if (Outcomes.size() != N)
    return error("job: " + Twine(Outcomes.size()) + " of " + Twine(N) +
                 " traces analysed");
  llvm::sort(J.Ranks, [](const RankSummary &A, const RankSummary &B) {
    return A.Claim.Rank < B.Claim.Rank;
  });
  J.ExpectedRanks = Resolver.expectedRanks();
  J.AlignCollective = O.Align == "collective";
  Expected<std::optional<ArchSpec>> Arch = fixedArchSpec(O);
  if (!Arch)
    return Arch.takeError();
  if (*Arch)
    J.Links = {(*Arch)->IntraNodeBusbwGBps, (*Arch)->InterNodeBusbwGBps};
  crossRankAnalysis(J);
  for (const std::string &W :
       Resolver.warnings([](StringRef P) { return P.str(); }))
    WithColor::warning(Diag, Tool) << W << "\n";
  J.Warnings = Resolver.warnings(
      [&](StringRef P) { return relativePath(P, OutDir); });
  for (const std::string &W : J.Clock.warnings()) {
    WithColor::warning(Diag, Tool) << "job: " << W << "\n";
    J.Warnings.push_back(W);
  }
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

void announceJob(const SessionOptions &O, const JobInputs &In,
                 raw_ostream &Diag) {
  if (O.Quiet)
    return;
  size_t N = In.Traces.size();
  Diag << O.ToolName << ": job: "
       << (In.Directory.empty() ? std::string() : In.Directory + ": ") << N
       << " trace" << (N == 1 ? "" : "s") << ": " << traceNames(In) << "\n";
}

Expected<JobResult> runJob(Session &S, const JobInputs &In,
                           OutputTransaction &Out, raw_ostream &Diag) {
  const SessionOptions &O = S.options();
  announceJob(O, In, Diag);
  std::vector<size_t> All(In.Traces.size());
  for (size_t I = 0; I < All.size(); ++I)
    All[I] = I;
  std::vector<RankOutcome> Outcomes =
      analyzeRanks(S, In, All, Out.dir(), Out.stagingDir(), &Out, Diag,
                   jobWorkers(O, In.Traces.size()));
  return finishJob(O, In, std::move(Outcomes), Out, Diag);
}

} // namespace tl
