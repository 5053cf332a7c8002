//===- AnalysisMarkdown.h - analysis.md as text -----------------*- C++ -*-===//
//
// Private to lib/Report: the text of analysis.md, for emitters that present
// the same report in another form (analysis.html), so a change to the
// report's content or prose shows in every form.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_ANALYSISMARKDOWN_H
#define TL_LIB_REPORT_ANALYSISMARKDOWN_H

namespace llvm {
class raw_ostream;
}

namespace tl {

struct ReportContext;
class ReportModel;

/// Exactly what AnalysisMdEmitter writes to analysis.md.
void renderAnalysisMarkdown(llvm::raw_ostream &OS, const ReportContext &Ctx,
                            const ReportModel &M);

} // namespace tl

#endif // TL_LIB_REPORT_ANALYSISMARKDOWN_H
