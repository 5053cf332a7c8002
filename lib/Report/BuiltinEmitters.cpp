//===- BuiltinEmitters.cpp - The report's emitters -------------------------===//
//
// Every output of a tl-opt run is registered here; the driver runs them all
// in this order. Add a new emitter by registering it below.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/PerfCsvTables.h"

namespace tl {

std::unique_ptr<Emitter> createPerfSheetsEmitter();
std::unique_ptr<Emitter> createStepsEmitter();
#ifdef TL_HAVE_XLSXWRITER
std::unique_ptr<Emitter> createXlsxEmitter();
#endif

void registerBuiltinEmitters(EmitterRegistry &Registry) {
  Registry.add(createFindingsJsonEmitter());
  Registry.add(createArtifactEmitter());
  Registry.add(createCategoryMetricsEmitter());
  Registry.add(createCategoryDataEmitter());
  Registry.add(createReferenceDataEmitter());
  Registry.add(createChartEmitter());
  Registry.add(createAnalysisMdEmitter());
  Registry.add(createHtmlReportEmitter());
  Registry.add(createAgentFindingsEmitter());
  Registry.add(createPerfReportCsvEmitter());
  Registry.add(createPerfSheetsEmitter());
  Registry.add(createCriticalPathEmitter());
  Registry.add(createMemoryTimelineEmitter());
  Registry.add(createStepsEmitter());
#ifdef TL_HAVE_XLSXWRITER
  Registry.add(createXlsxEmitter());
#endif
}

} // namespace tl
