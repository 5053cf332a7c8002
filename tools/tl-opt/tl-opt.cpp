//===- tl-opt.cpp - The tl driver ------------------------------------------===//
//
// trace -> import -> (verify / print IR) -> passes (thread pool) -> findings
// -> emitters into the output directory.
//
// Exit codes: 0 ok; 1 input or usage error (nothing analyzed, or
// --verify-findings mismatch, or --validate-report found errors); 2 a pass
// failed (other passes still ran and the report lists the failure); 3 a
// finding matched --fail-on (2 wins when both apply).
//
//===----------------------------------------------------------------------===//
#include "DriverConfig.h"
#include "VerifyFindings.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/ArchSpec.h"
#include "tl/Analysis/CollectiveSummary.h"
#include "tl/Analysis/Compute/CategoryAnalyzer.h"
#include "tl/Analysis/FusionCandidates.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/KernelSummary.h"
#include "tl/Analysis/LaunchStats.h"
#include "tl/Analysis/MultiKernelData.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Analysis/PerfSheets.h"
#include "tl/Analysis/Recompute.h"
#include "tl/Analysis/ShortKernels.h"
#include "tl/Analysis/TraceFileHash.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/IR/Printer.h"
#include "tl/IR/Trace.h"
#include "tl/IR/Verifier.h"
#include "tl/Import/Importer.h"
#include "tl/Pass/PassManager.h"
#include "tl/Pass/PassPipeline.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/CompareEmitters.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/FailOn.h"
#include "tl/Report/ReportModel.h"
#include "tl/Report/ReportValidator.h"
#include "tl/Support/HeapTrim.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/ThreadCount.h"
#include "tl/Support/ThreadTiming.h"
#include "tl/Support/Version.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <future>
#include <optional>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace tl;

namespace {

// Options live inside a struct constructed in main(): no static constructors.
struct Options {
  cl::OptionCategory Input{"Input"};
  cl::OptionCategory Pipeline{"Pipeline"};
  cl::OptionCategory Output{"Output"};
  cl::OptionCategory Debug{"Debugging and instrumentation"};

