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
#include "MpiWorld.h"
#include "VerifyFindings.h"

#include "tl/Driver/Job.h"
#include "tl/Driver/JobReportValidator.h"
#include "tl/Driver/RankOutcomeCodec.h"
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

// Options live inside a struct constructed in main(): no static constructors.
struct Options {
  cl::OptionCategory Input{"Input"};
  cl::OptionCategory Pipeline{"Pipeline"};
  cl::OptionCategory Output{"Output"};
  cl::OptionCategory Debug{"Debugging and instrumentation"};

  cl::list<std::string> Traces{
      cl::Positional,
      cl::desc("<trace.json[.gz]>... | <job dir>"),
      cl::cat(Input)};
  cl::opt<uint64_t> MaxEvents{
      "max-events",
      cl::desc("Refuse traces with more complete events (0 = no limit)"),
      cl::init(100000000), cl::cat(Input)};
  cl::opt<uint64_t> MaxMemoryMB{
      "max-memory",
      cl::desc("Stop importing when the trace would need more than this many "
               "MB (approximate; default 3/4 of what the process may still "
               "allocate: physical memory, ulimit -v/-d and the cgroup's "
               "limit, whichever is least; 0 = no limit)"),
      cl::value_desc("MB"), cl::cat(Input)};
  cl::opt<std::string> Config{
      "config", cl::desc("YAML file with settings: pipeline, passes, output "
                         "and the other flags by name; flags win"),
      cl::value_desc("file"), cl::cat(Input)};
  cl::opt<std::string> Arch{
      "arch",
      cl::desc("GPU for roofline numbers: 'auto' (default: from the trace's "
               "deviceProperties), a shipped name (MI300X, H100, ...), a "
               ".yaml/.json arch file, or 'none'"),
      cl::value_desc("auto|name|file|none"), cl::init("auto"), cl::cat(Input)};
  cl::opt<bool> NoQualityGate{
      "no-quality-gate",
      cl::desc("Run every requested pass even when the trace lacks the data "
               "it needs (by default such passes are skipped and the report "
               "says why)"),
      cl::cat(Input)};
  cl::opt<bool> IncludeUnlinked{
      "include-unlinked",
      cl::desc("Keep GPU events that no CPU launch points at"),
      cl::cat(Input)};
  cl::opt<bool> IncludeCallStack{
      "include-call-stack",
      cl::desc("Add entry_point and call_stack_full columns to "
               "unified_perf_summary.csv (as the reference's agent flavour)"),
      cl::cat(Output)};
  cl::opt<bool> AnnotatedTrace{
      "annotated-trace",
      cl::desc("Also write trace_annotated.json.gz: the input trace for "
               "Perfetto / chrome://tracing with the findings as instant "
               "events and GPU busy, exposed communication and queue depth "
               "counters (copies the whole trace: takes time on large ones)"),
      cl::cat(Output)};
  cl::opt<bool> GroupByNumKernels{
      "group-by-num-kernels",
      cl::desc("Key ops_unique_args and the perf sheets by kernel count too "
               "(TraceLens --group_by_num_kernels)"),
      cl::cat(Input)};
  cl::opt<bool> DetectRecompute{
      "detect-recompute",
      cl::desc("Split the perf tables into recompute / non-recompute rows "
               "(activation checkpointing)"),
      cl::cat(Input)};
  cl::opt<std::string> Compare{
      "compare",
      cl::desc("Comparative mode: match ops against this reference trace "
               "(TraceLens trace 2) and write diff.md and "
               "perf_report_csvs/diff_stats.csv; see docs/Comparative.md"),
      cl::value_desc("reference trace"), cl::cat(Input)};
  cl::opt<std::string> CaptureFolder{
      "capture-folder",
      cl::desc("Merge the graph-capture traces of DIR (with its "
               "execution_details.json) into the GPU-graph replays, so "
               "replayed kernels get their ops, shapes, call stacks and "
               "modules (default: the trace's sibling capture_traces/ when "
               "it exists; 'none' = never); see docs/Inference.md"),
      cl::value_desc("DIR|none"), cl::cat(Input)};

  cl::opt<std::string> Steps{
      "steps",
      cl::desc("ProfilerSteps to analyse: 'all' (default: the whole trace), "
               "'steady' (the steady-state rule: without warm-up, outlier "
               "and truncated steps), 'hta' (all but the last), N, A..B "
               "(ProfilerStep numbers, inclusive), first:N or last:N; every "
               "table and pass then sees only that window"),
      cl::value_desc("spec"), cl::cat(Input)};

  cl::opt<std::string> Mode{
      "mode",
      cl::desc("Report layout: 'training' (TraceLens's perf report), "
               "'inference' (its inference report: ops tables by parent "
               "module with call stacks, <family>_fwd sheets) or 'auto' "
               "(default: inference when the trace has no backward and a "
               "serving runner's iteration annotations or merged graph "
               "captures); see docs/Inference.md"),
      cl::value_desc("auto|training|inference"), cl::cat(Input)};

