//===- Charts.h - The report's SVG charts -----------------------*- C++ -*-===//
//
// Private to lib/Report: the charts ChartEmitter writes as files, for other
// emitters that embed them (analysis.html inlines both).
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_CHARTS_H
#define TL_LIB_REPORT_CHARTS_H

namespace llvm {
class raw_ostream;
}

namespace tl {

struct ReportContext;
class ReportModel;

/// performance_breakdown.svg: per-category kernel time + non-computing time.
void renderBreakdownSvg(llvm::raw_ostream &OS, const ReportContext &Ctx,
                        const ReportModel &M);
/// gpu_timeline.svg: busy / idle / communication / memcpy per time bucket.
void renderTimelineSvg(llvm::raw_ostream &OS, const ReportContext &Ctx);

} // namespace tl

#endif // TL_LIB_REPORT_CHARTS_H