  cl::list<std::string> Traces{cl::Positional, cl::desc("<trace.json[.gz]>..."),
                               cl::cat(Input)};
  cl::opt<uint64_t> MaxEvents{
      "max-events",
      cl::desc("Refuse traces with more complete events (0 = no limit)"),
      cl::init(100000000), cl::cat(Input)};
  cl::opt<uint64_t> MaxMemoryMB{
      "max-memory",
      cl::desc("Stop importing when the trace would need more than this many "
               "MB (approximate; default 3/4 of physical memory, 0 = no "
               "limit)"),
      cl::value_desc("MB"), cl::cat(Input)};
  cl::opt<std::string> Config{
      "config", cl::desc("YAML file with settings (pipeline, passes, arch, "
                         "output, threads, include-unlinked); flags win"),
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

  cl::opt<std::string> PassPipelineText{
      "pass-pipeline",
      cl::desc("Passes to run, e.g. 'system,compute' or "
               "'kernel-fusion{min-impact-pct=3},multi-kernel{overlap-target=0.6}' (default: system,compute; "
               "'none' runs no pass, only the report)"),
      cl::value_desc("pipeline"), cl::cat(Pipeline)};
  cl::list<std::string> Plugins{
      "load-pass-plugin", cl::desc("Load passes from a plugin (repeatable)"),
      cl::value_desc("lib.so"), cl::cat(Pipeline)};
  cl::opt<bool> NoBuiltin{
      "no-builtin-passes",
      cl::desc("Do not load the built-in passes from <tool>/../lib/tl/passes"),
      cl::cat(Pipeline)};
  cl::opt<unsigned> Threads{
      "threads", cl::desc("Worker threads for passes (0 = all cores, 1 = "
                          "serial); output is identical for every value"),
      cl::init(0), cl::cat(Pipeline)};
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
      "o", cl::desc("Output directory (default: <trace dir>/analysis_output)"),
      cl::value_desc("dir"), cl::cat(Output)};
  cl::opt<bool> Quiet{"quiet", cl::desc("No progress or summary on stderr"),
                      cl::cat(Output)};
  cl::opt<std::string> FailOn{
      "fail-on",
      cl::desc("Exit 3 when a ranked finding matches, e.g. 'impact>=5', "
               "'tier=system', 'P1', 'tier=compute&impact>2' (',' = or); "
               "see docs/ReportFormat.md"),
      cl::value_desc("expr"), cl::cat(Output)};
  cl::opt<std::string> ValidateReport{
      "validate-report",
      cl::desc("Check the report in DIR against the reference's level 1-3 "
               "rules and exit (0 valid, 1 errors)"),
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
  errs() << "tl-opt: error: " << Msg << "\n";
  return 1;
}

std::string toolVersion() {
  return std::string("tl-opt ") + TL_VERSION_STRING + " (" + TL_GIT_HASH +
         ")";
}

/// Default --max-memory: 3/4 of physical memory (0 = unknown, no limit).
uint64_t defaultMaxMemory() {
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (Pages <= 0 || PageSize <= 0)
    return 0;
  return uint64_t(Pages) * uint64_t(PageSize) / 4 * 3;
}

/// Progress on an interactive stderr only.
bool showProgress(const Options &O) {
  if (O.Quiet)
    return false;
  if (const char *E = std::getenv("TL_NO_PROGRESS"); E && StringRef(E) == "1")
    return false;
  return errs().is_displayed();
}

/// Jobs computing what the built-in passes in Passes and the report
/// emitters would ask the AnalysisManager for (each analysis pulls its own
/// dependencies). Long dependency chains come first, analyses that wait for
/// another one last, so a pool running them in order rarely blocks.
std::vector<std::function<void()>>
analysisJobs(AnalysisManager &AMRef, ArrayRef<std::string> Passes) {
  AnalysisManager *AM = &AMRef;
  std::vector<std::function<void()>> Jobs;
  auto Need = [&](auto Get) { Jobs.push_back(Get); };
  auto Has = [&](StringRef N) { return llvm::is_contained(Passes, N); };
  // Reports (analysis.md, perf_report_csvs, findings.json). The unified
  // table is the longest job and its temporaries peak near its end; the
  // perf sheets run next to it. Analyses only passes need (launch stats,
  // multi-kernel data) come last, so that their results and temporaries
  // are not yet alive at that peak.
  Need([AM] { AM->get<UnifiedPerfTable>(); });
  Need([AM] { AM->get<GpuTimeline>(); });
  Need([AM] { AM->get<PerfSheets>(); });
  // Fusion candidates start next: their module pass needs no other
  // analysis, and the compute passes wait for them.
  if (Has("kernel-fusion"))
    Need([AM] { AM->get<FusionCandidates>(); });
  Need([AM] { AM->get<WorkloadInfo>(); });
  Need([AM] { AM->get<CollectiveSummary>(); });
  Need([AM] { AM->get<RecomputeMarks>(); });
  Need([AM] { AM->get<OpTable>(); });
  Need([AM] { AM->get<KernelSummary>(); });
  Need([AM] { AM->get<ShortKernels>(); });
  // findings.json's file hash: reading the whole file, off the report's
  // serial path.
  Need([AM] { AM->get<TraceFileHash>(); });
  if (Has("cpu-idle"))
    Need([AM] { AM->get<LaunchStats>(); });
  if (Has("multi-kernel"))
    Need([AM] { AM->get<MultiKernelData>(); });
  if (Has("compare"))
    Need([AM] { AM->get<TraceDiff>(); });
  for (StringRef C : {"gemm", "sdpa", "elementwise", "norm", "reduce", "conv",
                      "moe", "triton", "other"})
    if (Has(C)) {
      Need([AM] { AM->get<compute::ComputeInput>(); });
      break;
    }
  return Jobs;
}

/// One analysis computed on a thread of its own, joined on destruction (so
/// every early return of run() waits for it before the trace goes away).
class EarlyAnalysis {
public:
  EarlyAnalysis() = default;
  EarlyAnalysis(const EarlyAnalysis &) = delete;
  EarlyAnalysis &operator=(const EarlyAnalysis &) = delete;
  ~EarlyAnalysis() {
    if (Worker.joinable())
      Worker.join();
  }
  void start(std::function<void()> Job, bool TimeTrace) {
    Worker = std::thread([Job = std::move(Job), TimeTrace] {
      TimeTraceThreadScope TTS(TimeTrace);
      Job();
    });
  }

private:
  std::thread Worker;
};

/// --stop-after=analyses: run analysisJobs on up to Threads threads.
void computeAnalyses(AnalysisManager &AM, ArrayRef<std::string> Passes,
                     unsigned Threads) {
  std::vector<std::function<void()>> Jobs = analysisJobs(AM, Passes);
  Threads = effectiveThreads(Threads);
  if (Threads <= 1) {
    for (auto &J : Jobs)
      J();
    return;
  }
  DefaultThreadPool Pool(hardware_concurrency(Threads));
  for (auto &J : Jobs)
    Pool.async(J);
  Pool.wait();
}

std::string dataDir(StringRef Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0.data(), nullptr);
  SmallString<256> D(sys::path::parent_path(Exe));
  sys::path::append(D, "..", "share", "tl");
  return std::string(D);
}

/// libLLVM registers some options of its own under names tl-opt uses
/// (e.g. `threads`); drop those so ours can be registered.
void releaseOptionNames() {
  static const char *const Names[] = {
      "config", "arch", "include-unlinked", "pass-pipeline",
      "load-pass-plugin", "no-builtin-passes", "threads", "list-passes",
      "dump-pass-pipeline", "o", "quiet", "fail-on", "validate-report",
      "print-ir", "stop-after", "verify-ir",
      "verify-findings", "timing", "timing-format", "pass-statistics",
      "time-trace"};
  StringMap<cl::Option *> &Map = cl::getRegisteredOptions();
  for (const char *N : Names)
    if (cl::Option *Existing = Map.lookup(N))
      Existing->removeArgument();
}

int run(int argc, char **argv) {
  releaseOptionNames();
  Options O;
  cl::HideUnrelatedOptions(
      {&O.Input, &O.Pipeline, &O.Output, &O.Debug});
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << toolVersion() << "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tl-opt: analyze GPU profiler traces (PyTorch profiler / Kineto JSON)\n\n"
      "  Imports each trace into the tl IR, runs the pass pipeline on a\n"
      "  thread pool and writes findings.json (and the other reports) into\n"
      "  the output directory.\n\n"
      "  Exit codes: 0 ok, 1 input/usage error, 2 a pass failed,\n"
      "  3 a finding matched --fail-on.\n");

