//===- Options.h - tl-opt's command-line flags --------------------*- C++ -*-===//
//
// The flags of tl-opt, in a struct constructed in main() (no static
// constructors), and how they become session settings: what a flag leaves
// unset, the --config file or the defaults decide (docs/Driver.md).
//
//===----------------------------------------------------------------------===//
#ifndef TL_TOOLS_TLOPT_OPTIONS_H
#define TL_TOOLS_TLOPT_OPTIONS_H

#include "tl/Driver/SessionOptions.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace tl {

// Options live inside a struct constructed in main(): no static constructors.
struct Options {
  llvm::cl::OptionCategory Input{"Input"};
  llvm::cl::OptionCategory Pipeline{"Pipeline"};
  llvm::cl::OptionCategory Output{"Output"};
  llvm::cl::OptionCategory Debug{"Debugging and instrumentation"};

  llvm::cl::list<std::string> Traces{
      llvm::cl::Positional,
      llvm::cl::desc("<trace.json[.gz]>... | <job dir>"),
      llvm::cl::cat(Input)};
  llvm::cl::opt<uint64_t> MaxEvents{
      "max-events",
      llvm::cl::desc("Refuse traces with more complete events (0 = no limit)"),
      llvm::cl::init(100000000), llvm::cl::cat(Input)};
  llvm::cl::opt<uint64_t> MaxMemoryMB{
      "max-memory",
      llvm::cl::desc("Stop importing when the trace would need more than this many "
               "MB (approximate; default 3/4 of what the process may still "
               "allocate: physical memory, ulimit -v/-d and the cgroup's "
               "limit, whichever is least; 0 = no limit)"),
      llvm::cl::value_desc("MB"), llvm::cl::cat(Input)};
  llvm::cl::opt<std::string> Config{
      "config", llvm::cl::desc("YAML file with settings: pipeline, passes, output "
                         "and the other flags by name; flags win"),
      llvm::cl::value_desc("file"), llvm::cl::cat(Input)};
  llvm::cl::opt<std::string> Arch{
      "arch",
      llvm::cl::desc("GPU for roofline numbers: 'auto' (default: from the trace's "
               "deviceProperties), a shipped name (MI300X, H100, ...), a "
               ".yaml/.json arch file, or 'none'"),
      llvm::cl::value_desc("auto|name|file|none"), llvm::cl::init("auto"), llvm::cl::cat(Input)};
  llvm::cl::opt<bool> NoQualityGate{
      "no-quality-gate",
      llvm::cl::desc("Run every requested pass even when the trace lacks the data "
               "it needs (by default such passes are skipped and the report "
               "says why)"),
      llvm::cl::cat(Input)};
  llvm::cl::opt<bool> IncludeUnlinked{
      "include-unlinked",
      llvm::cl::desc("Keep GPU events that no CPU launch points at"),
      llvm::cl::cat(Input)};
  llvm::cl::opt<bool> IncludeCallStack{
      "include-call-stack",
      llvm::cl::desc("Add entry_point and call_stack_full columns to "
               "unified_perf_summary.csv (as the reference's agent flavour)"),
      llvm::cl::cat(Output)};
  llvm::cl::opt<bool> AnnotatedTrace{
      "annotated-trace",
      llvm::cl::desc("Also write trace_annotated.json.gz: the input trace for "
               "Perfetto / chrome://tracing with the findings as instant "
               "events and GPU busy, exposed communication and queue depth "
               "counters (copies the whole trace: takes time on large ones)"),
      llvm::cl::cat(Output)};
  llvm::cl::opt<bool> GroupByNumKernels{
      "group-by-num-kernels",
      llvm::cl::desc("Key ops_unique_args and the perf sheets by kernel count too "
               "(TraceLens --group_by_num_kernels)"),
      llvm::cl::cat(Input)};
  llvm::cl::opt<bool> DetectRecompute{
      "detect-recompute",
      llvm::cl::desc("Split the perf tables into recompute / non-recompute rows "
               "(activation checkpointing)"),
      llvm::cl::cat(Input)};
  llvm::cl::opt<std::string> Compare{
      "compare",
      llvm::cl::desc("Comparative mode: match ops against this reference trace "
               "(TraceLens trace 2) and write diff.md and "
               "perf_report_csvs/diff_stats.csv; see docs/Comparative.md"),
      llvm::cl::value_desc("reference trace"), llvm::cl::cat(Input)};
  llvm::cl::opt<std::string> CaptureFolder{
      "capture-folder",
      llvm::cl::desc("Merge the graph-capture traces of DIR (with its "
               "execution_details.json) into the GPU-graph replays, so "
               "replayed kernels get their ops, shapes, call stacks and "
               "modules (default: the trace's sibling capture_traces/ when "
               "it exists; 'none' = never); see docs/Inference.md"),
      llvm::cl::value_desc("DIR|none"), llvm::cl::cat(Input)};

