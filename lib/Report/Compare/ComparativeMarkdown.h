//===- ComparativeMarkdown.h - Comparative analysis.md blocks -*- C++ -*-===//
//
// tracelens-analysis §10.3: with --compare, analysis.md keeps the
// standalone structure (§9) and swaps these blocks: the title names both
// platforms, the executive-summary and Top Operations tables get trace 1 /
// trace 2 columns and a Difference (T2 - T1), the fusion section says its
// savings are measured and the system section that it covers trace 1 only.
// The analysis.md emitter calls these when comparativeReport() is true.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_COMPARE_COMPARATIVEMARKDOWN_H
#define TL_LIB_REPORT_COMPARE_COMPARATIVEMARKDOWN_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
}

namespace tl {

struct ReportContext;
class ReportModel;

/// A reference trace is loaded (tl-opt --compare).
bool comparativeReport(const ReportContext &Ctx);

/// `# <Model> - Comparative Analysis: <Platform1> vs <Platform2>`.
void renderComparativeTitle(llvm::raw_ostream &OS, const ReportContext &Ctx,
                            llvm::StringRef Model);
/// `| Metric | Trace 1 - (<P1>) | Trace 2 - (<P2>) | Difference |`, the
/// five metric rows.
void renderComparativeSummaryTable(llvm::raw_ostream &OS,
                                   const ReportContext &Ctx,
                                   const ReportModel &M);
/// The Top Operations table (inside the top_ops marker) with Trace 1 /
/// Trace 2 times and their difference.
void renderComparativeTopOps(llvm::raw_ostream &OS, const ReportContext &Ctx,
                             const ReportModel &M);
/// Notes under the fusion and system-level headings.
void renderComparativeFusionNote(llvm::raw_ostream &OS);
void renderComparativeSystemNote(llvm::raw_ostream &OS,
                                 const ReportContext &Ctx);

} // namespace tl

#endif // TL_LIB_REPORT_COMPARE_COMPARATIVEMARKDOWN_H
