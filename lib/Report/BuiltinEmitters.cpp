//===- BuiltinEmitters.cpp - The report's emitters -------------------------===//
//
// Every output of a tl-opt run is registered here; the driver runs them all
// in this order. Add a new emitter by registering it below.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/Emitter.h"
#include "tl/Report/PerfCsvTables.h"

namespace tl {

void registerBuiltinEmitters(EmitterRegistry &Registry) {
  Registry.add(createFindingsJsonEmitter());
  Registry.add(createArtifactEmitter());
  Registry.add(createPerfReportCsvEmitter());
}

} // namespace tl
