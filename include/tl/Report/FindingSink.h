//===- FindingSink.h - Where passes report findings ------------*- C++ -*-===//
//
// Each pass run gets its own FindingSink; the pass manager merges the sinks in
// pipeline order, so the report order never depends on which thread finished
// first. Within a sink, findings keep their emission order. A sink is safe to
// use from several threads of one pass (emission order is then the order in
// which finding() calls happened).
//
//   Sink.system("exposed-comm", "Communication blocks compute")
//       .time(12.5).share(4.1)            // typed facts the report reads
//       .metric("collective_count", 7)    // the pass's own extras
//       .impact(1.0, 2.0, 3.0)
//       .action("Overlap all-reduce with backward compute")
//       .expect("lower exposed communication time");
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_FINDINGSINK_H
#define TL_REPORT_FINDINGSINK_H

#include "tl/Report/Finding.h"
#include "tl/Report/ReportData.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace tl {

class FindingSink;

/// Fluent editor of one finding that is already in the sink. Only the thread
/// that created it may use it.
class FindingBuilder {
public:
  FindingBuilder &key(llvm::StringRef K);
  FindingBuilder &metric(llvm::StringRef Name, double V,
                         llvm::StringRef Unit = "");
  FindingBuilder &metric(llvm::StringRef Name, int64_t V,
                         llvm::StringRef Unit = "");
  FindingBuilder &metric(llvm::StringRef Name, int V,
                         llvm::StringRef Unit = "") {
    return metric(Name, static_cast<int64_t>(V), Unit);
  }
  FindingBuilder &metric(llvm::StringRef Name, uint64_t V,
                         llvm::StringRef Unit = "") {
    return metric(Name, static_cast<int64_t>(V), Unit);
  }
  FindingBuilder &metric(llvm::StringRef Name, bool V);
  FindingBuilder &metric(llvm::StringRef Name, llvm::StringRef V);
  FindingBuilder &metric(llvm::StringRef Name, const char *V) {
    return metric(Name, llvm::StringRef(V));
  }

  /// Typed facts (FindingFacts): each sets its member and lists it in
  /// Metrics under its findings.json name, in call order.
  FindingBuilder &time(double Ms);                 // time_ms, ms
  FindingBuilder &share(double PctOfTotal);        // percent_of_total, %
  FindingBuilder &exposedShare(double PctOfTotal); // exposed_percent_of_total
  /// impact_score, impact_score_low, impact_score_high with Unit.
  FindingBuilder &score(double Low, double Mid, double High,
                        llvm::StringRef Unit = "%");
  FindingBuilder &estimateMethod(llvm::StringRef Method);
  FindingBuilder &members(int64_t N);        // member_count
  FindingBuilder &instances(int64_t N);      // instance_count
  FindingBuilder &kernels(int64_t N);        // kernel_count
  FindingBuilder &modeledKernels(int64_t N); // modeled_kernel_count
  FindingBuilder &rank(int64_t R);           // rank
  FindingBuilder &categoryKey(llvm::StringRef Key);
  FindingBuilder &boundType(llvm::StringRef Bound);
  FindingBuilder &library(llvm::StringRef Lib);
  FindingBuilder &effBucket(llvm::StringRef Bucket);
  FindingBuilder &fusionType(llvm::StringRef Type);
  FindingBuilder &confidence(llvm::StringRef Conf);
  FindingBuilder &estimation(llvm::StringRef How);
  FindingBuilder &efficiency(double Pct);    // efficiency_pct, %
  FindingBuilder &flopsPerByte(double V);    // flops_per_byte
  /// The finding belongs to Face's report only (report_face).
  FindingBuilder &onlyIn(ReportFace Face);

