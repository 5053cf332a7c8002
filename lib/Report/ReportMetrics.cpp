//===- ReportMetrics.cpp - Report-level numbers --fail-on can gate --------===//
#include "tl/Report/ReportMetrics.h"

#include "tl/Analysis/ProfilerSteps.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Report/ReportModel.h"

#include <iterator>
#include <vector>

using namespace llvm;

namespace tl {

namespace {
// Indexes into Values; keep in the order of Known below.
enum : unsigned { E2e, Compute, Comm, Memcpy, Idle, Step, Steps, Findings };

constexpr ReportMetricInfo Known[] = {
    {"e2e_ms", "end-to-end GPU time, ms (gpu_utilization.total_time_ms)"},
    {"compute_pct",
     "computation, % of E2E (gpu_utilization.computation_time_percent)"},
    {"exposed_comm_pct", "communication not hidden under computation, % of "
                         "E2E (gpu_utilization.exposed_comm_time_percent)"},
    {"exposed_memcpy_pct", "memcpy not hidden under computation, % of E2E "
                           "(gpu_utilization.exposed_memcpy_time_percent)"},
    {"idle_pct", "GPU idle, % of E2E (gpu_utilization.idle_time_percent)"},
    {"step_ms", "typical ProfilerStep#N duration, ms: median of the steps "
                "but the first and last (three or more steps), else of all "
                "but the first"},
    {"steps", "number of ProfilerStep#N markers", true},
    {"findings", "ranked findings, every tier", true},
};
static_assert(std::size(Known) == Findings + 1);
} // namespace

ArrayRef<ReportMetricInfo> ReportMetrics::known() { return Known; }

static std::optional<unsigned> indexOf(StringRef Name) {
  for (unsigned I = 0; I < std::size(Known); ++I)
    if (Known[I].Name == Name)
      return I;
  return std::nullopt;
}

bool ReportMetrics::isKnown(StringRef Name) {
  return indexOf(Name).has_value();
}

ReportMetrics ReportMetrics::compute(const ReportModel &M,
                                     const TraceQuality &Q) {
  static_assert(std::size(Known) == NumMetrics);
  ReportMetrics R;
  const Utilization &U = M.utilization();
  R.HaveTimeline = U.Available;
  if (U.Available) {
    R.Values[E2e] = U.TotalMs;
    R.Values[Compute] = U.ComputationPct;
    R.Values[Comm] = U.ExposedCommPct;
    R.Values[Memcpy] = U.ExposedMemcpyPct;
    R.Values[Idle] = U.IdlePct;
  }
  std::vector<double> Durs;
  for (const ProfilerStep &S : Q.steps())
    Durs.push_back(S.duration());
  R.Values[Steps] = double(Durs.size());
  // One step: its own duration (typicalStepValue leaves nothing).
  if (Durs.size() == 1)
    R.Values[Step] = Durs[0] / 1000;
  else if (std::optional<double> T = typicalStepValue(Durs))
    R.Values[Step] = *T / 1000;
  size_t N = 0;
  for (Tier T : {Tier::Compute, Tier::Fusion, Tier::System})
    N += M.items(T).size();
  R.Values[Findings] = double(N);
  return R;
}

std::optional<double> ReportMetrics::get(StringRef Name) const {
  std::optional<unsigned> I = indexOf(Name);
  return I ? Values[*I] : std::nullopt;
}

std::string ReportMetrics::whyMissing(StringRef Name) const {
  std::optional<unsigned> I = indexOf(Name);
  if (!I)
    return "unknown metric";
  if (Values[*I])
    return "";
  if (*I == Step)
    return "no ProfilerStep#N markers";
  return HaveTimeline ? "not available" : "no GPU timeline";
}

} // namespace tl
