//===- Finding.h - One result of an analysis pass --------------*- C++ -*-===//
//
// A finding is what a pass reports: which tier it belongs to (compute kernel
// tuning, kernel fusion, system-level), what it is about, the numbers and
// evidence tables behind it, its estimated impact on end-to-end time, where
// in the trace it points, and what to do about it (tracelens-analysis §5, §7).
//
// Its id is stable: derived from pass, category and a key the pass chooses
// (default: the title), so two runs over two traces can be diffed.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_FINDING_H
#define TL_REPORT_FINDING_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace llvm {
class raw_ostream;
namespace json {
class Value;
} // namespace json
} // namespace llvm

namespace tl {

enum class Tier { Compute, Fusion, System };
llvm::StringRef tierName(Tier T);
std::optional<Tier> parseTier(llvm::StringRef Name);

enum class Severity { Info, Low, Medium, High };
llvm::StringRef severityName(Severity S);

/// A metric or table cell: number, integer, string or bool.
using Value = std::variant<double, int64_t, std::string, bool>;
void printValue(llvm::raw_ostream &OS, const Value &V);

struct Metric {
  std::string Name;
  Value V;
  /// Optional unit ("ms", "%", "TFLOP/s").
  std::string Unit;
};

struct EvidenceTable {
  std::string Title;
  std::vector<std::string> Columns;
  std::vector<std::vector<Value>> Rows;
};

/// Estimated saving as percent of end-to-end GPU time. Quantified impacts
/// carry a low/mid/high triple; others (heuristic findings) say so.
struct Impact {
  bool Quantified = false;
  double LowPct = 0;
  double MidPct = 0;
  double HighPct = 0;
  /// How it was estimated ("roofline", "heuristic", ...).
  std::string Method;
  Severity Sev = Severity::Info;
};

struct Location {
  enum class Kind { Event, Op, Kernel, TimeRange };
  Kind K = Kind::Event;
  /// Event uid (Kind::Event).
  uint64_t Uid = 0;
  /// Op or kernel name.
  std::string Name;
  /// Time range in µs (Kind::TimeRange).
  double StartUs = 0;
  double EndUs = 0;
};
llvm::StringRef locationKindName(Location::Kind K);

struct Recommendation {
  std::string Action;
  std::string Mechanism;
  /// Which metric should move and how ("lower exposed comm time").
  std::string Expected;
};

/// A file of a pass's own it contributes to the report besides its
/// findings (never a reference-schema file: FindingSink::artifact). Path
/// is relative to the output directory.
struct Artifact {
  std::string Pass;
  std::string Path;
  std::string Content;
};

/// Which report a finding is for: tl's own (findings.json, analysis.md, ...)
/// or the reference-compatible files (priority_data.json).
enum class ReportFace { Tl, Reference };

/// The reference's impact score of a finding (priority_data.json's
/// impact_score, _low, _high; percent of end-to-end time). When set it is
/// what the report ranks by, over Impact's triple.
struct ImpactScore {
  double Mid = 0;
  /// Absent: Mid.
  std::optional<double> Low, High;
};

/// What the report reads from a finding, as typed members: the pass →
/// report contract (docs/ReportFormat.md, "The pass → report contract").
/// FindingBuilder's setters fill a member and list it in Finding::Metrics
/// too, under its findings.json name (given with each member); the report
/// never looks a metric up by name. Absent members: the pass does not say.
struct FindingFacts {
  /// Time the finding covers, ms (time_ms).
  std::optional<double> TimeMs;
  /// That time's share of the trace window, % (percent_of_total).
  std::optional<double> PercentOfTotal;
  /// Share of the window during which it is exposed (not overlapped with
  /// compute), % (exposed_percent_of_total).
  std::optional<double> ExposedPercentOfTotal;
  /// impact_score, impact_score_low, impact_score_high.
  std::optional<ImpactScore> Score;
  /// "quantified" / "heuristic" (estimate_method); empty: Impact::Method.
  std::string EstimateMethod;
  /// Operations a group holds (member_count), instances of a pattern
  /// (instance_count), kernels and modelled kernels in it (kernel_count,
  /// modeled_kernel_count).
  std::optional<int64_t> MemberCount, InstanceCount, KernelCount,
      ModeledKernelCount;
  /// Rank within (pass, category), from 1 (rank); absent: emission order.
  std::optional<int64_t> Rank;
  /// The category's file key (category_key, "gemm" of gemm_metrics.json);
  /// empty: derived from Finding::Category.
  std::string CategoryKey;
  /// "compute" / "memory" (bound_type), library (library), efficiency
  /// bucket (eff_bucket), fusion type (fusion_type), confidence
  /// (confidence), how a saving was estimated, e.g. "measured"
  /// (estimation).
  std::string BoundType, Library, EffBucket, FusionType, Confidence,
      Estimation;
  /// Time-weighted % of roofline (efficiency_pct); FLOPs per byte
  /// (flops_per_byte).
  std::optional<double> EfficiencyPct, FlopsPerByte;
  /// The one report face the finding belongs to (report_face); absent:
  /// both.
  std::optional<ReportFace> OnlyFace;
};

struct Finding {
  Tier T = Tier::Compute;
  std::string Pass;
  std::string Category;
  /// Stable id, filled by computeId() (pass manager does it on merge).
  std::string Id;
  /// What makes this finding unique within (pass, category); default title.
  std::string Key;
  std::string Title;
  /// Everything the pass measured, in its order: what findings.json and
  /// the metrics table list. The typed facts are listed here too; a pass's
  /// own extras live only here.
  std::vector<Metric> Metrics;
  FindingFacts Facts;
  std::vector<EvidenceTable> Evidence;
  Impact Imp;
  std::vector<Location> Locations;
  /// The trace events (EventId) the finding's time comes from, e.g. the
  /// kernels of its ops; the report weighs its saving by how much of their
  /// time lies on the critical path (PathImpact.h). Empty: not known.
  std::vector<uint32_t> Events;
  Recommendation Rec;
  /// What the trace shows, in the pass's words (analysis.md's Insight);
  /// empty: the report writes it from the tier's template.
  std::string Insight;
  std::vector<std::string> Notes;

  /// `<pass>.<category>.<16 hex digits of xxh3(pass,category,key)>`.
  std::string computeId() const;
};

} // namespace tl

#endif // TL_REPORT_FINDING_H