  llvm::cl::opt<std::string> Steps{
      "steps",
      llvm::cl::desc("ProfilerSteps to analyse: 'all' (default: the whole trace), "
               "'steady' (the steady-state rule: without warm-up, outlier "
               "and truncated steps), 'hta' (all but the last), N, A..B "
               "(ProfilerStep numbers, inclusive), first:N or last:N; every "
               "table and pass then sees only that window"),
      llvm::cl::value_desc("spec"), llvm::cl::cat(Input)};

  llvm::cl::opt<std::string> StepMode{
      "step-mode",
      llvm::cl::desc("How steps.csv measures each step's GPU timeline: 'window' "
               "(default: inside the step's window, so the rows add up to the "
               "time they tile) or 'launch' (over the GPU events the step "
               "launched, first start to last end: what did step N launch; "
               "overlapping steps then count time twice)"),
      llvm::cl::value_desc("window|launch"), llvm::cl::cat(Input)};

  llvm::cl::opt<std::string> Mode{
      "mode",
      llvm::cl::desc("Report layout: 'training' (TraceLens's perf report), "
               "'inference' (its inference report: ops tables by parent "
               "module with call stacks, <family>_fwd sheets) or 'auto' "
               "(default: inference when the trace has no backward and a "
               "serving runner's iteration annotations or merged graph "
               "captures); see docs/Inference.md"),
      llvm::cl::value_desc("auto|training|inference"), llvm::cl::cat(Input)};

  llvm::cl::opt<std::string> Align{
      "align",
      llvm::cl::desc("A job's clocks across nodes: 'none' (default: skews on the "
               "raw clocks) or 'collective' (subtract each node's clock "
               "offset against node 0, estimated from the ends of the "
               "collectives they share, before measuring skews); the "
               "offsets are in multirank/ranks.csv either way"),
      llvm::cl::value_desc("none|collective"), llvm::cl::cat(Input)};

  llvm::cl::opt<std::string> PassPipelineText{
      "pass-pipeline",
      llvm::cl::desc("Passes to run, e.g. 'system,compute' or "
               "'compute,my-pass{min-pct=3}' (default: system,compute; "
               "'none' runs no pass, only the report)"),
      llvm::cl::value_desc("pipeline"), llvm::cl::cat(Pipeline)};
  llvm::cl::list<std::string> Plugins{
      "load-pass-plugin", llvm::cl::desc("Load passes from a plugin (repeatable)"),
      llvm::cl::value_desc("lib.so"), llvm::cl::cat(Pipeline)};
  llvm::cl::opt<bool> NoBuiltin{
      "no-builtin-passes",
      llvm::cl::desc("Do not load the built-in passes from <tool>/../lib/tl/passes"),
      llvm::cl::cat(Pipeline)};
  llvm::cl::opt<unsigned> PassTimeout{
      "pass-timeout",
      llvm::cl::desc("Seconds each pass of a --load-pass-plugin plugin may run "
               "(in a child process) before it is killed and failed "
               "(0 = no limit)"),
      llvm::cl::init(600), llvm::cl::value_desc("seconds"), llvm::cl::cat(Pipeline)};
  llvm::cl::opt<unsigned> Threads{
      "threads", llvm::cl::desc("Worker threads for passes (0 = all cores, 1 = "
                          "serial); output is identical for every value"),
      llvm::cl::init(0), llvm::cl::cat(Pipeline)};
  llvm::cl::opt<bool> Mpi{
      "mpi",
      llvm::cl::desc("Under mpirun/srun: spread a job's traces over the MPI "
               "processes; process 0 writes the job report (the same as "
               "without --mpi). --threads is per process"),
      llvm::cl::cat(Pipeline)};
  llvm::cl::opt<bool> ListPasses{
      "list-passes",
      llvm::cl::desc("List passes, their options and the named pipelines, then exit"),
      llvm::cl::cat(Pipeline)};
  llvm::cl::opt<bool> DumpPipeline{
      "dump-pass-pipeline",
      llvm::cl::desc("Print the expanded pipeline with every option value, then "
               "exit"),
      llvm::cl::cat(Pipeline)};

