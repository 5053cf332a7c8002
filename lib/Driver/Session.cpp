//===- Session.cpp - The driver as a library ------------------------------===//
//
// The stages of a run, in the order and with the diagnostics tl-opt has
// always had; tl-opt maps their errors to exit codes.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/Session.h"
#include "tl/Driver/Instrumentations.h"
#include "AnalysisPrefetch.h"
#include "TraceRunImpl.h"

#include "tl/Analysis/ArchSpec.h"
#include "tl/Analysis/InferenceMode.h"
#include "tl/Analysis/StepSelection.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/IR/Verifier.h"
#include "tl/Import/CaptureMerge.h"
#include "tl/Import/Importer.h"
#include "tl/Import/PseudoOps.h"
#include "tl/Import/SglangProfilerNames.h"
#include "tl/Import/TraceRestrict.h"
#include "tl/Pass/PassInstrumentation.h"
#include "tl/Pass/PassManager.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Input/DecodedSize.h"
#include "tl/Report/CiReports.h"
#include "tl/Report/CompareEmitters.h"
#include "tl/Report/FailOn.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"
#include "tl/Support/HeapTrim.h"
#include "tl/Support/MemoryBudget.h"
#include "tl/Support/MemoryLimit.h"
#include "tl/Support/OutputTransaction.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/RelativePath.h"
#include "tl/Support/TerminalText.h"
#include "tl/Support/ThreadCount.h"
#include "tl/Support/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/WithColor.h"

#include <future>
#include <unistd.h>

using namespace llvm;

