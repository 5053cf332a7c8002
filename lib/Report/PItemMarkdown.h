//===- PItemMarkdown.h - Markdown blocks of one P-item ----------*- C++ -*-===//
//
// The two blocks every ranked finding gets (tracelens-analysis §9 items 4-7,
// §11.4): the card (title, Insight, Action, p_item impact marker) and the
// detailed block (reasoning candidate, Identification, Data, Reasoning,
// Resolution, detail_estimate marker). analysis.md and the per-agent
// findings files (category_findings/, system_findings/) print the same
// blocks, so an item reads the same in both.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_PITEMMARKDOWN_H
#define TL_LIB_REPORT_PITEMMARKDOWN_H

#include "ReportUtil.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tl {

/// The canonical compute Data table (§9 item 7, checked by §8.2 item 5):
/// one row per member of a category finding, joined to its record in the
/// category's operations[], both from the passes' metrics artifacts.
class ComputeDataTables {
public:
  static constexpr const char *Columns[] = {
      "Operation", "Args",  "Kernel Path", "Kernel Name", "Time (ms)",
      "%E2E",      "Count", "FLOPS/Byte",  "Efficiency",  "Bound"};
  /// Comparative scope (§8.2 item 5, §10.3): trace 2's time, counts and the
  /// difference from the comparative operations[] fields.
  static constexpr const char *ComparativeColumns[] = {
      "Operation",         "Args (T1)",         "Kernel Path",
      "Kernel Name",       "Trace 1 Time (ms)", "Trace 2 Time (ms)",
      "Count (T1/T2)",     "Difference (ms)",   "FLOPS/Byte (T1)",
      "Bound (T1)"};
  /// Metrics: the categories' metrics documents by file name (held by
  /// reference: the report's views outlive the tables).
  explicit ComputeDataTables(
      const MetricsDocs &Metrics,
      bool Comparative = false)
      : Metrics(Metrics), Comparative(Comparative) {}
  bool comparative() const { return Comparative; }
  /// The header of the tables rows() fills.
  llvm::ArrayRef<const char *> columns() const {
    if (Comparative)
      return ComparativeColumns;
    return Columns;
  }
  /// Rows (cells as text) for the finding of rank Rank in category Key;
  /// empty when the artifacts do not describe it.
  std::vector<std::vector<std::string>> rows(llvm::StringRef Key,
                                             unsigned Rank) const;

private:
  const MetricsDocs &Metrics;
  bool Comparative = false;
};

/// Where a block is printed.
struct PItemPlacement {
  /// The P-number: the tier rank in analysis.md, the rank inside the
  /// category in a findings file (0 = the item's tier rank).
  unsigned Number = 0;
  /// analysis.md: compute p_item markers carry `category=<key>` and cards
  /// link to their detailed block. Findings files have neither (§11.4).
  bool InReport = true;
  /// Source of compute Data tables when the pass's own evidence is not in
  /// the canonical layout (null: print the evidence as it is).
  const ComputeDataTables *Data = nullptr;
};

/// "detailed-analysis-<tier>-p<N>" (`P` capitalised for fusion, like the
/// reference).
std::string detailAnchor(Tier T, unsigned Number);

/// A markdown table cell that renders as S: markup escaped (mdEscape),
/// newlines and "<br>" as line breaks, "—" when empty.
std::string mdCell(llvm::StringRef S);
/// A table cell holding a kernel/op name (or a "<br>"-separated list of
/// them): each name a code span (mdCode).
std::string mdNameCell(llvm::StringRef S);
/// S escaped for inline markdown: CommonMark/GFM render it exactly.
std::string mdInline(llvm::StringRef S);
/// Evidence columns whose string cells are kernel/op names (shown as code
/// spans): op, operation, kernel, kernel name, name, kernel_before,
/// kernel_after, op_after, cpu_op, call (case and '_' vs ' ' ignored).
bool isNameColumn(llvm::StringRef Header);

/// "**Critical path**: x of y ms on the critical path (s %); expected step
/// saving z ms (w% of end-to-end time)." for a P-item with a path share.
std::string pathImpactLine(const PItem &P, const ReportModel &M);
void renderCard(llvm::raw_ostream &OS, const PItem &P, const ReportModel &M,
                PItemPlacement Where = {});
void renderDetail(llvm::raw_ostream &OS, const PItem &P, const ReportModel &M,
                  PItemPlacement Where = {});

} // namespace tl

#endif // TL_LIB_REPORT_PITEMMARKDOWN_H