  if (O.ValidateReport.getNumOccurrences()) {
    if (!sys::fs::is_directory(O.ValidateReport))
      return fail(O.ValidateReport + ": not a report directory");
    ValidationResult VR = validateReport(O.ValidateReport);
    VR.print(outs(), O.ValidateReport);
    return VR.ok() ? 0 : 1;
  }
  std::optional<FailOnExpr> FailOn;
  if (O.FailOn.getNumOccurrences()) {
    auto E = FailOnExpr::parse(O.FailOn);
    if (!E)
      return fail(toString(E.takeError()));
    FailOn = std::move(*E);
  }

  // Missing inputs are reported before anything else is loaded.
  for (const std::string &TracePath : O.Traces) {
    if (!sys::fs::exists(TracePath))
      return fail(TracePath + ": no such file");
    if (sys::fs::is_directory(TracePath))
      return fail(TracePath + ": is a directory, not a trace file");
  }

  // Config file first; command-line flags override what they set.
  DriverConfig Cfg;
  if (!O.Config.empty()) {
    auto C = loadDriverConfig(O.Config);
    if (!C)
      return fail(toString(C.takeError()));
    Cfg = std::move(*C);
  }
  std::string PipelineText = "system,compute";
  if (Cfg.Pipeline)
    PipelineText = *Cfg.Pipeline;
  if (O.PassPipelineText.getNumOccurrences())
    PipelineText = O.PassPipelineText;
  unsigned Threads = O.Threads;
  if (Cfg.Threads && !O.Threads.getNumOccurrences())
    Threads = *Cfg.Threads;
  bool IncludeUnlinked = O.IncludeUnlinked;
  if (Cfg.IncludeUnlinked && !O.IncludeUnlinked.getNumOccurrences())
    IncludeUnlinked = *Cfg.IncludeUnlinked;
  std::string ArchName = O.Arch;
  if (Cfg.Arch && !O.Arch.getNumOccurrences())
    ArchName = *Cfg.Arch;
  std::string OutDir = O.OutDir;
  if (Cfg.Output && !O.OutDir.getNumOccurrences())
    OutDir = *Cfg.Output;
  StringRef StopAfter = O.StopAfter;
  if (O.StopAfter.getNumOccurrences() && StopAfter != "import" &&
      StopAfter != "analyses" && StopAfter != "passes")
    return fail("--stop-after must be 'import', 'analyses' or 'passes', got "
                "'" + StopAfter + "'");
  if (O.TimingFormat != "text" && O.TimingFormat != "json")
    return fail("--timing-format must be 'text' or 'json', got '" +
                O.TimingFormat + "'");