  cl::opt<std::string> Align{
      "align",
      cl::desc("A job's clocks across nodes: 'none' (default: skews on the "
               "raw clocks) or 'collective' (subtract each node's clock "
               "offset against node 0, estimated from the ends of the "
               "collectives they share, before measuring skews); the "
               "offsets are in multirank/ranks.csv either way"),
      cl::value_desc("none|collective"), cl::cat(Input)};

  cl::opt<std::string> PassPipelineText{
      "pass-pipeline",
      cl::desc("Passes to run, e.g. 'system,compute' or "
               "'compute,my-pass{min-pct=3}' (default: system,compute; "
               "'none' runs no pass, only the report)"),
      cl::value_desc("pipeline"), cl::cat(Pipeline)};
  cl::list<std::string> Plugins{
      "load-pass-plugin", cl::desc("Load passes from a plugin (repeatable)"),
      cl::value_desc("lib.so"), cl::cat(Pipeline)};
  cl::opt<bool> NoBuiltin{
      "no-builtin-passes",
      cl::desc("Do not load the built-in passes from <tool>/../lib/tl/passes"),
      cl::cat(Pipeline)};
  cl::opt<unsigned> PassTimeout{
      "pass-timeout",
      cl::desc("Seconds each pass of a --load-pass-plugin plugin may run "
               "(in a child process) before it is killed and failed "
               "(0 = no limit)"),
      cl::init(600), cl::value_desc("seconds"), cl::cat(Pipeline)};
  cl::opt<unsigned> Threads{
      "threads", cl::desc("Worker threads for passes (0 = all cores, 1 = "
                          "serial); output is identical for every value"),
      cl::init(0), cl::cat(Pipeline)};
  cl::opt<bool> Mpi{
      "mpi",
      cl::desc("Under mpirun/srun: spread a job's traces over the MPI "
               "processes; process 0 writes the job report (the same as "
               "without --mpi). --threads is per process"),
      cl::cat(Pipeline)};
  cl::opt<bool> ListPasses{
      "list-passes",
      cl::desc("List passes, their options and the named pipelines, then exit"),
      cl::cat(Pipeline)};
  cl::opt<bool> DumpPipeline{
      "dump-pass-pipeline",
      cl::desc("Print the expanded pipeline with every option value, then "
               "exit"),
      cl::cat(Pipeline)};

  cl::opt<std::string> OutDir{
      "o", cl::desc("Output directory (default: <trace dir>/analysis_output; "
                    "a job: each rank's report in <dir>/rank<N>/, the job "
                    "report in <dir>)"),
      cl::value_desc("dir"), cl::cat(Output)};
  cl::opt<bool> Quiet{"quiet", cl::desc("No progress or summary on stderr"),
                      cl::cat(Output)};
  cl::opt<bool> WaitLock{
      "wait-lock",
      cl::desc("When another tl-opt run is writing the same output "
               "directory, wait for it to finish instead of failing at once"),
      cl::cat(Output)};
  cl::opt<bool> Progress{
      "progress",
      cl::desc("Show progress on stderr even when it is not a terminal (one "
               "line per phase and per 10 % of the import; default: only on "
               "a terminal)"),
      cl::cat(Output)};
  cl::opt<bool> NoProgress{"no-progress",
                           cl::desc("No progress on stderr (config: "
                                    "progress: false)"),
                           cl::cat(Output)};
  cl::opt<std::string> Junit{
      "junit",
      cl::desc("Also write a JUnit XML file: a testcase per --fail-on clause "
               "and per finding, failures for what --fail-on matched"),
      cl::value_desc("file"), cl::cat(Output)};
  cl::opt<std::string> Sarif{
      "sarif",
      cl::desc("Also write a SARIF 2.1.0 file: a result per finding (rule = "
               "pass, level from severity, location = the trace)"),
      cl::value_desc("file"), cl::cat(Output)};
  cl::opt<std::string> FailOn{
      "fail-on",
      cl::desc("Exit 3 when a ranked finding matches, e.g. 'impact>=5', "
               "'tier=system', 'P1', 'tier=compute&impact>2' (',' = or), or "
               "a report metric does, e.g. 'idle_pct>20', 'step_ms>120' "
               "(e2e_ms, compute_pct, exposed_comm_pct, exposed_memcpy_pct, "
               "idle_pct, step_ms, steps, findings); see "
               "docs/ReportFormat.md"),
      cl::value_desc("expr"), cl::cat(Output)};
  cl::opt<std::string> ValidateReport{
      "validate-report",
      cl::desc("Check the report in DIR against the reference's level 1-3 "
               "rules and tl's own (names render verbatim under cmark-gfm, "
               "share columns add up) and exit (0 valid, 1 errors)"),
      cl::value_desc("dir"), cl::cat(Output)};

