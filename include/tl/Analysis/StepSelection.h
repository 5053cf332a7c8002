//===- StepSelection.h - --steps: which ProfilerSteps to analyse -*- C++ -*-===//
//
// The step rules of spec multi-rank.md §2.4: each ProfilerStep#N's CPU
// range C(N), the GPU events it launched (K, G), and its window W(N) (the
// TensorBoard plugin's rule: windows tile the timeline and stretch to the
// end of the step's GPU work). A --steps spec picks a contiguous run of
// steps; stepRestriction() says which events belong to it, for the IR edit
// restrictTrace() (tl/Import/TraceRestrict.h).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_STEPSELECTION_H
#define TL_ANALYSIS_STEPSELECTION_H

#include "tl/IR/Trace.h"
#include "tl/IR/TraceWindow.h"
#include "tl/Support/Intervals.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// One ProfilerStep with its §2.4 quantities (µs).
struct StepWindow {
  int64_t Number = -1;
  double CpuStart = 0, CpuEnd = 0; // C(N)
  /// K(N): GPU events launched by the step's host events (by the IR's link,
  /// else a runtime call with the same correlation).
  uint64_t GpuEvents = 0;
  std::optional<Interval> Gpu; // G(N): their first start and last end
  double Start = 0, End = 0;   // W(N)
  /// The quality gate's truncation checks flag the last step; the
  /// steady-state rule (steadyRule) flags warm-up and outlier steps.
  bool Warmup = false, Truncated = false, Outlier = false;
  double time() const { return End - Start; }
};

/// The steady-state rule of spec multi-rank.md §2.4 on step times T
/// (candidates only: no truncated step): m = median, MAD = median |T - m|,
/// tol = max(0.25 m, 3 x 1.4826 x MAD), all computed once; leading steps
/// with T > m + tol are warm-up while two candidates would remain; the rest
/// with |T - m| > tol are outliers; the selection is the longest run of
/// non-outliers (ties: the later run). Fewer than 3 candidates: all of them.
struct SteadyRule {
  /// Positions in the candidate list; none when nothing is left.
  std::optional<std::pair<size_t, size_t>> Selection;
  std::vector<size_t> Warmup, Outliers;
  double Median = 0, Mad = 0, Tol = 0;
  bool TooFew = false;
};
SteadyRule steadyRule(llvm::ArrayRef<double> Times);

struct StepWindows {
  std::vector<StepWindow> Steps; // start order
  /// The steady-state rule on the steps that are not truncated, with its
  /// selection as positions in Steps.
  SteadyRule Steady;
  /// GPU events with no launch that ran before the first step's GPU work.
  uint64_t PreTraceGpu = 0;
  /// Some of them end after the first step's CPU start (§2.4
  /// `partial_start`: leftover work overlaps the first step).
  bool PartialStart = false;
};

/// The steps of T (collectProfilerSteps order) and their windows.
/// FirstStart replaces the first step's window start (a window of steps
/// keeps the start measured on the recorded trace).
StepWindows computeStepWindows(const Trace &T,
                               std::optional<double> FirstStart = std::nullopt);

/// For each step of Steps (its CPU ranges), the GPU events it launched:
/// the events K(N) counts, in gpuEvents() order (--step-mode=launch).
std::vector<std::vector<EventId>>
launchedGpuEvents(const Trace &T, llvm::ArrayRef<StepWindow> Steps);

/// A parsed --steps value.
struct StepSpec {
  enum class Kind { All, Steady, Hta, Range, First, Last };
  Kind K = Kind::All;
  int64_t A = 0, B = 0; // Range: A..B; First/Last: A steps
  std::string Text;     // as given
  bool isAll() const { return K == Kind::All; }
};

/// all | steady | hta | N | A..B (or A-B) | first:N | last:N. Errors read
/// "--steps=TEXT: ...".
llvm::Expected<StepSpec> parseStepSpec(llvm::StringRef Text);

/// The positions [First, Last] in Steps.Steps that Spec selects; errors
/// name what the trace has ("--steps=9..12: the trace has
/// ProfilerStep#3..#7"). Not for All.
llvm::Expected<std::pair<size_t, size_t>> selectSteps(const StepSpec &Spec,
                                                      const StepWindows &W);

/// "ProfilerStep#3..#7", "ProfilerStep#6", "ProfilerStep#1, #3, #4".
std::string describeSteps(llvm::ArrayRef<int64_t> Numbers);

/// What restrictTrace() keeps for the steps [First, Last]: host events with
/// ts in [C(First).start, C(Last).end); GPU events whose launch is kept,
/// wherever they run; GPU events without a launch (and GPU-side
/// annotations) that start in [W(First).start, W(Last).end).
struct StepRestriction {
  std::vector<uint8_t> Keep;
  TraceWindow Window;
};
StepRestriction stepRestriction(const Trace &T, const StepWindows &W,
                                size_t First, size_t Last,
                                llvm::StringRef Spec);

} // namespace tl

#endif // TL_ANALYSIS_STEPSELECTION_H
