//===- ComputeCore.h - Shared core of the compute-tier analyzers -*- C++ -*-===//
//
// tracelens-analysis §5: the pieces every compute pass (gemm, sdpa, ...)
// shares — the operations[] record of one unified_perf_summary row, its
// efficiency block, library detection, the fusion flag, impact estimates
// and their grouping into P-item findings. Input rows are the agent-flavour
// unified_perf_summary text table (the CSV the reference reads), so every
// number goes through the same text the reference parses.
//
//===----------------------------------------------------------------------===//
#ifndef TL_COMPUTE_COMPUTECORE_H
#define TL_COMPUTE_COMPUTECORE_H

#include "tl/Analysis/PerfSheets.h"
#include "tl/Support/PyValue.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl::compute {

/// A CSV number as pandas 1.5's default C parser reads it
/// (precise_xstrtod): at most 17 significant digits counted from the first
/// digit, leading zeros included, then one scaling by a power of ten. This
/// is not always the nearest double ("0.16666666666666666" reads as
/// 0.1666666666666666), and the reference's numbers went through it.
std::optional<double> pandasFloat(llvm::StringRef Text);

/// One row of the unified table, read by column name like a pandas row.
class RowView {
public:
  RowView(const TextTable &T, size_t Row) : T(&T), Row(Row) {}
  /// Cell text, "" when the column is missing.
  llvm::StringRef text(llvm::StringRef Column) const;
  /// Number (nullopt for an empty / unparsable / NaN cell).
  std::optional<double> num(llvm::StringRef Column) const;
  bool has(llvm::StringRef Column) const { return T->column(Column) >= 0; }
  size_t index() const { return Row; }

private:
  const TextTable *T;
  size_t Row;
};

/// Platform peaks as the reference's metadata holds them.
struct Peaks {
  /// max_achievable_tflops in file order.
  std::vector<std::pair<std::string, double>> MaxTflops;
  /// mem_bw_gbps / 1000; nullopt without an arch.
  std::optional<double> HbmTbs;
  /// matrix_bf16 (the reference's peak_maf_tflops); nullopt when absent.
  std::optional<double> matrixBf16() const;
  std::optional<double> lookup(llvm::StringRef Spec) const;
};

/// A JSON number that keeps Python's int/float distinction: arch peaks are
/// ints in the arch files, round(int, 2) stays an int.
PyValue peakValue(double V);

/// kernel name -> fusion operation name (kernel_fusion_metrics.json's
/// high_confidence_kernel_map), in map order.
using FusionKernelMap = std::vector<std::pair<std::string, std::string>>;

struct CategoryContext {
  std::string Key;     // "gemm"
  std::string Display; // "GEMM"
  /// gpu_utilization.total_time_ms (E2E, unrounded).
  double E2EMs = 0;
  Peaks P;
  FusionKernelMap Fusion;
};

struct Efficiency {
  std::optional<double> TflopsAchieved, TbsAchieved, EfficiencyPercent,
      FlopsPerByte;
  std::string ComputeSpec; // "" = null
  PyValue ResolvedPeakMaf; // int or float
  std::optional<double> ResolvedPeakHbm;
  std::string BoundType; // "compute", "memory", "" = null
  std::string Warning;   // "" = null
  bool IsAnomaly = false;
};

/// operations[i] (spec §5.2). Extra fields and the classification are
/// filled by the pass.
struct OpRecord {
  size_t Row = 0; // index into the text table
  std::string Name;
  int64_t Count = 1;
  double TimeMs = 0; // rounded 3
  double PercentOfCategory = 0;
  std::optional<double> PercentOfTotal;
  Efficiency Eff;
  std::vector<std::pair<std::string, PyValue>> Extra;
  std::optional<std::string> Args;
  std::optional<double> Cov;
  bool HighVariance = false;
  std::optional<PyValue> Classification;
  std::string Library; // "" = null
  std::string FusionCandidate; // "" = not flagged
  std::string LauncherPath;
  std::string KernelName, KernelNameTrunc;
  std::vector<std::string> ModuleChain;
  std::optional<std::vector<std::string>> CallChain;
  /// Not in the reference schema: for evidence tables.
  std::optional<double> FlopsPerByteRaw;
  /// Comparative scope (tl-opt --compare): t2_time_ms, count_trace2,
  /// difference_ms (§5.2).
  std::optional<double> T2TimeMs, DifferenceMs;
  std::optional<int64_t> CountTrace2;
};

