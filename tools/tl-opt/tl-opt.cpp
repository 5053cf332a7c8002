//===- tl-opt.cpp - The tl driver ------------------------------------------===//
//
// The command line of tl::Session (lib/Driver): flags become session
// settings (over a --config file's), the session runs each trace through
// import -> quality gate -> passes -> report, and its errors become exit
// codes.
//
// Exit codes: 0 ok; 1 input or usage error (nothing analyzed, or
// --verify-findings mismatch, or --validate-report found errors); 2 a pass
// failed (other passes still ran and the report lists the failure); 3 a
// finding or a report metric matched --fail-on (2 wins when both apply).
//
//===----------------------------------------------------------------------===//
#include "MpiJob.h"
#include "MpiWorld.h"
#include "Options.h"
#include "VerifyFindings.h"

#include "tl/Driver/Job.h"
#include "tl/Driver/JobReportValidator.h"
#include "tl/Driver/Session.h"
#include "tl/IR/Printer.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FailOn.h"
#include "tl/Report/ReportValidator.h"
#include "tl/Support/HeapTrim.h"
#include "tl/Support/OutOfMemory.h"
#include "tl/Support/OutputTransaction.h"
#include "tl/Support/TerminalText.h"
#include "tl/Support/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <optional>

using namespace llvm;
using namespace tl;

namespace {

/// --progress (or the config's progress: true) forces progress; otherwise
/// it shows on an interactive stderr unless TL_NO_PROGRESS=1. --quiet and
/// --no-progress turn it off.
bool showProgress(const SessionOptions &O) {
  if (O.Quiet)
    return false;
  if (O.ShowProgress)
    return *O.ShowProgress;
  if (const char *E = std::getenv("TL_NO_PROGRESS"); E && StringRef(E) == "1")
    return false;
  return errs().is_displayed();
}

int run(int argc, char **argv) {
  releaseOptionNames();
  Options O;
  cl::HideUnrelatedOptions(
      {&O.Input, &O.Pipeline, &O.Output, &O.Debug});
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "tl-opt " << TL_VERSION_STRING << " (" << TL_GIT_HASH << ")\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tl-opt: analyze GPU profiler traces (PyTorch profiler / Kineto JSON)\n\n"
      "  Imports each trace into the tl IR, runs the pass pipeline on a\n"
      "  thread pool and writes findings.json (and the other reports) into\n"
      "  the output directory. A directory of traces or several traces\n"
      "  are a job: one report per rank in <out>/rank<N>/ and the job's\n"
      "  per-rank table in <out>/analysis.md, <out>/multirank/ranks.csv.\n\n"
      "  Exit codes: 0 ok, 1 input/usage error, 2 a pass failed,\n"
      "  3 a finding or a report metric matched --fail-on.\n");

  // Every process of an MPI run takes the same decisions up to the job
  // (the same arguments and files); from there process 0 alone checks and
  // stages the output and reports errors.
  std::unique_ptr<MpiWorld> World;
  if (O.Mpi) {
    auto W = MpiWorld::init();
    if (!W)
      return fail(W.takeError());
    World = std::move(*W);
  }
  bool Leader = !World || World->rank() == 0;

