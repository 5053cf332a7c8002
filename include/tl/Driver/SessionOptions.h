//===- SessionOptions.h - What a Session runs with -------------*- C++ -*-===//
//
// Settings come in layers: the defaults, a --config file, the command line.
// One rule decides between them: a layer's set values replace those of the
// layers below it (flags win over the config, the config over the defaults),
// for every setting, lists included. Settings.def lists the settings; each is
// reachable from both the config file and the flags.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_SESSIONOPTIONS_H
#define TL_DRIVER_SESSIONOPTIONS_H

#include "tl/Pass/PassPipeline.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

using SettingList = std::vector<std::string>;

/// One layer of settings; what it leaves unset, the layers below decide.
struct SessionSettings {
#define TL_SETTING(KEY, NAME, TYPE) std::optional<TYPE> NAME;
#include "tl/Driver/Settings.def"
  /// A config file's `passes: {pass: {option: value}}`; the pipeline text's
  /// own `{...}` options win over these.
  PassOptionOverrides PassOptions;
};

/// Read a YAML config file. Unknown keys, wrong types and YAML syntax errors
/// are errors naming the file (and the key).
llvm::Expected<SessionSettings> loadSessionSettings(llvm::StringRef Path);
/// The same from a config file's text; Path only names it in errors.
llvm::Expected<SessionSettings> parseSessionSettings(llvm::StringRef Path,
                                                     llvm::StringRef Text);

/// Resolved settings, defaults filled in.
struct SessionOptions {
  // Input.
  uint64_t MaxEvents = 100000000;
  /// nullopt: 3/4 of physical memory; 0: no limit.
  std::optional<uint64_t> MaxMemoryMB;
  /// auto (from the trace's deviceProperties), a shipped name, a file, none.
  std::string Arch = "auto";
  bool NoQualityGate = false;
  bool IncludeUnlinked = false;
  bool GroupByNumKernels = false;
  bool DetectRecompute = false;
  /// Reference trace for comparative mode ("" = none).
  std::string Compare;
  bool VerifyIR = false;
  /// Graph-capture traces to merge into graph replays ("" = the
  /// trace's sibling capture_traces/ when there is one; "none" = never).
  std::string CaptureFolder;
  /// ProfilerSteps to analyse (docs/Driver.md): all, steady, hta, N, A..B,
  /// first:N, last:N. Anything but all restricts the IR to that window.
  std::string Steps = "all";
  /// How a step's GPU timeline is measured (spec multi-rank.md §2.4):
  /// window (inside W(N)) or launch (the GPU events step N launched).
  std::string StepMode = "window";
  /// Report layout: auto (inference on a serving runner's trace), training
  /// or inference (docs/Inference.md).
  std::string Mode = "auto";
  /// A job's clocks across nodes (spec multi-rank.md §3.3): none, or
  /// collective (subtract each node's offset, estimated from the
  /// collectives, before measuring skews).
  std::string Align = "none";
  // Pipeline.
  std::string Pipeline = "system,compute";
  PassOptionOverrides PassOptions;
  SettingList Plugins;
  bool NoBuiltinPasses = false;
  /// Wall-clock limit, seconds, of each pass of a --load-pass-plugin plugin
  /// (run in a child process) and of loading such a plugin; 0 = none.
  unsigned PassTimeout = 600;
  unsigned Threads = 0;
  // Output.
  /// "" = <trace dir>/analysis_output.
  std::string OutDir;
  /// Wait for another run writing the same report directory instead of
  /// failing at once (--wait-lock).
  bool WaitForLock = false;
  bool IncludeCallStack = false;
  /// Also write trace_annotated.json.gz (a gzip copy of the input trace).
  bool AnnotatedTrace = false;
  bool Quiet = false;
  std::string FailOn;
  /// --junit / --sarif files ("" = none); one trace per session.
  std::string JunitFile;
  std::string SarifFile;
  /// true: progress even off a terminal; false: none; unset: the host
  /// decides (tl-opt: on an interactive stderr). Quiet wins.
  std::optional<bool> ShowProgress;
  // Instrumentation.
  bool Timing = false;
  std::string TimingFormat = "text";
  bool PassStatistics = false;
  std::string TimeTrace;

  // How the session is hosted (not settings of a run).
  /// The config file the settings came from ("" = none), named in errors
  /// about its pass options.
  std::string ConfigFile;
  /// The executable: built-in passes load from <dir>/../lib/tl/passes and
  /// arch files from <dir>/../share/tl.
  std::string ToolPath;
  /// Prefix of diagnostics and name in the report's tool version.
  std::string ToolName = "tl-opt";
  /// Progress on the diagnostics stream (the host resolves ShowProgress).
  bool Progress = false;
  /// The diagnostics stream is a terminal: progress rewrites one line
  /// (\r) instead of printing whole lines.
  bool ProgressInteractive = false;

  /// The precedence rule: every value Layer sets replaces the current one.
  void apply(const SessionSettings &Layer);
};

/// Defaults, then Config, then Flags.
SessionOptions resolveOptions(const SessionSettings &Config,
                              const SessionSettings &Flags);
/// Defaults, then the config file ConfigFile ("" = none), then Flags.
llvm::Expected<SessionOptions> resolveOptions(llvm::StringRef ConfigFile,
                                              const SessionSettings &Flags);

} // namespace tl

#endif // TL_DRIVER_SESSIONOPTIONS_H