struct ImpactEstimate {
  size_t Op = 0; // index into operations[] (the join the reference lacks)
  std::string Operation, Category;
  bool Quantified = true;
  double Mid = 0, Low = 0, High = 0; // rounded 2
  std::optional<double> EfficiencyPct;
  std::string BoundType; // "" = null
  std::string Library;   // "" = null
  double TimeMs = 0;
  std::optional<double> PercentOfTotal; // heuristic only
};

struct CategoryFinding {
  std::string BoundType, Library, EffBucket;
  bool Quantified = true;
  double Mid = 0, Low = 0, High = 0;
  std::optional<double> PercentOfTotal; // heuristic only
  std::vector<ImpactEstimate> Members;
  unsigned Rank = 0;
};

//===--- Rendering (§5.4) ---------------------------------------------===//

/// dtype text as the reference normalises it ("c10::BFloat16" -> "bf16").
std::string normalizeDType(llvm::StringRef Raw);
/// `(2,3) bf16<br>(128,) bf16`, nullopt when nothing is left.
std::optional<std::string> renderArgs(llvm::StringRef InputDims,
                                      llvm::StringRef InputType);
/// (kernel_name, kernel_name_trunc) from call_stack_full.
std::pair<std::string, std::string> kernelNames(llvm::StringRef CallStack);
/// Top-level `nn.Module: X` frames, prefix removed, outermost first.
std::vector<std::string> moduleChain(llvm::StringRef CallStack);
/// Top-level frames that are user code (spec §5.2 call_chain).
std::vector<std::string> callChain(llvm::StringRef CallStack);
/// A Python dict literal with string keys ("{'M': 141, 'bias': True}"),
/// values parsed as literals; nullopt when it is not one.
std::optional<std::vector<std::pair<std::string, PyValue>>>
parsePyDict(llvm::StringRef Text);
/// Case-insensitive "contains any of".
bool containsAnyCI(llvm::StringRef Text, llvm::ArrayRef<const char *> Needles);
/// launcher_path.
std::string launcherPath(llvm::StringRef EntryPoint,
                         llvm::ArrayRef<std::string> ModuleChain,
                         llvm::StringRef Library);

//===--- Library, fusion, efficiency (§5.3, §5.5, §5.6) ---------------===//

/// "" when nothing matches.
std::string detectLibrary(llvm::StringRef OpName,
                          llvm::StringRef KernelDetailsSummary);
/// Kernel names of a kernel_details_summary literal, in order.
std::vector<std::string> kernelNamesOf(llvm::StringRef KernelDetailsSummary);
/// fusion_candidate_name, "" when no kernel of the op is in the map.
std::string fusionMatch(llvm::ArrayRef<std::string> Kernels,
                        const FusionKernelMap &Map);
/// Comparative: efficiency_percent = 100·T2/T1 from the TraceDiff columns,
/// clamped below by Pct Roofline_mean, never anomalous (§5.3).
Efficiency computeEfficiency(const RowView &R, const Peaks &P,
                             bool Comparative = false);

//===--- Impact and grouping (§5.7, §5.8) ------------------------------===//

constexpr double MinImpactScore = 0.01;
constexpr double MinPItemImpact = 0.5;
/// An op without a perf model that takes at least this % of end-to-end
/// time is named in the report even when no estimate holds it.
constexpr double UnestimatedPct = 1.0;

/// impact_estimates[] sorted by impact_score desc (stable).
/// Comparative: no heuristic estimates (§10.1).
std::vector<ImpactEstimate> estimateImpact(llvm::ArrayRef<OpRecord> Ops,
                                           llvm::StringRef Category,
                                           double E2EMs,
                                           bool Comparative = false);
/// `0-30`, `30-60`, `60-100`, `unknown`.
llvm::StringRef effBucket(std::optional<double> Pct);
/// category_findings[] with ranks.
/// Comparative: quantified groups keyed (bound, library), bucket `all`.
/// Groups with summed mid impact below MinImpact are dropped.
std::vector<CategoryFinding>
groupFindings(llvm::ArrayRef<ImpactEstimate> Estimates,
              bool Comparative = false, double MinImpact = MinPItemImpact);

//===--- JSON -----------------------------------------------------------===//

PyValue toPy(const OpRecord &Op);
PyValue toPy(const ImpactEstimate &E);
PyValue toPy(const CategoryFinding &F);

} // namespace tl::compute

#endif // TL_COMPUTE_COMPUTECORE_H