namespace tl {

static Error error(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error checkTraceFile(StringRef Path) {
  if (!sys::fs::exists(Path))
    return error(Path + ": no such file");
  if (sys::fs::is_directory(Path))
    return error(Path + ": is a directory, not a trace file");
  return Error::success();
}

std::string defaultOutputDir(StringRef TracePath) {
  SmallString<256> D(sys::path::parent_path(TracePath));
  sys::path::append(D, "analysis_output");
  return std::string(D);
}

Error checkOutputDir(StringRef Path) {
  if (Path.empty())
    return error("output directory name is empty");
  if (sys::fs::exists(Path) && !sys::fs::is_directory(Path))
    return error(Path + ": exists and is not a directory");
  // The first ancestor that exists must be a directory.
  SmallVector<std::string, 4> Missing;
  // (Walked as given, so the error names the path the user wrote.)
  SmallString<256> Dir(Path);
  while (!sys::fs::exists(Dir)) {
    Missing.push_back(std::string(Dir));
    StringRef Parent = sys::path::parent_path(Dir);
    if (Parent.empty())
      Parent = ".";
    if (Parent == Dir)
      break;
    Dir = SmallString<256>(Parent);
  }
  if (sys::fs::exists(Dir) && !sys::fs::is_directory(Dir))
    return error(Path + ": " + Dir + " is not a directory");
  // Probe: create what is missing and a file in it, then undo both.
  auto Undo = [&] {
    for (const std::string &D : Missing)
      if (StringRef F = sys::path::filename(D); F != "." && F != "..")
        sys::fs::remove(D); // (only ever an empty directory the probe made)
  };
  if (std::error_code EC = sys::fs::create_directories(Path)) {
    Undo();
    return error(Path + ": cannot create directory: " + EC.message());
  }
  SmallString<256> Probe(Path);
  sys::path::append(Probe, ".tl-write-probe-%%%%%%");
  int FD;
  SmallString<256> Tmp;
  if (std::error_code EC = sys::fs::createUniqueFile(Probe, FD, Tmp)) {
    Undo();
    return error(Path + ": cannot write into the directory: " +
                 EC.message());
  }
  ::close(FD);
  sys::fs::remove(Tmp);
  Undo();
  return Error::success();
}

Error checkOutputFile(StringRef Path) {
  if (sys::fs::is_directory(Path))
    return error(Path + ": is a directory, not a file");
  StringRef Dir = sys::path::parent_path(Path);
  // Named as given, then the directory's problem.
  if (Error E = checkOutputDir(Dir.empty() ? StringRef(".") : Dir))
    return error(Path + ": " + toString(std::move(E)));
  return Error::success();
}

/// Default --max-memory: 3/4 of what the process may still allocate (RAM,
/// ulimit, cgroup; 0 = unknown, no limit).
static uint64_t defaultMaxMemory() {
  return availableMemoryBytes() / 4 * 3;
}

namespace {
/// The reference trace of comparative mode, imported on its own thread.
struct RefImport {
  std::optional<Trace> T;
  std::string Error;
};
} // namespace

struct Session::Impl {
  SessionOptions Opts;
  /// The host's stream, and the one every message goes through: trace
  /// names in notes and warnings must not send escape sequences. Only the
  /// progress line writes to RawDiag (its '\r' redraws the line).
  raw_ostream &RawDiag;
  TerminalSafeOStream SafeDiag;
  raw_ostream &Diag;
  PassRegistry Registry;
  std::optional<FailOnExpr> FailOn;
  /// --steps, parsed once.
  StepSpec Steps;
  /// Every instrumentation: the options' (--timing, ...), then the host's.
  PassInstrumentor Instrumentor;
  TimingInstrumentation *Timing = nullptr;
  StatisticsInstrumentation *Statistics = nullptr;
  ProgressInstrumentation *Progress = nullptr;
  /// Progress lines, when progress is on.
  void phase(const Twine &Name) {
    if (Progress)
      Progress->phase(Name);
  }
  void finishProgressLine() {
    if (Progress)
      Progress->finishLine();
  }

  bool PipelinePrepared = false;
  std::string PipelineText;
  std::optional<std::string> Canonical;

  bool Begun = false;
  std::string DataDir;
  bool AutoArch = false;
  AnalysisOptions AOpts;
  bool TimeTraceOn = false;
  std::future<RefImport> RefFuture;
  std::optional<Trace> RefTrace;
  std::unique_ptr<AnalysisManager> RefAM;
  /// --max-memory over the whole run: import, analyses, passes, report.
  std::unique_ptr<MemoryBudget> Budget;
  /// Starts Stage against the budget; fails when the stage before it
  /// passed the budget.
  Error budgetStage(StringRef Trace, const Twine &Stage) {
    if (Error E = Budget->check(Trace))
      return E;
    Budget->enterStage(Stage);
    return Error::success();
  }

  /// Threads each trace's stages use (setThreadsPerTrace), else
  /// Opts.Threads.
  std::optional<unsigned> TraceThreads;
  unsigned threads() const {
    return TraceThreads ? *TraceThreads : Opts.Threads;
  }
  /// Where a trace's messages go: its own stream when it has one.
  raw_ostream &diag(TraceRun::Impl &R) { return R.Diag ? *R.Diag : Diag; }

  Impl(SessionOptions Opts, raw_ostream &Diag)
      : Opts(std::move(Opts)), RawDiag(Diag), SafeDiag(Diag),
        Diag(SafeDiag) {}
  ~Impl() {
    if (TimeTraceOn)
      timeTraceProfilerCleanup();
  }

  uint64_t maxMemory() const {
    return Opts.MaxMemoryMB ? *Opts.MaxMemoryMB * (uint64_t(1) << 20)
                            : defaultMaxMemory();
  }
  bool timeTrace() const { return !Opts.TimeTrace.empty(); }

  /// 'none': no passes, only the emitters (report tables).
  Expected<PassPipeline> makePipeline() const {
    if (StringRef(PipelineText).trim() == "none")
      return PassPipeline();
    return buildPipeline(Registry, PipelineText, &Opts.PassOptions);
  }

  /// --timing: the passes' hooks' records, the analyses' timings.
  void printTiming(TraceRun::Impl &R, ArrayRef<EmitterTiming> EmitTimes) {
    TimingReport Rep = Timing->take(R.T);
    Rep.print(diag(R), Opts.TimingFormat == "json", EmitTimes);
  }

  /// Commit the report of a run that began its own transaction.
  Error commitOwnOutput(TraceRun::Impl &R) {
    if (!R.OwnedOut)
      return Error::success();
    Error E = R.OwnedOut->commit();
    for (const std::string &W : R.OwnedOut->warnings())
      WithColor::warning(diag(R), Opts.ToolName) << W << "\n";
    R.OwnedOut.reset();
    R.Out = nullptr;
    return E;
  }

  /// --timing, statistics and pass failures; printed after the report when
  /// one is written, so --timing accounts for the emitters too.
  void printRunInfo(TraceRun::Impl &R, ArrayRef<EmitterTiming> EmitTimes) {
    if (Timing)
      printTiming(R, EmitTimes);
    if (Statistics)
      StatisticsInstrumentation::print(diag(R), Statistics->take(R.T));
    for (const FailedPass &F : R.Failed)
      diag(R) << Opts.ToolName << ": error: pass '" << F.Pass
           << "' failed: " << F.Message << "\n";
  }
};

Session::Session(std::unique_ptr<Impl> P) : P(std::move(P)) {}

void Session::addInstrumentation(std::unique_ptr<PassInstrumentation> PI) {
  P->Instrumentor.addInstrumentation(std::move(PI));
}
Session::~Session() = default;

const SessionOptions &Session::options() const { return P->Opts; }
const PassRegistry &Session::registry() const { return P->Registry; }
PassRegistry &Session::registry() { return P->Registry; }

std::string Session::toolVersion() const {
  return P->Opts.ToolName + " " + TL_VERSION_STRING + " (" + TL_GIT_HASH +
         ")";
}

Expected<std::unique_ptr<Session>> Session::create(SessionOptions Opts,
                                                   raw_ostream &Diag) {
  auto P = std::make_unique<Impl>(std::move(Opts), Diag);
  const SessionOptions &O = P->Opts;
  if (O.TimingFormat != "text" && O.TimingFormat != "json")
    return error("--timing-format must be 'text' or 'json', got '" +
                 O.TimingFormat + "'");
  // A pool asked for 2^31 or more workers starts none and waits forever;
  // no machine tl runs on has use for more than 1024.
  if (O.Threads > 1024)
    return error("--threads must be at most 1024, got " +
                 Twine(O.Threads).str());
  // MiB to bytes must not wrap around (2^44 MiB is 2^64 bytes).
  if (O.MaxMemoryMB && *O.MaxMemoryMB >= (uint64_t(1) << 44))
    return error("--max-memory must be below 2^44 MiB, got " +
                 Twine(*O.MaxMemoryMB).str());
  if (O.Mode != ModeAuto && O.Mode != ModeTraining && O.Mode != ModeInference)
    return error("--mode must be 'auto', 'training' or 'inference', got '" +
                 O.Mode + "'");
  if (O.StepMode != "window" && O.StepMode != "launch")
    return error("--step-mode must be 'window' or 'launch', got '" +
                 O.StepMode + "'");
  if (O.Align != "none" && O.Align != "collective")
    return error("--align must be 'none' or 'collective', got '" + O.Align +
                 "'");
  {
    auto Spec = parseStepSpec(O.Steps);
    if (!Spec)
      return Spec.takeError();
    P->Steps = std::move(*Spec);
  }
  if (!O.FailOn.empty()) {
    auto E = FailOnExpr::parse(O.FailOn);
    if (!E)
      return E.takeError();
    P->FailOn = std::move(*E);
  }
  // Timing last: its before-hook runs right before the pass, its after-hook
  // right after it (after-hooks run in reverse).
  if (O.PassStatistics) {
    auto S = std::make_unique<StatisticsInstrumentation>();
    P->Statistics = S.get();
    P->Instrumentor.addInstrumentation(std::move(S));
  }
  if (O.Progress) {
    auto PI = std::make_unique<ProgressInstrumentation>(
        P->RawDiag, O.ToolName, O.ProgressInteractive);
    P->Progress = PI.get();
    P->Instrumentor.addInstrumentation(std::move(PI));
  }
  if (!O.TimeTrace.empty())
    P->Instrumentor.addInstrumentation(
        std::make_unique<TimeTraceInstrumentation>());
  if (O.Timing) {
    auto T = std::make_unique<TimingInstrumentation>();
    P->Timing = T.get();
    P->Instrumentor.addInstrumentation(std::move(T));
  }

  // Passes: built-in plugins (sorted), then the plugins asked for, in order.
  registerBuiltinPipelines(P->Registry);
  // The built-in ones are trusted; the others are tried in a child first
  // (a crash while loading is an error naming the file) and their passes
  // run in child processes.
  std::vector<std::pair<std::string, bool>> PluginPaths;
  if (!O.NoBuiltinPasses)
    for (std::string &Path : findBuiltinPlugins(O.ToolPath))
      PluginPaths.emplace_back(std::move(Path), false);
  for (const std::string &Path : O.Plugins)
    PluginPaths.emplace_back(Path, true);
  for (const auto &[Path, Foreign] : PluginPaths) {
    if (Foreign)
      if (Error E = PassPlugin::tryInChild(Path, P->Registry, O.PassTimeout))
        return E;
    auto Plugin = PassPlugin::load(Path);
    if (!Plugin)
      return Plugin.takeError();
    if (Error E = Plugin->registerPasses(P->Registry, Foreign))
      return E;
  }
  return std::unique_ptr<Session>(new Session(std::move(P)));
}

Error Session::preparePipeline(bool BuildPipeline) {
  const SessionOptions &O = P->Opts;
  P->PipelinePrepared = true;
  P->PipelineText = O.Pipeline;
  std::string &Text = P->PipelineText;
  // --compare adds the `comparative` pipeline's passes (those that join
  // it) to any pipeline that runs passes.
  if (!O.Compare.empty() && StringRef(Text).trim() != "none") {
    auto T = withPipelineMembers(P->Registry, Text, "comparative");
    if (!T)
      return T.takeError();
    Text = std::move(*T);
  }

  // Config options must name registered passes and options, even when the
  // pass is not in this pipeline (a typo would otherwise pass silently).
  for (const auto &[PassName, Opts] : O.PassOptions) {
    std::unique_ptr<Pass> Pass = P->Registry.createPass(PassName);
    if (!Pass) {
      // `passes: {compute: ...}` reads naturally but names a pipeline;
      // "did you mean 'compute'" would repeat the mistake back.
      if (const PipelineInfo *PI = P->Registry.lookupPipeline(PassName))
        return error(O.ConfigFile + ": '" + PassName +
                     "' is a pipeline, not a pass; give the options under "
                     "the names of its passes (" + PI->Text + ")");
      std::string Msg = O.ConfigFile + ": unknown pass '" + PassName + "'";
      std::string Close = P->Registry.closestName(PassName);
      if (!Close.empty())
        Msg += "; did you mean '" + Close + "'?";
      return error(Msg);
    }
    for (const auto &[K, V] : Opts)
      if (Error E = Pass->setOption(K, V))
        return error(O.ConfigFile + ": " + toString(std::move(E)));
  }

  if (!BuildPipeline)
    return Error::success();
  auto Pipeline = P->makePipeline();
  if (!Pipeline)
    return Pipeline.takeError();
  P->Canonical = Pipeline->str();
  return Error::success();
}

const std::string &Session::canonicalPipeline() const {
  assert(P->Canonical && "preparePipeline() has not built the pipeline");
  return *P->Canonical;
}

std::string dataDir(StringRef ToolPath) {
  SmallString<256> D(sys::path::parent_path(ToolPath));
  sys::path::append(D, "..", "share", "tl");
  return std::string(D);
}

Expected<std::optional<ArchSpec>> fixedArchSpec(const SessionOptions &O) {
  StringRef A = O.Arch;
  if (A.empty() || A.equals_insensitive("auto") ||
      A.equals_insensitive("none"))
    return std::nullopt;
  Expected<ArchSpec> S = resolveArchSpec(A, dataDir(O.ToolPath));
  if (!S)
    return S.takeError();
  return std::optional<ArchSpec>(std::move(*S));
}

Error Session::begin() {
  if (P->Begun)
    return Error::success();
  P->Begun = true;
  P->Budget = std::make_unique<MemoryBudget>(P->maxMemory());
  if (!P->PipelinePrepared || !P->Canonical)
    if (Error E = preparePipeline())
      return E;
  const SessionOptions &O = P->Opts;
  if (!O.Compare.empty())
    if (Error E = checkTraceFile(O.Compare))
      return E;

  AnalysisOptions &AOpts = P->AOpts;
  AOpts.IncludeUnlinked = O.IncludeUnlinked;
  AOpts.StepLaunchMode = O.StepMode == "launch";
  AOpts.DetectRecompute = O.DetectRecompute;
  AOpts.GroupByNumKernels = O.GroupByNumKernels;
  AOpts.IncludeCallStack = O.IncludeCallStack;
  // A fixed arch is resolved once, before any import, so a typo fails fast;
  // 'auto' is resolved per trace from its deviceProperties.
  P->DataDir = dataDir(O.ToolPath);
  P->AutoArch =
      O.Arch.empty() || StringRef(O.Arch).equals_insensitive("auto");
  Expected<std::optional<ArchSpec>> Fixed = fixedArchSpec(O);
  if (!Fixed)
    return Fixed.takeError();
  AOpts.Arch = std::move(*Fixed);

  if (P->timeTrace()) {
    timeTraceProfilerInitialize(/*TimeTraceGranularity=*/0, O.ToolName);
    P->TimeTraceOn = true;
  }

  // The reference imports on its own thread while the analyzed trace
  // imports; it gets its own AnalysisManager (same options).
  if (!O.Compare.empty()) {
    ImportOptions RefOpts;
    RefOpts.MaxEvents = O.MaxEvents;
    RefOpts.MaxMemory = P->maxMemory();
    P->RefFuture = std::async(std::launch::async, [Path = O.Compare,
                                                   RefOpts]() {
      TimeTraceScope Scope("import", Path);
      RefImport Out;
      Expected<Trace> R = tl::importTrace(Path, RefOpts);
      if (R)
        Out.T.emplace(std::move(*R));
      else
        Out.Error = toString(R.takeError());
      return Out;
    });
  }
  return Error::success();
}

Error Session::finish() {
  if (!P->TimeTraceOn)
    return Error::success();
  std::error_code EC;
  raw_fd_ostream OS(P->Opts.TimeTrace, EC, sys::fs::OF_Text);
  if (EC)
    return error(P->Opts.TimeTrace + ": " + EC.message());
  timeTraceProfilerWrite(OS);
  timeTraceProfilerCleanup();
  P->TimeTraceOn = false;
  return Error::success();
}

/// The capture folder for Path: --capture-folder, else a capture_traces/
/// beside the trace ("" = none).
static std::string captureFolderFor(const SessionOptions &O, StringRef Path) {
  if (O.CaptureFolder == "none")
    return "";
  if (!O.CaptureFolder.empty())
    return O.CaptureFolder;
  SmallString<256> D(sys::path::parent_path(Path));
  sys::path::append(D, "capture_traces");
  return sys::fs::is_directory(D) ? std::string(D) : "";
}

/// Merge the capture folder's traces into T (a note on what merged, a
/// warning per mismatch; a bad folder is an error).
static Error mergeCaptures(const SessionOptions &O, raw_ostream &Diag,
                           Trace &T, StringRef Path,
                           const ImportOptions &IOpts, bool &Merged) {
  Merged = false;
  std::string Dir = captureFolderFor(O, Path);
  if (Dir.empty())
    return Error::success();
  TimeTraceScope Scope("capture-merge", Dir);
  ImportOptions CapOpts = IOpts;
  CapOpts.Progress = nullptr; // the progress line is the trace's
  Expected<CaptureMergeResult> R = mergeCaptureFolder(T, Dir, CapOpts);
  if (!R)
    return R.takeError();
  Merged = R->MergedLaunches > 0;
  if (!O.Quiet)
    WithColor::note(Diag, O.ToolName)
        << Path << ": capture folder " << Dir
        << (O.CaptureFolder.empty() ? " (found beside the trace)" : "")
        << ": " << R->MergedLaunches
        << " of " << R->GraphLaunches << " graph launches merged, "
        << R->ReplayedKernels << " replayed kernels got their capture context ("
        << R->CopiedEvents << " capture events copied)\n";
  for (const std::string &W : R->Warnings)
    WithColor::warning(Diag, O.ToolName) << Dir << ": " << W << "\n";
  return Error::success();
}

/// "warm-up step #3 and truncated step #9".
static std::string flaggedSteps(const StepWindows &W, bool Selected,
                                size_t First, size_t Last) {
  std::vector<std::string> Parts;
  for (size_t I = 0; I < W.Steps.size(); ++I) {
    bool In = I >= First && I <= Last;
    if (In != Selected)
      continue;
    const StepWindow &S = W.Steps[I];
    if (S.Warmup)
      Parts.push_back("warm-up step #" + std::to_string(S.Number));
    if (S.Outlier)
      Parts.push_back("outlier step #" + std::to_string(S.Number));
    if (S.Truncated)
      Parts.push_back("truncated step #" + std::to_string(S.Number));
  }
  return join(Parts, " and ");
}

/// --steps: restrict T to the selected ProfilerSteps (anything but all),
/// with a note on what is analysed; with all, a note when the quality
/// checks flag steps that --steps=steady would leave out.
static Error applySteps(const SessionOptions &O, const StepSpec &Spec,
                        raw_ostream &Diag, Trace &T, StringRef Path) {
  StepWindows W = computeStepWindows(T);
  if (Spec.isAll()) {
    std::string Flagged =
        W.Steps.empty() ? "" : flaggedSteps(W, true, 0, W.Steps.size() - 1);
    if (!Flagged.empty() && !O.Quiet)
      WithColor::note(Diag, O.ToolName)
          << Path << ": " << Flagged << " in the trace; --steps=steady "
          << "leaves them out\n";
    return Error::success();
  }
  if (W.Steps.empty())
    return error(Path + ": --steps=" + Spec.Text +
                 ": the trace has no ProfilerStep annotations (only "
                 "--steps=all applies)");
  auto Sel = selectSteps(Spec, W);
  if (!Sel)
    return error(Path + ": " + toString(Sel.takeError()));
  auto [First, Last] = *Sel;
  StepRestriction R = stepRestriction(T, W, First, Last, Spec.Text);
  size_t Before = T.size();
  std::string Selected = describeSteps(R.Window.Steps);
  restrictTrace(T, R.Keep, std::move(R.Window));
  if (!O.Quiet) {
    raw_ostream &OS = WithColor::note(Diag, O.ToolName);
    OS << Path << ": --steps=" << Spec.Text << ": " << Selected << " ("
       << Last - First + 1 << " of " << W.Steps.size() << " steps";
    std::string Out = flaggedSteps(W, false, First, Last);
    std::string In = flaggedSteps(W, true, First, Last);
    if (!Out.empty())
      OS << "; left out: " << Out;
    if (!In.empty())
      OS << "; kept: " << In;
    OS << "), " << T.size() << " of " << Before << " events\n";
  }
  return Error::success();
}

void Session::setThreadsPerTrace(unsigned Threads) {
  P->TraceThreads = Threads;
}

Expected<std::unique_ptr<TraceRun>>
Session::importTrace(StringRef Path, Stage Last, raw_ostream *TraceDiag) {
  if (Error E = begin())
    return E;
  const SessionOptions &O = P->Opts;
  std::unique_ptr<TerminalSafeOStream> OwnDiag;
  if (TraceDiag)
    OwnDiag = std::make_unique<TerminalSafeOStream>(*TraceDiag);
  raw_ostream &Diag = OwnDiag ? *OwnDiag : P->Diag;
  ImportOptions IOpts;
  IOpts.Threads = P->threads();
  IOpts.MaxEvents = O.MaxEvents;
  IOpts.MaxMemory = P->maxMemory();
  if (ProgressInstrumentation *PI = P->Progress) {
    PI->importStart(Path, decodedSizeHint(Path));
    IOpts.Progress = [PI](uint64_t Bytes) { PI->importBytes(Bytes); };
  }
  if (Error E = P->budgetStage(Path, "import"))
    return E;
  Expected<Trace> T = [&] {
    TimeTraceScope Scope("import", Path);
    return tl::importTrace(Path, IOpts);
  }();
  if (!T) {
    P->finishProgressLine();
    return T.takeError();
  }
  if (P->Progress) {
    P->Progress->importDone();
    if (Last == Stage::Import)
      P->Progress->finishLine();
  }
  bool CaptureMerged = false;
  if (Error E = mergeCaptures(O, Diag, *T, Path, IOpts, CaptureMerged))
    return E;
  if (Error E = applySteps(O, P->Steps, Diag, *T, Path))
    return E;
  // The importer's parse buffers are freed by now; their pages would
  // otherwise stay in the process under the analyses' growth.
  if (heapTrimPays(T->size()))
    releaseFreeHeapPages();
  if (P->RefFuture.valid()) {
    RefImport R = P->RefFuture.get();
    if (!R.T)
      return error(R.Error);
    P->RefTrace = std::move(R.T);
    P->RefAM = std::make_unique<AnalysisManager>(*P->RefTrace, P->AOpts);
    if (!P->Instrumentor.empty())
      P->RefAM->setInstrumentation(&P->Instrumentor);
    P->AOpts.Reference = &*P->RefTrace;
    P->AOpts.ReferenceAM = P->RefAM.get();
  }
  if (O.VerifyIR)
    if (Error E = verifyTrace(*T))
      return error(Path + ": IR verification failed: " +
                   toString(std::move(E)));
  if (Error E = P->Budget->check(Path))
    return E;
  auto R = std::make_unique<TraceRun::Impl>(Path.str(), Last, std::move(*T));
  R->CaptureMerged = CaptureMerged;
  R->Diag = std::move(OwnDiag);
  R->Done = Stage::Import;
  return std::unique_ptr<TraceRun>(new TraceRun(std::move(R)));
}

Error Session::gate(TraceRun &Run) {
  TraceRun::Impl &R = *Run.P;
  assert(R.Done == Stage::Import && !R.AM && "gate() runs once, after import");
  const SessionOptions &O = P->Opts;
  raw_ostream &Diag = P->diag(R);
  P->phase("gate");
  if (Error E = P->budgetStage(R.Path, "the quality gate"))
    return E;
  // A fresh set of pass instances for every trace.
  auto Pipe = P->makePipeline();
  if (!Pipe)
    return Pipe.takeError();
  AnalysisOptions TraceOpts = P->AOpts;
  if (P->AutoArch) {
    std::string Note;
    Expected<std::optional<ArchSpec>> A =
        autoArchSpec(R.T, P->DataDir, Note);
    if (!A)
      return A.takeError();
    TraceOpts.Arch = std::move(*A);
    if (!TraceOpts.Arch)
      WithColor::warning(Diag, O.ToolName) << R.Path << ": " << Note << "\n";
    else if (!O.Quiet)
      WithColor::note(Diag, O.ToolName) << R.Path << ": " << Note << "\n";
  }
  TraceOpts.Inference = O.Mode == ModeInference;
  if (O.Mode == ModeAuto) {
    std::string Why = inferenceEvidence(R.T, R.CaptureMerged);
    TraceOpts.Inference = !Why.empty();
    if (TraceOpts.Inference && !O.Quiet)
      WithColor::note(Diag, O.ToolName)
          << R.Path << ": inference report layout (" << Why
          << "; --mode=training for the training one)\n";
  }
  // The reference's pseudo-op step starts with this rename (§B.5).
  // ... then injects the pseudo ops (§B.1).
  if (TraceOpts.Inference) {
    normalizeSglangProfilerNames(R.T);
    PseudoOpResult PO = injectPseudoOps(R.T);
    if (!O.Quiet && PO.Injected)
      WithColor::note(Diag, O.ToolName)
          << R.Path << ": " << PO.Injected << " MoE pseudo ops over the "
          << "expert kernels of " << PO.MoeOps << " vllm::moe_forward ops\n";
    if (!O.Quiet)
      for (const std::string &W : PO.Warnings)
        WithColor::warning(Diag, O.ToolName) << R.Path << ": " << W << "\n";
    // The injection edits the tree: check it again.
    if (O.VerifyIR && PO.Injected)
      if (Error E = verifyTrace(R.T))
        return error(R.Path + ": IR verification failed after the pseudo "
                              "ops: " +
                     toString(std::move(E)));
  }
  R.AM = std::make_unique<AnalysisManager>(R.T, TraceOpts);
  if (!P->Instrumentor.empty())
    R.AM->setInstrumentation(&P->Instrumentor);
  // Every report needs the unified perf table, the longest analysis: with a
  // second thread it starts now instead of after the serial quality gate (a
  // later get() waits for it instead of recomputing).
  if (effectiveThreads(P->threads()) > 1 && R.Last != Stage::Passes) {
    AnalysisManager *AM = R.AM.get();
    R.Early.start([AM] { AM->get<UnifiedPerfTable>(); }, P->timeTrace());
  }
  // What the requested passes declare, for the report.
  R.Scheduled = Pipe->describe();
  // The quality gate narrows the pipeline to what the trace supports; it
  // asks each pass what it needs.
  if (!O.NoQualityGate && Pipe->size()) {
    R.Gate = choosePipeline(Pipe->gateRequests(), R.AM->get<TraceQuality>());
    StringSet<> Keep;
    for (const std::string &N : R.Gate->Run)
      Keep.insert(N);
    Pipe->removeIf([&](const Pass &Pass) {
      return !Keep.contains(Pass.getArgument());
    });
    if (!O.Quiet && R.Gate->Fallback)
      for (const std::string &N : R.Gate->Notes)
        WithColor::warning(Diag, O.ToolName) << R.Path << ": " << N << "\n";
  }
  for (const std::unique_ptr<Pass> &Pass : Pipe->passes())
    R.PassNames.push_back(Pass->getArgument().str());
  R.Prefetch = Pipe->prefetch();
  R.Pipeline = std::move(*Pipe);
  R.Done = Stage::Analyses;
  return P->Budget->check(R.Path);
}

Error Session::computeAnalyses(TraceRun &Run) {
  TraceRun::Impl &R = *Run.P;
  assert(R.Done == Stage::Analyses && "computeAnalyses() runs after gate()");
  P->phase("analyses");
  P->Budget->enterStage("the analyses");
  tl::computeAnalyses(*R.AM, R.Prefetch, P->threads());
  P->finishProgressLine();
  if (Error E = P->Budget->check(R.Path))
    return E;
  if (P->Timing)
    P->printTiming(R, {});
  return Error::success();
}

Error Session::runPasses(TraceRun &Run) {
  TraceRun::Impl &R = *Run.P;
  assert(R.Done == Stage::Analyses && R.Pipeline &&
         "runPasses() runs once, after gate()");
  const SessionOptions &O = P->Opts;
  PassManager PM(std::move(*R.Pipeline));
  R.Pipeline.reset();
  PassManagerOptions PMOpts;
  PMOpts.Threads = P->threads();
  bool Emits = R.Last == Stage::Report;
  if (R.Dir.empty())
    R.Dir = O.OutDir.empty() ? defaultOutputDir(R.Path) : O.OutDir;
  // The report is written into a staging directory and committed whole
  // after the last emitter (the early perf CSVs included); a run given a
  // write directory (setOutputDirs) leaves the commit to its caller.
  if (Emits && !R.Out && R.WriteDir.empty()) {
    OutputTransactionOptions TO;
    TO.WaitForLock = O.WaitForLock;
    TO.ToolName = O.ToolName;
    auto T = OutputTransaction::begin(R.Dir, TO);
    if (!T)
      return T.takeError();
    R.OwnedOut = std::move(*T);
    R.Out = R.OwnedOut.get();
    R.WriteDir = R.Out->stagingDir().str();
  }
  if (R.WriteDir.empty())
    R.WriteDir = R.Dir;
  registerBuiltinEmitters(R.Emitters);
  if (P->AOpts.Reference) {
    R.Emitters.add(createDiffStatsEmitter());
    R.Emitters.add(createDiffMarkdownEmitter());
    R.Emitters.add(createTrace2MetadataEmitter());
  }
  // Opt-in: it copies the whole input trace.
  if (O.AnnotatedTrace)
    R.Emitters.add(createAnnotatedTraceEmitter());
  // Plugins' emitters run after the built-in ones.
  for (const EmitterFactory &F : P->Registry.emitterFactories())
    R.Emitters.add(F());
  // With several threads, the analyses the passes and the report need are
  // computed concurrently, ahead of the passes, and so are the reports that
  // need no pass results (the perf CSVs): they fill the time the passes
  // wait for their last analyses.
  ReportContext EarlyCtx{R.T,
                         *R.AM,
                         /*Findings=*/{},
                         /*Failed=*/{},
                         /*Runs=*/{},
                         *P->Canonical,
                         R.WriteDir,
                         toolVersion(),
                         R.Path,
                         /*Artifacts=*/{},
                         R.Gate ? &*R.Gate : nullptr};
  EarlyCtx.Scheduled = R.Scheduled;
  EarlyCtx.ReportDir = R.Dir;
  if (Emits) {
    PMOpts.Prefetch = analysisJobs(*R.AM, R.Prefetch);
    if (effectiveThreads(P->threads()) > 1 &&
        !sys::fs::create_directories(R.WriteDir))
      for (std::function<void()> &J : R.Emitters.earlyJobs(EarlyCtx))
        PMOpts.Prefetch.push_back(std::move(J));
  }
  PMOpts.TimeTrace = P->timeTrace();
  // The analyses the pipeline needs are computed by the pass manager, ahead
  // of and next to the passes: one phase.
  P->phase("analyses and passes (" + Twine(R.PassNames.size()) +
                       " passes)");
  if (!P->Instrumentor.empty())
    PMOpts.Instrumentation = &P->Instrumentor;
  PMOpts.PassTimeoutSeconds = O.PassTimeout;
  // The early perf table's thread must be done before a plugin pass forks.
  PMOpts.BeforeIsolated = [&R] { R.Early.join(); };
  P->Budget->enterStage("the analyses and passes");
  std::vector<PassResult> Results = PM.run(R.T, *R.AM, PMOpts);
  if (Error E = P->Budget->check(R.Path)) {
    P->finishProgressLine();
    return E;
  }

  R.Runs = collectRunInfo(Results);
  R.Failed = collectFailures(Results);
  R.Artifacts = collectArtifacts(Results);
  R.Data = collectReportData(Results);
  R.Findings = collectFindings(Results);
  if (!Emits) {
    P->finishProgressLine();
    P->printRunInfo(R, {});
  }
  R.Done = Stage::Passes;
  return Error::success();
}

/// A writer's error names the staging directory; the user knows the
/// report directory. The first failure only (emitAll joins one per
/// emitter), so the error is one line.
static std::string firstFailure(StringRef Msg, const OutputTransaction *Out) {
  std::string M = Out ? Out->unstaged(Msg) : Msg.str();
  size_t NL = M.find('\n');
  if (NL == std::string::npos)
    return M;
  size_t More = StringRef(M).drop_front(NL).count('\n');
  return M.substr(0, NL) + " (and " + std::to_string(More) +
         " more error(s))";
}

Error Session::emitReport(TraceRun &Run) {
  TraceRun::Impl &R = *Run.P;
  assert(R.Done == Stage::Passes && "emitReport() runs once, after passes");
  const SessionOptions &O = P->Opts;
  raw_ostream &Diag = P->diag(R);
  if (P->AOpts.Reference) {
    StringRef W = R.AM->get<TraceDiff>().frameworkWarning();
    if (!W.empty())
      WithColor::warning(Diag, O.ToolName) << R.Path << ": " << W << "\n";
  }
  ReportContext Ctx{R.T,
                    *R.AM,
                    R.Findings,
                    R.Failed,
                    R.Runs,
                    *P->Canonical,
                    R.WriteDir,
                    toolVersion(),
                    R.Path,
                    R.Artifacts,
                    R.Gate ? &*R.Gate : nullptr};
  Ctx.Scheduled = R.Scheduled;
  Ctx.Data = &R.Data;
  Ctx.ReportDir = R.Dir;
  P->phase("emit");
  {
    TimeTraceScope Scope("emit", R.Dir);
    if (std::error_code EC = sys::fs::create_directories(R.WriteDir)) {
      P->printRunInfo(R, {});
      return error(R.Dir + ": cannot create output directory: " +
                   EC.message());
    }
    std::vector<EmitterTiming> EmitTimes;
    EmitOptions EOpts;
    EOpts.Threads = P->threads();
    EOpts.TimeTrace = P->timeTrace();
    P->Budget->enterStage("the report");
    Error E = R.Emitters.emitAll(Ctx, &EmitTimes, EOpts);
    P->phase("emit done");
    P->finishProgressLine();
    P->printRunInfo(R, EmitTimes);
    if (E)
      return error(firstFailure(toString(std::move(E)), R.Out));
    // An over-budget report is not committed: the old one stays.
    if (Error BE = P->Budget->check(R.Path))
      return BE;
  }
  R.Done = Stage::Report;
  if (!O.Quiet)
    // tl's own findings: the ones kept only for the reference-compatible
    // files are not in findings.json.
    Diag << O.ToolName << ": " << R.Path << ": "
         << llvm::count_if(R.Findings,
                           [](const Finding &F) {
                             return inReportFace(F, ReportFace::Tl);
                           })
         << " finding(s), " << R.Failed.size() << " failed pass(es); "
         << "report in " << R.Dir << "\n";
  if (!P->FailOn && O.JunitFile.empty() && O.SarifFile.empty())
    return P->commitOwnOutput(R);
  const ReportModel &M = ReportModel::of(Ctx);
  ReportMetrics Metrics =
      ReportMetrics::compute(M, R.AM->get<TraceQuality>());
  if (P->FailOn) {
    R.Gates = P->FailOn->evaluate(M, Metrics);
    for (const GateResult &G : R.Gates)
      if (G.Global && G.Failed)
        Diag << O.ToolName << ": fail-on: " << G.Detail << " matches '"
             << G.Clause << "'\n";
      else if (G.Global && StringRef(G.Detail).contains(": "))
        WithColor::warning(Diag, O.ToolName)
            << R.Path << ": fail-on '" << G.Clause << "' does not match: "
            << G.Detail << "\n";
    for (Tier Tr : {Tier::Compute, Tier::Fusion, Tier::System})
      for (const PItem &PI : M.items(Tr)) {
        std::string Clause = P->FailOn->matchingClause(PI, &Metrics);
        if (Clause.empty())
          continue;
        FailOnMatch Match{PI.F->Id, PI.Rank, tierName(Tr).str(),
                          PI.Mid ? pyRepr(*PI.Mid) : std::string("n/a"),
                          Clause};
        Diag << O.ToolName << ": fail-on: " << Match.FindingId << " (P"
             << Match.Rank << " " << Match.Tier << ", impact "
             << Match.Impact << ") matches '" << Match.Clause << "'\n";
        R.Matches.push_back(std::move(Match));
      }
  }
  // The CI files name the trace relative to their own directory.
  std::string Version =
      std::string(TL_VERSION_STRING) + " (" + TL_GIT_HASH + ")";
  auto Input = [&](StringRef File) {
    StringRef Dir = sys::path::parent_path(File);
    return CiReportInput{M,
                         R.Gates,
                         P->FailOn ? &*P->FailOn : nullptr,
                         Metrics,
                         R.Failed,
                         O.ToolName,
                         Version,
                         relativePath(R.Path, Dir.empty() ? "." : Dir)};
  };
  // A CI file inside the report directory is part of the report.
  auto Staged = [&](StringRef F) {
    return R.Out ? R.Out->staged(F) : F.str();
  };
  auto Unstaged = [&](Error E) {
    std::string M = toString(std::move(E));
    return R.Out ? R.Out->unstaged(M) : M;
  };
  if (!O.JunitFile.empty())
    if (Error E = writeJunitReport(Staged(O.JunitFile), Input(O.JunitFile)))
      return error(O.JunitFile + ": " + Unstaged(std::move(E)));
  if (!O.SarifFile.empty())
    if (Error E = writeSarifReport(Staged(O.SarifFile), Input(O.SarifFile)))
      return error(O.SarifFile + ": " + Unstaged(std::move(E)));
  return P->commitOwnOutput(R);
}


Expected<std::unique_ptr<TraceRun>>
Session::run(StringRef Path, Stage Last, OutputTransaction *Out) {
  auto R = importTrace(Path, Last);
  if (!R || Last == Stage::Import)
    return R;
  if (Out)
    (*R)->setOutput(*Out);
  if (Error E = gate(**R))
    return E;
  if (Last == Stage::Analyses) {
    if (Error E = computeAnalyses(**R))
      return E;
    return R;
  }
  if (Error E = runPasses(**R))
    return E;
  if (Last == Stage::Passes)
    return R;
  if (Error E = emitReport(**R))
    return E;
  return R;
}

//===----------------------------------------------------------------------===//
// TraceRun
//===----------------------------------------------------------------------===//

TraceRun::TraceRun(std::unique_ptr<Impl> P) : P(std::move(P)) {}
TraceRun::~TraceRun() = default;
StringRef TraceRun::path() const { return P->Path; }
const Trace &TraceRun::trace() const { return P->T; }
AnalysisManager &TraceRun::analyses() {
  assert(P->AM && "no analyses before the gate stage");
  return *P->AM;
}
const PipelineChoice *TraceRun::gate() const {
  return P->Gate ? &*P->Gate : nullptr;
}
ArrayRef<std::string> TraceRun::passes() const { return P->PassNames; }
ArrayRef<Finding> TraceRun::findings() const { return P->Findings; }
ArrayRef<FailedPass> TraceRun::failures() const { return P->Failed; }
ArrayRef<PassRunInfo> TraceRun::passRuns() const { return P->Runs; }
ArrayRef<Artifact> TraceRun::artifacts() const { return P->Artifacts; }
StringRef TraceRun::outputDir() const { return P->Dir; }
void TraceRun::setOutputDir(StringRef Dir) {
  assert((!P->Done || *P->Done < Stage::Passes) &&
         "the output directory is set before the passes stage");
  P->Dir = Dir.str();
}
void TraceRun::setOutputDirs(StringRef Dir, StringRef WriteDir) {
  assert((!P->Done || *P->Done < Stage::Passes) &&
         "the output is set before the passes stage");
  P->Dir = Dir.str();
  P->WriteDir = WriteDir.str();
  P->Out = nullptr;
}
void TraceRun::setOutput(OutputTransaction &Out, StringRef SubDir) {
  assert((!P->Done || *P->Done < Stage::Passes) &&
         "the output is set before the passes stage");
  SmallString<256> D(Out.dir()), W(Out.stagingDir());
  if (!SubDir.empty()) {
    sys::path::append(D, SubDir);
    sys::path::append(W, SubDir);
  }
  P->Dir = std::string(D);
  P->WriteDir = std::string(W);
  P->Out = &Out;
}
ArrayRef<FailOnMatch> TraceRun::failOnMatches() const { return P->Matches; }
ArrayRef<GateResult> TraceRun::gates() const { return P->Gates; }
bool TraceRun::failOnTripped() const {
  return !P->Matches.empty() ||
         any_of(P->Gates, [](const GateResult &G) { return G.Failed; });
}

} // namespace tl