  // Passes: built-in plugins (sorted), then --load-pass-plugin in order.
  PassRegistry Registry;
  registerBuiltinPipelines(Registry);
  std::vector<std::string> PluginPaths;
  if (!O.NoBuiltin) {
    std::string Exe = sys::fs::getMainExecutable(argv[0], (void *)&fail);
    PluginPaths = findBuiltinPlugins(Exe);
  }
  for (const std::string &P : O.Plugins)
    PluginPaths.push_back(P);
  for (const std::string &Path : PluginPaths) {
    auto Plugin = PassPlugin::load(Path);
    if (!Plugin)
      return fail(toString(Plugin.takeError()));
    if (Error E = Plugin->registerPasses(Registry))
      return fail(toString(std::move(E)));
  }

  if (O.ListPasses) {
    Registry.printListing(outs());
    return 0;
  }

  // --compare adds the compare pass (regressions against the reference) to
  // any pipeline that runs passes.
  if (!O.Compare.empty() && StringRef(PipelineText).trim() != "none" &&
      !StringRef(PipelineText).contains("compare") &&
      Registry.createPass("compare"))
    PipelineText += ",compare";

  // Config options must name registered passes and options, even when the
  // pass is not in this pipeline (a typo would otherwise pass silently).
  for (const auto &[PassName, Opts] : Cfg.PassOptions) {
    std::unique_ptr<Pass> P = Registry.createPass(PassName);
    if (!P) {
      std::string Msg = O.Config + ": unknown pass '" + PassName + "'";
      std::string Close = Registry.closestName(PassName);
      if (!Close.empty())
        Msg += "; did you mean '" + Close + "'?";
      return fail(Msg);
    }
    for (const auto &[K, V] : Opts)
      if (Error E = P->setOption(K, V))
        return fail(O.Config + ": " + toString(std::move(E)));
  }

  // 'none': no passes, only the emitters (report tables).
  auto makePipeline = [&]() -> Expected<PassPipeline> {
    if (StringRef(PipelineText).trim() == "none")
      return PassPipeline();
    return buildPipeline(Registry, PipelineText, &Cfg.PassOptions);
  };

  // --print-ir only imports; it needs no passes.
  bool PrintOnly = O.PrintIR.getNumOccurrences() && !O.DumpPipeline;
  std::string CanonicalPipeline;
  if (!PrintOnly) {
    auto Pipeline = makePipeline();
    if (!Pipeline)
      return fail(toString(Pipeline.takeError()));
    CanonicalPipeline = Pipeline->str();
  }
  if (O.DumpPipeline) {
    outs() << CanonicalPipeline << "\n";
    return 0;
  }

  if (O.Traces.empty())
    return fail("no trace given (usage: tl-opt [options] <trace.json>; see "
                "--help)");
  if (O.Traces.size() > 1 && !OutDir.empty())
    return fail("-o names one directory; give one trace per run when using "
                "-o");
  if (O.Traces.size() > 1 && O.VerifyFindingsFile.getNumOccurrences())
    return fail("--verify-findings takes one trace");
  if (!O.Compare.empty()) {
    if (O.Traces.size() != 1)
      return fail("--compare takes one trace to compare with the reference");
    if (!sys::fs::exists(O.Compare))
      return fail(O.Compare + ": no such file");
    if (sys::fs::is_directory(O.Compare))
      return fail(O.Compare + ": is a directory, not a trace file");
  }

