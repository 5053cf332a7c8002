//===- QualityReport.h - Rendering the quality verdict and workload -*- C++ -*-===//
//
// The "Trace quality" and "Workload" blocks every report carries, as JSON
// (for findings.json) and Markdown (for analysis.md), plus the stable text
// form tl-quality prints for lit tests.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_QUALITYREPORT_H
#define TL_ANALYSIS_QUALITYREPORT_H

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace llvm {
class raw_ostream;
namespace json {
class OStream;
}
} // namespace llvm

namespace tl {

class TraceQuality;
class WorkloadInfo;
struct PipelineChoice;

/// Writes the *value* of a "trace_quality" member: {verdict, issues[],
/// capabilities{}} (and "pipeline" when Choice is given).
void writeTraceQualityJson(const TraceQuality &Q, llvm::json::OStream &J,
                           const PipelineChoice *Choice = nullptr);
/// Writes the value of a "workload" member: {title, facts[]}.
void writeWorkloadJson(const WorkloadInfo &W, llvm::json::OStream &J);
/// Writes both as members of the object J is currently in:
/// "trace_quality": {...}, "workload": {...}.
void writeQualityJson(const TraceQuality &Q, const WorkloadInfo &W,
                      llvm::json::OStream &J,
                      const PipelineChoice *Choice = nullptr);

/// Markdown blocks for analysis.md ("## Workload", "## Trace quality").
void renderQualityMarkdown(const TraceQuality &Q, const WorkloadInfo &W,
                           llvm::raw_ostream &OS,
                           const PipelineChoice *Choice = nullptr);

/// Stable line-oriented text (tl-quality's default output).
void printQualityText(const TraceQuality &Q, const WorkloadInfo &W,
                      llvm::raw_ostream &OS,
                      const PipelineChoice *Choice = nullptr);

} // namespace tl

#endif // TL_ANALYSIS_QUALITYREPORT_H