  if (O.ValidateReport.getNumOccurrences()) {
    if (!sys::fs::is_directory(O.ValidateReport))
      return fail(O.ValidateReport + ": not a report directory");
    // A job's directory: its table and every rank's report.
    ValidationResult VR = isJobReportDir(O.ValidateReport)
                              ? validateJobReport(O.ValidateReport)
                              : validateReport(O.ValidateReport);
    VR.print(outs(), O.ValidateReport);
    return VR.ok() ? 0 : 1;
  }
  // A bad flag fails before the inputs are looked at (the session checks
  // the --fail-on it resolves again, which may come from the config).
  if (O.FailOn.getNumOccurrences())
    if (auto E = FailOnExpr::parse(O.FailOn); !E)
      return fail(E.takeError());
  // A directory or several traces make a job when a report is written
  // (docs/Distributed.md); the actions that write none (--print-ir,
  // --stop-after, --verify-findings) take trace files.
  bool Writes = !O.PrintIR.getNumOccurrences() &&
                !O.StopAfter.getNumOccurrences() &&
                !O.VerifyFindingsFile.getNumOccurrences();
  std::optional<JobInputs> Job;
  // Missing inputs are reported before anything else is loaded.
  if (Writes && isJob(O.Traces)) {
    Expected<JobInputs> J = collectJobInputs(O.Traces);
    if (!J)
      return fail(J.takeError());
    Job = std::move(*J);
  } else if (World) {
    return fail("--mpi analyses a job: give a directory of traces or "
                "several traces, and no --print-ir, --stop-after or "
                "--verify-findings");
  } else {
    for (const std::string &TracePath : O.Traces)
      if (Error E = checkTraceFile(TracePath))
        return fail(std::move(E));
  }

  Expected<SessionOptions> Opts = resolveOptions(O.Config, flagSettings(O));
  if (!Opts)
    return fail(Opts.takeError());
  StringRef StopAfter = O.StopAfter;
  if (O.StopAfter.getNumOccurrences() && StopAfter != "import" &&
      StopAfter != "analyses" && StopAfter != "passes")
    return fail("--stop-after must be 'import', 'analyses' or 'passes', got "
                "'" + StopAfter + "'");
  Opts->ToolPath = sys::fs::getMainExecutable(argv[0], (void *)&showProgress);
  Opts->ProgressInteractive = errs().is_displayed();
  // The progress line follows one trace; ranks analysed concurrently have
  // their "rank N (i/M)" lines instead.
  Opts->Progress = false;
  if (!World && (!Job || jobWorkers(*Opts, Job->Traces.size()) == 1))
    Opts->Progress = showProgress(*Opts);
  // --print-ir only imports (and verifies); it needs no passes and no
  // reference trace.
  bool PrintIR = O.PrintIR.getNumOccurrences();
  bool PrintOnly = PrintIR && !O.DumpPipeline;
  bool VerifyFindings = O.VerifyFindingsFile.getNumOccurrences();
  std::string Compare = Opts->Compare;
  if (PrintIR)
    Opts->VerifyIR = true;
  if (PrintOnly)
    Opts->Compare.clear();
  Opts->WaitForLock = O.WaitLock;
  std::string OutDir = Opts->OutDir;

  auto S = Session::create(std::move(*Opts));
  if (!S)
    return fail(S.takeError());
  if (O.ListPasses) {
    (*S)->registry().printListing(outs());
    return 0;
  }
  if (Error E = (*S)->preparePipeline(/*BuildPipeline=*/!PrintOnly))
    return fail(std::move(E));
  if (O.DumpPipeline) {
    outs() << (*S)->canonicalPipeline() << "\n";
    return 0;
  }