  AnalysisOptions AOpts;
  AOpts.IncludeUnlinked = IncludeUnlinked;
  AOpts.DetectRecompute = O.DetectRecompute;
  AOpts.GroupByNumKernels = O.GroupByNumKernels;
  AOpts.IncludeCallStack = O.IncludeCallStack;
  // A fixed arch is resolved once, before any import, so a typo fails fast;
  // 'auto' is resolved per trace from its deviceProperties.
  std::string DataDir = dataDir(argv[0]);
  bool AutoArch = ArchName.empty() || StringRef(ArchName).equals_insensitive("auto");
  bool NoArch = StringRef(ArchName).equals_insensitive("none");
  if (!AutoArch && !NoArch) {
    auto A = resolveArchSpec(ArchName, DataDir);
    if (!A)
      return fail(toString(A.takeError()));
    AOpts.Arch = std::move(*A);
  }

  bool Progress = showProgress(O);
  if (!O.TimeTrace.empty())
    timeTraceProfilerInitialize(/*TimeTraceGranularity=*/0, "tl-opt");

  // --compare: the reference imports on its own thread while the analyzed
  // trace imports; it gets its own AnalysisManager (same options).
  struct RefImport {
    std::optional<Trace> T;
    std::string Error;
  };
  std::future<RefImport> RefFuture;
  std::optional<Trace> RefTrace;
  std::unique_ptr<AnalysisManager> RefAM;
  if (!O.Compare.empty() && !O.PrintIR.getNumOccurrences()) {
    ImportOptions RefOpts;
    RefOpts.MaxEvents = O.MaxEvents;
    RefOpts.MaxMemory = O.MaxMemoryMB.getNumOccurrences()
                            ? O.MaxMemoryMB * (uint64_t(1) << 20)
                            : defaultMaxMemory();
    RefFuture = std::async(std::launch::async, [Path = O.Compare.getValue(),
                                                RefOpts]() {
      TimeTraceScope Scope("import", Path);
      RefImport Out;
      Expected<Trace> R = importTrace(Path, RefOpts);
      if (R)
        Out.T.emplace(std::move(*R));
      else
        Out.Error = toString(R.takeError());
      return Out;
    });
  }