  cl::opt<std::string> PrintIR{
      "print-ir", cl::desc("Print the imported IR to stdout and exit "
                           "(=summary for counts only)"),
      cl::ValueOptional, cl::value_desc("summary"), cl::cat(Debug)};
  cl::opt<std::string> StopAfter{
      "stop-after",
      cl::desc("Stop after a stage, writing no report (for benchmarks): "
               "'import' (parse and link), 'analyses' (also compute the "
               "quality gate and every analysis the built-in passes of the "
               "pipeline and the reports use), 'passes' (also run the "
               "passes)"),
      cl::value_desc("import|analyses|passes"), cl::cat(Debug)};
  cl::opt<bool> VerifyIR{"verify-ir",
                         cl::desc("Check IR invariants after import"),
                         cl::cat(Debug)};
  cl::opt<std::string> VerifyFindingsFile{
      "verify-findings",
      cl::desc("Check findings against '# expected-finding <tier> <pass> "
               "{{regex}}' lines in FILE (default <trace>.expected); no "
               "report is written"),
      cl::ValueOptional, cl::value_desc("file"), cl::cat(Debug)};
  cl::opt<bool> Timing{"timing",
                       cl::desc("Print wall and CPU time per pass and "
                                "analysis to stderr"),
                       cl::cat(Debug)};
  cl::opt<std::string> TimingFormat{
      "timing-format", cl::desc("--timing output: text or json"),
      cl::init("text"), cl::value_desc("text|json"), cl::cat(Debug)};
  cl::opt<bool> PassStatistics{
      "pass-statistics", cl::desc("Print each pass's counters to stderr"),
      cl::cat(Debug)};
  cl::opt<std::string> TimeTrace{
      "time-trace",
      cl::desc("Write a Chrome trace of tl-opt's own run to FILE"),
      cl::value_desc("file"), cl::cat(Debug)};
};

[[nodiscard]] int fail(const Twine &Msg) {
  // Errors can quote the trace (a step name, a key): shown, never sent.
  errs() << "tl-opt: error: " << terminalSafe(Msg.str()) << "\n";
  return 1;
}

[[nodiscard]] int fail(Error E) { return fail(toString(std::move(E))); }

/// The settings the command line gives (what it leaves unset, the config
/// file or the defaults decide).
SessionSettings flagSettings(const Options &O) {
  SessionSettings F;
  auto Set = [](auto &Slot, const auto &Opt) {
    if (Opt.getNumOccurrences())
      Slot = Opt.getValue();
  };
  Set(F.Pipeline, O.PassPipelineText);
  Set(F.Arch, O.Arch);
  Set(F.OutDir, O.OutDir);
  Set(F.Threads, O.Threads);
  Set(F.IncludeUnlinked, O.IncludeUnlinked);
  Set(F.MaxEvents, O.MaxEvents);
  Set(F.MaxMemoryMB, O.MaxMemoryMB);
  Set(F.NoQualityGate, O.NoQualityGate);
  Set(F.GroupByNumKernels, O.GroupByNumKernels);
  Set(F.DetectRecompute, O.DetectRecompute);
  Set(F.Compare, O.Compare);
  Set(F.CaptureFolder, O.CaptureFolder);
  Set(F.Steps, O.Steps);
  Set(F.Mode, O.Mode);
  Set(F.Align, O.Align);
  Set(F.VerifyIR, O.VerifyIR);
  if (O.Plugins.getNumOccurrences())
    F.Plugins = SettingList(O.Plugins.begin(), O.Plugins.end());
  Set(F.NoBuiltinPasses, O.NoBuiltin);
  Set(F.PassTimeout, O.PassTimeout);
  Set(F.IncludeCallStack, O.IncludeCallStack);
  Set(F.AnnotatedTrace, O.AnnotatedTrace);
  Set(F.Quiet, O.Quiet);
  Set(F.FailOn, O.FailOn);
  Set(F.JunitFile, O.Junit);
  Set(F.SarifFile, O.Sarif);
  Set(F.ShowProgress, O.Progress);
  // --no-progress wins over --progress.
  if (O.NoProgress.getNumOccurrences() && O.NoProgress)
    F.ShowProgress = false;
  Set(F.Timing, O.Timing);
  Set(F.TimingFormat, O.TimingFormat);
  Set(F.PassStatistics, O.PassStatistics);
  Set(F.TimeTrace, O.TimeTrace);
  return F;
}

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

/// libLLVM registers some options of its own under names tl-opt uses
/// (e.g. `threads`); drop those so ours can be registered.
void releaseOptionNames() {
  static const char *const Names[] = {
      "config", "arch", "include-unlinked", "pass-pipeline",
      "load-pass-plugin", "no-builtin-passes", "threads", "list-passes",
      "dump-pass-pipeline", "o", "quiet", "wait-lock", "progress",
      "no-progress", "junit",
      "sarif", "fail-on", "validate-report",
      "print-ir", "stop-after", "verify-ir",
      "verify-findings", "timing", "timing-format", "pass-statistics",
      "time-trace"};
  StringMap<cl::Option *> &Map = cl::getRegisteredOptions();
  for (const char *N : Names)
    if (cl::Option *Existing = Map.lookup(N))
      Existing->removeArgument();
}

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
