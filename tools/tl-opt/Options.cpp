//===- Options.cpp - tl-opt's command-line flags --------------------------===//
#include "Options.h"

#include "tl/Support/TerminalText.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

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
  Set(F.StepMode, O.StepMode);
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

int fail(const Twine &Msg) {
  // Errors can quote the trace (a step name, a key): shown, never sent.
  errs() << "tl-opt: error: " << terminalSafe(Msg.str()) << "\n";
  return 1;
}

int fail(Error E) { return fail(toString(std::move(E))); }

} // namespace tl