  llvm::cl::opt<std::string> OutDir{
      "o", llvm::cl::desc("Output directory (default: <trace dir>/analysis_output; "
                    "a job: each rank's report in <dir>/rank<N>/, the job "
                    "report in <dir>)"),
      llvm::cl::value_desc("dir"), llvm::cl::cat(Output)};
  llvm::cl::opt<bool> Quiet{"quiet", llvm::cl::desc("No progress or summary on stderr"),
                      llvm::cl::cat(Output)};
  llvm::cl::opt<bool> WaitLock{
      "wait-lock",
      llvm::cl::desc("When another tl-opt run is writing the same output "
               "directory, wait for it to finish instead of failing at once"),
      llvm::cl::cat(Output)};
  llvm::cl::opt<bool> Progress{
      "progress",
      llvm::cl::desc("Show progress on stderr even when it is not a terminal (one "
               "line per phase and per 10 % of the import; default: only on "
               "a terminal)"),
      llvm::cl::cat(Output)};
  llvm::cl::opt<bool> NoProgress{"no-progress",
                           llvm::cl::desc("No progress on stderr (config: "
                                    "progress: false)"),
                           llvm::cl::cat(Output)};
  llvm::cl::opt<std::string> Junit{
      "junit",
      llvm::cl::desc("Also write a JUnit XML file: a testcase per --fail-on clause "
               "and per finding, failures for what --fail-on matched"),
      llvm::cl::value_desc("file"), llvm::cl::cat(Output)};
  llvm::cl::opt<std::string> Sarif{
      "sarif",
      llvm::cl::desc("Also write a SARIF 2.1.0 file: a result per finding (rule = "
               "pass, level from severity, location = the trace)"),
      llvm::cl::value_desc("file"), llvm::cl::cat(Output)};
  llvm::cl::opt<std::string> FailOn{
      "fail-on",
      llvm::cl::desc("Exit 3 when a ranked finding matches, e.g. 'impact>=5', "
               "'tier=system', 'P1', 'tier=compute&impact>2' (',' = or), or "
               "a report metric does, e.g. 'idle_pct>20', 'step_ms>120' "
               "(e2e_ms, compute_pct, exposed_comm_pct, exposed_memcpy_pct, "
               "idle_pct, step_ms, steps, findings); see "
               "docs/ReportFormat.md"),
      llvm::cl::value_desc("expr"), llvm::cl::cat(Output)};
  llvm::cl::opt<std::string> ValidateReport{
      "validate-report",
      llvm::cl::desc("Check the report in DIR against the reference's level 1-3 "
               "rules and tl's own (names render verbatim under cmark-gfm, "
               "share columns add up) and exit (0 valid, 1 errors)"),
      llvm::cl::value_desc("dir"), llvm::cl::cat(Output)};

  llvm::cl::opt<std::string> PrintIR{
      "print-ir", llvm::cl::desc("Print the imported IR to stdout and exit "
                           "(=summary for counts only)"),
      llvm::cl::ValueOptional, llvm::cl::value_desc("summary"), llvm::cl::cat(Debug)};
  llvm::cl::opt<std::string> StopAfter{
      "stop-after",
      llvm::cl::desc("Stop after a stage, writing no report (for benchmarks): "
               "'import' (parse and link), 'analyses' (also compute the "
               "quality gate and every analysis the built-in passes of the "
               "pipeline and the reports use), 'passes' (also run the "
               "passes)"),
      llvm::cl::value_desc("import|analyses|passes"), llvm::cl::cat(Debug)};
  llvm::cl::opt<bool> VerifyIR{"verify-ir",
                         llvm::cl::desc("Check IR invariants after import"),
                         llvm::cl::cat(Debug)};
  llvm::cl::opt<std::string> VerifyFindingsFile{
      "verify-findings",
      llvm::cl::desc("Check findings against '# expected-finding <tier> <pass> "
               "{{regex}}' lines in FILE (default <trace>.expected); no "
               "report is written"),
      llvm::cl::ValueOptional, llvm::cl::value_desc("file"), llvm::cl::cat(Debug)};
  llvm::cl::opt<bool> Timing{"timing",
                       llvm::cl::desc("Print wall and CPU time per pass and "
                                "analysis to stderr"),
                       llvm::cl::cat(Debug)};
  llvm::cl::opt<std::string> TimingFormat{
      "timing-format", llvm::cl::desc("--timing output: text or json"),
      llvm::cl::init("text"), llvm::cl::value_desc("text|json"), llvm::cl::cat(Debug)};
  llvm::cl::opt<bool> PassStatistics{
      "pass-statistics", llvm::cl::desc("Print each pass's counters to stderr"),
      llvm::cl::cat(Debug)};
  llvm::cl::opt<std::string> TimeTrace{
      "time-trace",
      llvm::cl::desc("Write a Chrome trace of tl-opt's own run to FILE"),
      llvm::cl::value_desc("file"), llvm::cl::cat(Debug)};
};

/// The settings the command line gives.
SessionSettings flagSettings(const Options &O);

/// libLLVM registers some options of its own under names tl-opt uses
/// (e.g. `threads`); drop those so ours can be registered.
void releaseOptionNames();

/// Prints "tl-opt: error: <Msg>" (terminal-safe) and returns exit code 1.
[[nodiscard]] int fail(const llvm::Twine &Msg);
[[nodiscard]] int fail(llvm::Error E);

} // namespace tl

#endif // TL_TOOLS_TLOPT_OPTIONS_H
