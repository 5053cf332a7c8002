//===- StepsReport.h - The steps in the report ------------------*- C++ -*-===//
//
// steps.csv (StepTable, one row per step of the window), the analysis.md
// lines naming the window in use and the per-step table, and the
// findings.json `steps` object. Nothing is written for a trace without
// ProfilerSteps.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_STEPSREPORT_H
#define TL_LIB_REPORT_STEPSREPORT_H

#include "tl/Report/Emitter.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tl {

/// The header line: which steps the report covers, and the --steps=steady
/// suggestion when the quality checks flag steps in it.
void renderStepsHeader(llvm::raw_ostream &OS, const ReportContext &Ctx);
/// The appendix's "### Steps" table.
void renderStepsAppendix(llvm::raw_ostream &OS, const ReportContext &Ctx);
/// findings.json's "steps" attribute.
void writeStepsJson(llvm::json::OStream &J, const ReportContext &Ctx);

std::unique_ptr<Emitter> createStepsEmitter();

} // namespace tl

#endif // TL_LIB_REPORT_STEPSREPORT_H