  if (O.Traces.empty())
    return fail("no trace given (usage: tl-opt [options] <trace.json>; see "
                "--help)");
  std::string JunitFile = (*S)->options().JunitFile,
              SarifFile = (*S)->options().SarifFile;
  if (Job) {
    // What names one file or one trace's run has no meaning per rank.
    if (!JunitFile.empty() || !SarifFile.empty())
      return fail("--junit and --sarif name one file; give one trace per "
                  "run when using them");
    if (!Compare.empty())
      return fail("--compare takes one trace to compare with the reference, "
                  "not a job");
    if (!(*S)->options().TimeTrace.empty())
      return fail("--time-trace records one trace's run; give one trace "
                  "per run when using it");
  }
  // Where the report goes is checked before anything is imported (by
  // process 0 of an MPI run; the others wait for its verdict).
  auto FailLeader = [&](Error E) {
    if (World)
      World->broadcast(std::string());
    return fail(std::move(E));
  };
  if (Writes && Leader) {
    std::string Dir = OutDir;
    if (Dir.empty())
      Dir = Job ? Job->DefaultOutDir : defaultOutputDir(O.Traces.front());
    if (Error E = checkOutputDir(Dir))
      return FailLeader(std::move(E));
    if (Error E = Job ? checkJobOutputDir(Dir) : checkSingleOutputDir(Dir))
      return FailLeader(std::move(E));
    for (const std::string &File : {JunitFile, SarifFile})
      if (!File.empty())
        if (Error E = checkOutputFile(File))
          return FailLeader(std::move(E));
    OutDir = Dir;
  }
  if (O.Traces.size() > 1 && VerifyFindings)
    return fail("--verify-findings takes one trace");
  if (!Compare.empty()) {
    if (O.Traces.size() != 1)
      return fail("--compare takes one trace to compare with the reference");
    if (Error E = checkTraceFile(Compare))
      return fail(std::move(E));
  }
  // The report is written into a staging directory and replaces the old
  // one as a whole at the end; the lock is taken now, so a second run into
  // the same directory fails before it imports anything.
  std::unique_ptr<OutputTransaction> Out;
  if (Writes && Leader) {
    OutputTransactionOptions TO;
    TO.WaitForLock = O.WaitLock;
    TO.CleanUpOnSignal = true;
    auto T = OutputTransaction::begin(OutDir, TO);
    if (!T)
      return FailLeader(T.takeError());
    Out = std::move(*T);
  }
  auto Commit = [&]() -> Error {
    if (!Out)
      return Error::success();
    Error E = Out->commit();
    for (const std::string &W : Out->warnings())
      WithColor::warning(errs(), "tl-opt") << terminalSafe(W) << "\n";
    return E;
  };
  if (World)
    return runMpiJob(**S, *Job, Out.get(), OutDir, *World);
  if (Error E = (*S)->begin())
    return fail(std::move(E));
  if (Job) {
    Expected<JobResult> R = runJob(**S, *Job, *Out, errs());
    if (!R)
      return fail(R.takeError());
    if (Error E = Commit())
      return fail(std::move(E));
    if (Error E = (*S)->finish())
      return fail(std::move(E));
    return R->FailedPasses ? 2 : R->FailOnTripped ? 3 : 0;
  }

  Stage Last = Stage::Report;
  if (PrintIR || StopAfter == "import")
    Last = Stage::Import;
  else if (StopAfter == "analyses")
    Last = Stage::Analyses;
  else if (StopAfter == "passes" || VerifyFindings)
    Last = Stage::Passes;
  int Exit = 0;
  for (const std::string &TracePath : O.Traces) {
    setOutOfMemoryContext(TracePath);
    Expected<std::unique_ptr<TraceRun>> R =
        (*S)->run(TracePath, Last, Out.get());
    if (!R)
      return fail(R.takeError());
    if (PrintIR) {
      if (O.PrintIR == "summary")
        printTraceSummary((*R)->trace(), outs());
      else if (O.PrintIR.empty())
        printTrace((*R)->trace(), outs());
      else
        return fail("--print-ir takes no value or 'summary', got '" +
                    O.PrintIR + "'");
      continue;
    }
    if (VerifyFindings) {
      std::string File = O.VerifyFindingsFile;
      if (File.empty())
        File = TracePath + ".expected";
      if (Error E = verifyFindings(File, (*R)->findings()))
        return fail(std::move(E));
    }
    if (!(*R)->failures().empty())
      Exit = 2;
    if ((*R)->failOnTripped() && Exit == 0)
      Exit = 3;
  }
  if (Error E = Commit())
    return fail(std::move(E));
  if (Error E = (*S)->finish())
    return fail(std::move(E));
  return Exit;
}

} // namespace

int main(int argc, char **argv) {
  tl::useOneMallocArena();
  InitLLVM X(argc, argv);
  // A file-size limit (ulimit -f) makes a write fail (EFBIG, one error
  // line, the old report kept) instead of killing the run.
  ::signal(SIGXFSZ, SIG_IGN);
  tl::exitOnOutOfMemory("tl-opt");
  return run(argc, argv);
}