  FindingBuilder &evidence(EvidenceTable Table);
  /// Quantified impact, percent of E2E.
  FindingBuilder &impact(double LowPct, double MidPct, double HighPct,
                         llvm::StringRef Method = "");
  /// Explicitly not quantified (heuristic finding).
  FindingBuilder &nonQuantified(llvm::StringRef Method = "heuristic");
  FindingBuilder &severity(Severity S);
  FindingBuilder &event(uint64_t Uid);
  FindingBuilder &op(llvm::StringRef Name);
  FindingBuilder &kernel(llvm::StringRef Name);
  FindingBuilder &timeRange(double StartUs, double EndUs);
  /// Add trace events (EventId) the finding's time comes from
  /// (Finding::Events).
  FindingBuilder &events(llvm::ArrayRef<uint32_t> Ids);
  /// The insight sentence(s) analysis.md shows instead of the template.
  FindingBuilder &insight(llvm::StringRef Text);
  FindingBuilder &action(llvm::StringRef Text);
  FindingBuilder &mechanism(llvm::StringRef Text);
  FindingBuilder &expect(llvm::StringRef Text);
  FindingBuilder &note(llvm::StringRef Text);

  Finding &get() { return *F; }

private:
  friend class FindingSink;
  explicit FindingBuilder(Finding *F) : F(F) {}
  Finding *F;
};

class FindingSink {
public:
  explicit FindingSink(llvm::StringRef PassName);
  FindingSink(const FindingSink &) = delete;
  FindingSink &operator=(const FindingSink &) = delete;

  llvm::StringRef passName() const { return PassName; }

  FindingBuilder finding(Tier T, llvm::StringRef Category,
                         llvm::StringRef Title);
  FindingBuilder compute(llvm::StringRef Category, llvm::StringRef Title) {
    return finding(Tier::Compute, Category, Title);
  }
  FindingBuilder fusion(llvm::StringRef Category, llvm::StringRef Title) {
    return finding(Tier::Fusion, Category, Title);
  }
  FindingBuilder system(llvm::StringRef Category, llvm::StringRef Title) {
    return finding(Tier::System, Category, Title);
  }

  /// Contribute a whole file of the pass's own to the report (relative
  /// path inside the output directory). A later artifact with the same
  /// path replaces the earlier one. The reference-schema files
  /// (category_data/, metadata/, priority_data.json) are the report's: a
  /// path among them is refused with an error naming it; hand their data
  /// over with categoryMetrics() / multiKernelData() / fusionCandidates().
  [[nodiscard]] llvm::Error artifact(llvm::StringRef RelPath,
                                     std::string Content);

  /// The metrics of category Key, in the reference's schema: the report
  /// writes them as category_data/<Key>_metrics.json and reads them for
  /// priority_data.json and analysis.md. A later document for the same key
  /// replaces the earlier one.
  void categoryMetrics(llvm::StringRef Key, PyValue Doc,
                       bool TrailingNewline = false,
                       JsonSpelling Spelling = JsonSpelling::Python);
  /// category_data/multi_kernel_data.json (ReportData::MultiKernelData;
  /// tl's spelling, with a trailing newline).
  void multiKernelData(PyValue Doc);
  /// The trace's fusion candidates (ReportData::FusionCandidates), written
  /// as category_data/fusion_candidates.json; the manifest counts them.
  void fusionCandidates(std::vector<FusionCandidateEntry> Candidates);

  size_t size() const;
  /// Move the artifacts out, in emission order.
  std::vector<Artifact> takeArtifacts();
  /// Move the typed report data out.
  ReportData takeReportData();
  /// Move the findings out, in emission order, with ids computed.
  std::vector<Finding> take();

private:
  std::string PassName;
  mutable std::mutex M;
  // deque: builders keep pointers to elements while others are appended.
  std::deque<Finding> Findings;
  std::vector<Artifact> Artifacts;
  ReportData Data;
};

/// Concatenate per-pass findings in the given (pipeline) order and make ids
/// unique: a repeated id gets "-2", "-3", ... in order of appearance.
std::vector<Finding> mergeFindings(std::vector<std::vector<Finding>> PerPass);

} // namespace tl

#endif // TL_REPORT_FINDINGSINK_H
