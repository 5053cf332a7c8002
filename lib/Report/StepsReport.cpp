//===- StepsReport.cpp - The steps in the report --------------------------===//
#include "StepsReport.h"
#include "ReportUtil.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/StepTable.h"
#include "tl/IR/TraceWindow.h"
#include "tl/Report/CsvTable.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tl {
namespace {

/// What the report says about the window.
struct StepsSummary {
  const TraceWindow *Window = nullptr;
  std::string Spec = "all";
  std::vector<int64_t> Selected, Recorded;
  /// Flagged steps inside and outside the selection.
  std::vector<std::pair<int64_t, std::string>> FlaggedIn, FlaggedOut;
  bool Any = false; // the trace has steps
};

StepsSummary summarize(const ReportContext &Ctx) {
  StepsSummary S;
  const StepTable &ST = Ctx.AM.get<StepTable>();
  S.Window = traceWindow(Ctx.T);
  if (S.Window) {
    S.Spec = S.Window->Spec;
    S.Selected = S.Window->Steps;
    S.Recorded = S.Window->AllSteps;
  } else {
    for (const StepRow &R : ST.rows())
      S.Selected.push_back(R.W.Number);
    S.Recorded = S.Selected;
  }
  S.Any = !S.Recorded.empty();
  for (const auto &F : ST.flagged())
    (is_contained(S.Selected, F.first) ? S.FlaggedIn : S.FlaggedOut)
        .push_back(F);
  return S;
}

std::string flagText(ArrayRef<std::pair<int64_t, std::string>> Flags) {
  std::vector<std::string> Parts;
  for (const auto &[N, What] : Flags)
    Parts.push_back(What + " step #" + std::to_string(N));
  return join(Parts, " and ");
}

double ms(double Us) { return Us / 1000; }

class StepsEmitter final : public Emitter {
public:
  StringRef name() const override { return "steps-csv"; }
  bool needsPassResults() const override { return false; }
  Error emit(const ReportContext &Ctx) override {
    const StepTable &ST = Ctx.AM.get<StepTable>();
    if (ST.empty())
      return Error::success();
    CsvTable Tab({"step", "window_start_us", "window_end_us", "step_time_ms",
                  "computation_time_ms", "exposed_comm_time_ms",
                  "exposed_memcpy_time_ms", "busy_time_ms", "idle_time_ms",
                  "total_comm_time_ms", "total_memcpy_time_ms",
                  "cpu_start_us", "cpu_end_us", "gpu_events", "gpu_lag_ms",
                  "flags"});
    for (const StepRow &R : ST.rows()) {
      const StepWindow &W = R.W;
      Tab.addRow({pyInt(W.Number), pyFloat(W.Start), pyFloat(W.End),
                  pyFloat(ms(W.time())), pyFloat(ms(R.Computation)),
                  pyFloat(ms(R.ExposedComm)), pyFloat(ms(R.ExposedMemcpy)),
                  pyFloat(ms(R.Busy)), pyFloat(ms(R.idle())),
                  pyFloat(ms(R.TotalComm)), pyFloat(ms(R.TotalMemcpy)),
                  pyFloat(W.CpuStart), pyFloat(W.CpuEnd),
                  pyInt(int64_t(W.GpuEvents)),
                  W.Gpu ? pyFloat(ms(W.Gpu->End - W.CpuEnd)) : PyValue(),
                  pyText(ST.flagsOf(W.Number))});
    }
    return writeCsvTable(Ctx.OutputDir, "steps.csv", Tab);
  }
};

} // namespace

void renderStepsHeader(raw_ostream &OS, const ReportContext &Ctx) {
  StepsSummary S = summarize(Ctx);
  if (!S.Any)
    return;
  OS << "**Steps analysed**: ";
  if (S.Window) {
    OS << describeSteps(S.Selected) << " (`--steps=" << S.Spec << "`, "
       << S.Selected.size() << " of " << S.Recorded.size() << " steps";
    if (!S.FlaggedOut.empty())
      OS << "; left out: " << flagText(S.FlaggedOut);
    OS << "); every table and finding covers this window only.";
  } else {
    OS << "all, " << describeSteps(S.Selected) << " (" << S.Selected.size()
       << " step" << (S.Selected.size() == 1 ? "" : "s")
       << ", `--steps=all`).";
  }
  if (!S.FlaggedIn.empty()) {
    std::string F = flagText(S.FlaggedIn);
    F[0] = toUpper(F[0]);
    OS << " " << F << " found: `--steps=steady` leaves "
       << (S.FlaggedIn.size() == 1 ? "it" : "them") << " out.";
  }
  OS << " Per-step times: [Appendix: steps](#steps), `steps.csv`.\n\n";
}

