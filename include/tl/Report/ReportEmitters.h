//===- ReportEmitters.h - The report's built-in emitters -------*- C++ -*-===//
//
// Factories for the emitters registered by registerBuiltinEmitters() and
// for the opt-in ones the driver adds; each one writes its files under
// ReportContext::OutputDir (docs/ReportFormat.md).
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_REPORTEMITTERS_H
#define TL_REPORT_REPORTEMITTERS_H

#include "tl/Report/Emitter.h"

#include <memory>

namespace tl {

/// analysis.md (tracelens-analysis §9).
std::unique_ptr<Emitter> createAnalysisMdEmitter();
/// priority_data.json, category_data/category_manifest.json, metadata/*.json
/// in the reference's schemas (§3, §7).
std::unique_ptr<Emitter> createReferenceDataEmitter();
/// category_data/<cat>_metrics.json from ReportData::Metrics.
std::unique_ptr<Emitter> createCategoryMetricsEmitter();
/// category_data/multi_kernel_data.json and fusion_candidates.json from
/// ReportData::MultiKernelData / ::FusionCandidates.
std::unique_ptr<Emitter> createCategoryDataEmitter();
/// performance_breakdown.svg and gpu_timeline.svg.
std::unique_ptr<Emitter> createChartEmitter();
/// analysis.html: analysis.md for a browser, one self-contained file.
std::unique_ptr<Emitter> createHtmlReportEmitter();
/// category_findings/<cat>_findings.md, system_findings/<agent>_findings.md.
std::unique_ptr<Emitter> createAgentFindingsEmitter();
/// critical_path.json (spec critical-path.md §6.6).
std::unique_ptr<Emitter> createCriticalPathEmitter();
/// memory_timeline.json and memory.svg (spec memory-timeline.md §5).
std::unique_ptr<Emitter> createMemoryTimelineEmitter();
/// trace_annotated.json.gz: the input trace with the findings as instants
/// and counter tracks (opt-in: the driver adds it for --annotated-trace).
std::unique_ptr<Emitter> createAnnotatedTraceEmitter();

} // namespace tl

#endif // TL_REPORT_REPORTEMITTERS_H