  int Exit = 0;
  std::vector<PassPipeline> Pipelines;
  for (const std::string &TracePath : O.Traces) {

    if (Progress)
      errs() << "tl-opt: importing " << TracePath << "...\r";
    ImportOptions IOpts;
    IOpts.Threads = Threads;
    IOpts.MaxEvents = O.MaxEvents;
    IOpts.MaxMemory = O.MaxMemoryMB.getNumOccurrences()
                          ? O.MaxMemoryMB * (uint64_t(1) << 20)
                          : defaultMaxMemory();
    if (Progress)
      IOpts.Progress = [&](uint64_t Bytes) {
        errs() << "tl-opt: importing " << TracePath << ": "
               << Bytes / (1024 * 1024) << " MiB read\x1b[K\r";
      };
    Expected<Trace> T = [&] {
      TimeTraceScope Scope("import", TracePath);
      return importTrace(TracePath, IOpts);
    }();
    if (!T)
      return fail(toString(T.takeError()));
    // The importer's parse buffers are freed by now; their pages would
    // otherwise stay in the process under the analyses' growth.
    if (heapTrimPays(T->size()))
      releaseFreeHeapPages();
    if (RefFuture.valid()) {
      RefImport R = RefFuture.get();
      if (!R.T)
        return fail(R.Error);
      RefTrace = std::move(R.T);
      RefAM = std::make_unique<AnalysisManager>(*RefTrace, AOpts);
      AOpts.Reference = &*RefTrace;
      AOpts.ReferenceAM = RefAM.get();
    }
    if (O.VerifyIR || O.PrintIR.getNumOccurrences()) {
      if (Error E = verifyTrace(*T))
        return fail(TracePath + ": IR verification failed: " +
                    toString(std::move(E)));
    }
    if (O.PrintIR.getNumOccurrences()) {
      if (O.PrintIR == "summary")
        printTraceSummary(*T, outs());
      else if (O.PrintIR.empty())
        printTrace(*T, outs());
      else
        return fail("--print-ir takes no value or 'summary', got '" +
                    O.PrintIR + "'");
      continue;
    }
    if (StopAfter == "import")
      continue;

    // A fresh set of pass instances for every trace.
    auto P = makePipeline();
    if (!P)
      return fail(toString(P.takeError()));
    AnalysisOptions TraceOpts = AOpts;
    if (AutoArch) {
      std::string Note;
      Expected<std::optional<ArchSpec>> A = autoArchSpec(*T, DataDir, Note);
      if (!A)
        return fail(toString(A.takeError()));
      TraceOpts.Arch = std::move(*A);
      if (!TraceOpts.Arch)
        WithColor::warning(errs(), "tl-opt") << TracePath << ": " << Note
                                             << "\n";
      else if (!O.Quiet)
        WithColor::note(errs(), "tl-opt") << TracePath << ": " << Note << "\n";
    }
    AnalysisManager AM(*T, TraceOpts);
    // Every report needs the unified perf table, the longest analysis:
    // with a second thread it starts now instead of after the serial
    // quality gate (a later get() waits for it instead of recomputing).
    EarlyAnalysis Early;
    if (effectiveThreads(Threads) > 1 && StopAfter != "passes" &&
        !O.VerifyFindingsFile.getNumOccurrences())
      Early.start([&AM] { AM.get<UnifiedPerfTable>(); },
                  !O.TimeTrace.empty());
    // The quality gate narrows the pipeline to what the trace supports.
    std::optional<PipelineChoice> Gate;
    if (!O.NoQualityGate && P->size()) {
      std::vector<std::string> Requested;
      for (const std::unique_ptr<Pass> &Pass : P->passes())
        Requested.push_back(Pass->getArgument().str());
      Gate = choosePipeline(Requested, AM.get<TraceQuality>());
      StringSet<> Keep;
      for (const std::string &N : Gate->Run)
        Keep.insert(N);
      P->removeIf([&](const Pass &Pass) {
        return !Keep.contains(Pass.getArgument());
      });
      if (!O.Quiet && Gate->Fallback)
        for (const std::string &N : Gate->Notes)
          WithColor::warning(errs(), "tl-opt") << TracePath << ": " << N
                                               << "\n";
    }
    if (StopAfter == "analyses") {
      std::vector<std::string> Names;
      for (const std::unique_ptr<Pass> &Pass : P->passes())
        Names.push_back(Pass->getArgument().str());
      computeAnalyses(AM, Names, Threads);
      if (O.Timing)
        printTiming(errs(), {}, AM, 0, O.TimingFormat == "json");
      continue;
    }
    std::vector<std::string> PassNames;
    for (const std::unique_ptr<Pass> &Pass : P->passes())
      PassNames.push_back(Pass->getArgument().str());
    PassManager PM(std::move(*P));
    PassManagerOptions PMOpts;
    PMOpts.Threads = Threads;
    bool Emits = StopAfter != "passes" &&
                 !O.VerifyFindingsFile.getNumOccurrences();
    std::string Dir = OutDir;
    if (Dir.empty()) {
      SmallString<256> D(sys::path::parent_path(TracePath));
      sys::path::append(D, "analysis_output");
      Dir = std::string(D);
    }
    EmitterRegistry Emitters;
    registerBuiltinEmitters(Emitters);
    if (AOpts.Reference) {
      Emitters.add(createDiffStatsEmitter());
      Emitters.add(createDiffMarkdownEmitter());
      Emitters.add(createTrace2MetadataEmitter());
    }
    // With several threads, the analyses the passes and the report need
    // are computed concurrently, ahead of the passes, and so are the
    // reports that need no pass results (the perf CSVs): they fill the
    // time the passes wait for their last analyses.
    ReportContext EarlyCtx{*T,
                           AM,
                           /*Findings=*/{},
                           /*Failed=*/{},
                           /*Runs=*/{},
                           CanonicalPipeline,
                           Dir,
                           toolVersion(),
                           TracePath,
                           /*Artifacts=*/{},
                           Gate ? &*Gate : nullptr};
    if (Emits) {
      PMOpts.Prefetch = analysisJobs(AM, PassNames);
      if (effectiveThreads(Threads) > 1 && !sys::fs::create_directories(Dir))
        for (std::function<void()> &J : Emitters.earlyJobs(EarlyCtx))
          PMOpts.Prefetch.push_back(std::move(J));
    }
    PMOpts.TimeTrace = !O.TimeTrace.empty();
    if (Progress)
      PMOpts.Progress = [](size_t Done, size_t Total, StringRef Name) {
        errs() << "tl-opt: passes " << Done << "/" << Total << " (" << Name
               << ")\x1b[K\r";
      };
    auto Wall0 = std::chrono::steady_clock::now();
    std::vector<PassResult> Results = PM.run(*T, AM, PMOpts);
    double Wall = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - Wall0)
                      .count();
    if (Progress)
      errs() << "\x1b[K";