void renderStepsAppendix(raw_ostream &OS, const ReportContext &Ctx) {
  const StepTable &ST = Ctx.AM.get<StepTable>();
  if (ST.empty())
    return;
  OS << "\n### Steps\n\n<a id=\"steps\"></a>\n\n";
  OS << "Each step's window runs from the end of the previous step's window "
        "(or its CPU start) to the later of its CPU end and the end of the "
        "GPU work it launched; ";
  if (ST.launchMode())
    OS << "the GPU timeline is measured over the GPU work the step launched, "
          "wherever it ran, and idle from its first start to its last end "
          "(`--step-mode=launch`: steps that overlap on the GPU count the "
          "overlap twice).";
  else
    OS << "the GPU timeline is measured inside it.";
  const SteadyRule &Rule = ST.steadyRule();
  if (Rule.TooFew)
    OS << " Too few steps for steady-state detection (fewer than 3 that "
          "are not truncated): `--steps=steady` keeps them all.";
  else
    OS << " Steady-state rule: median step time " << fixed(ms(Rule.Median), 3)
       << " ms, tolerance " << fixed(ms(Rule.Tol), 3)
       << " ms (the larger of 25 % of the median and 3 × 1.4826 × the median "
          "absolute deviation); slower leading steps are warm-up, other steps "
          "beyond it outliers, and `--steps=steady` keeps the longest run "
          "without them.";
  OS << "\n\n";
  OS << "| Step | Step time (ms) | Compute (ms) | Exposed comm (ms) | "
        "Exposed memcpy (ms) | Idle (ms) | Idle % | GPU events | Flags |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  for (const StepRow &R : ST.rows()) {
    double T = R.W.time();
    std::string Flags = ST.flagsOf(R.W.Number);
    OS << "| " << R.W.Number << " | " << fixed(ms(T), 3) << " | "
       << fixed(ms(R.Computation), 3) << " | " << fixed(ms(R.ExposedComm), 3)
       << " | " << fixed(ms(R.ExposedMemcpy), 3) << " | "
       << fixed(ms(R.idle()), 3) << " | "
       << (R.Total > 0 ? fixed(R.idle() / R.Total * 100, 2)
                       : std::string("—"))
       << " | "
       << R.W.GpuEvents << " | " << (Flags.empty() ? "—" : Flags) << " |\n";
  }
}

void writeStepsJson(json::OStream &J, const ReportContext &Ctx) {
  StepsSummary S = summarize(Ctx);
  if (!S.Any)
    return;
  J.attributeObject("steps", [&] {
    J.attribute("selection", S.Spec);
    J.attribute("step_mode",
                Ctx.AM.get<StepTable>().launchMode() ? "launch" : "window");
    J.attributeBegin("window");
    if (S.Window)
      J.object([&] {
        J.attribute("host_start_us", S.Window->HostStart);
        J.attribute("host_end_us", S.Window->HostEnd);
        J.attribute("gpu_start_us", S.Window->GpuStart);
        J.attribute("gpu_end_us", S.Window->GpuEnd);
        J.attribute("recorded_events",
                    static_cast<int64_t>(S.Window->RecordedEvents));
      });
    else
      J.value(nullptr);
    J.attributeEnd();
    J.attributeArray("selected", [&] {
      for (int64_t N : S.Selected)
        J.value(N);
    });
    J.attributeArray("recorded", [&] {
      for (int64_t N : S.Recorded)
        J.value(N);
    });
    J.attributeArray("flagged", [&] {
      for (const auto &List : {S.FlaggedIn, S.FlaggedOut})
        for (const auto &[N, What] : List)
          J.object([&] {
            J.attribute("step", N);
            J.attribute("flag", What);
            J.attribute("selected", is_contained(S.Selected, N));
          });
    });
    const SteadyRule &R = Ctx.AM.get<StepTable>().steadyRule();
    J.attributeObject("steady_rule", [&] {
      J.attribute("median_step_ms", ms(R.Median));
      J.attribute("tolerance_ms", ms(R.Tol));
      J.attribute("too_few_steps", R.TooFew);
    });
    J.attributeBegin("suggestion");
    if (!S.FlaggedIn.empty())
      J.value("--steps=steady");
    else
      J.value(nullptr);
    J.attributeEnd();
  });
}

std::unique_ptr<Emitter> createStepsEmitter() {
  return std::make_unique<StepsEmitter>();
}

} // namespace tl
