//===- Charts.h - The report's SVG charts -----------------------*- C++ -*-===//
//
// Private to lib/Report: the charts ChartEmitter writes as files, for other
// emitters that embed them (analysis.html inlines them).
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_CHARTS_H
#define TL_LIB_REPORT_CHARTS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

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

/// "<workload> on <arch>": the subject of every chart title.
std::string chartSubject(const ReportContext &Ctx);

/// Why there is no roofline.svg (one line), or nullopt when there is one.
std::optional<std::string> rooflineUnavailable(const ReportContext &Ctx);
/// roofline.svg (Charts/RooflineChart.cpp); only when rooflineUnavailable
/// is nullopt.
void renderRooflineSvg(llvm::raw_ostream &OS, const ReportContext &Ctx,
                       llvm::StringRef Title);
/// idle_by_cause.svg (Charts/IdleByCauseChart.cpp).
void renderIdleByCauseSvg(llvm::raw_ostream &OS, const ReportContext &Ctx,
                          llvm::StringRef Title);
/// compare_categories.svg (Charts/CompareChart.cpp): only with --compare.
bool hasCompareChart(const ReportContext &Ctx);
void renderCompareSvg(llvm::raw_ostream &OS, const ReportContext &Ctx,
                      llvm::StringRef Title);
/// critical_path.svg (Charts/CriticalPathChart.cpp): only when the
/// CriticalPath analysis has a window.
bool hasCriticalPathChart(const ReportContext &Ctx);
void renderCriticalPathSvg(llvm::raw_ostream &OS, const ReportContext &Ctx,
                           llvm::StringRef Title);
/// memory.svg (Charts/MemoryChart.cpp): only when a GPU device has
/// allocator events.
bool hasMemoryChart(const ReportContext &Ctx);
void renderMemorySvg(llvm::raw_ostream &OS, const ReportContext &Ctx,
                     llvm::StringRef Title);
/// top_kernels.svg (Charts/TopKernelsChart.cpp).
void renderTopKernelsSvg(llvm::raw_ostream &OS, const ReportContext &Ctx,
                         llvm::StringRef Title);

} // namespace tl

#endif // TL_LIB_REPORT_CHARTS_H