    std::vector<PassRunInfo> Runs = collectRunInfo(Results);
    std::vector<FailedPass> Failed = collectFailures(Results);
    std::vector<Artifact> Artifacts = collectArtifacts(Results);
    std::vector<Finding> Findings = collectFindings(Results);
    // --timing, statistics and pass failures; printed after the report
    // when one is written, so --timing accounts for the emitters too.
    auto PrintRunInfo = [&](ArrayRef<EmitterTiming> EmitTimes) {
      if (O.Timing)
        printTiming(errs(), Runs, AM, Wall, O.TimingFormat == "json",
                    EmitTimes);
      if (O.PassStatistics)
        printStatistics(errs(), Runs);
      for (const FailedPass &F : Failed)
        errs() << "tl-opt: error: pass '" << F.Pass
               << "' failed: " << F.Message << "\n";
    };
    if (!Emits)
      PrintRunInfo({});

    if (StopAfter == "passes") {
      if (!Failed.empty())
        Exit = 2;
      continue;
    }
    if (O.VerifyFindingsFile.getNumOccurrences()) {
      std::string File = O.VerifyFindingsFile;
      if (File.empty())
        File = TracePath + ".expected";
      if (Error E = verifyFindings(File, Findings))
        return fail(toString(std::move(E)));
      if (!Failed.empty())
        Exit = 2;
      continue;
    }

    if (AOpts.Reference) {
      StringRef W = AM.get<TraceDiff>().frameworkWarning();
      if (!W.empty())
        WithColor::warning(errs(), "tl-opt") << TracePath << ": " << W << "\n";
    }
    ReportContext Ctx{*T,
                      AM,
                      Findings,
                      Failed,
                      Runs,
                      CanonicalPipeline,
                      Dir,
                      toolVersion(),
                      TracePath,
                      Artifacts,
                      Gate ? &*Gate : nullptr};
    {
      TimeTraceScope Scope("emit", Dir);
      if (std::error_code EC = sys::fs::create_directories(Dir)) {
        PrintRunInfo({});
        return fail(Dir + ": cannot create output directory: " +
                    EC.message());
      }
      std::vector<EmitterTiming> EmitTimes;
      EmitOptions EOpts;
      EOpts.Threads = Threads;
      EOpts.TimeTrace = !O.TimeTrace.empty();
      Error E = Emitters.emitAll(Ctx, &EmitTimes, EOpts);
      PrintRunInfo(EmitTimes);
      if (E)
        return fail(toString(std::move(E)));
    }
    if (!O.Quiet)
      errs() << "tl-opt: " << TracePath << ": " << Findings.size()
             << " finding(s), " << Failed.size() << " failed pass(es); "
             << "report in " << Dir << "\n";
    if (!Failed.empty())
      Exit = 2;
    if (FailOn) {
      ReportModel M = ReportModel::build(Ctx);
      for (Tier Tr : {Tier::Compute, Tier::Fusion, Tier::System})
        for (const PItem &P : M.items(Tr)) {
          std::string Clause = FailOn->matchingClause(P);
          if (Clause.empty())
            continue;
          errs() << "tl-opt: fail-on: " << P.F->Id << " (P" << P.Rank << " "
                 << tierName(Tr) << ", impact "
                 << (P.Mid ? pyRepr(*P.Mid) : std::string("n/a"))
                 << ") matches '" << Clause << "'\n";
          if (Exit == 0)
            Exit = 3;
        }
    }
  }

  if (!O.TimeTrace.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(O.TimeTrace, EC, sys::fs::OF_Text);
    if (EC)
      return fail(O.TimeTrace + ": " + EC.message());
    timeTraceProfilerWrite(OS);
    timeTraceProfilerCleanup();
  }
  return Exit;
}

} // namespace

int main(int argc, char **argv) {
  tl::useOneMallocArena();
  InitLLVM X(argc, argv);
  return run(argc, argv);
}
