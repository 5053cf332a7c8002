//===- AnalysisInstrumentation.h - Hooks around every analysis --*- C++ -*-===//
//
// What MLIR's PassInstrumentation does for passes, for the analyses an
// AnalysisManager computes: --timing, --time-trace and progress see each
// analysis through these hooks instead of the manager knowing about them.
// Lives in the Analysis layer so the manager can call it; the pass layer's
// PassInstrumentation extends it.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_ANALYSISINSTRUMENTATION_H
#define TL_ANALYSIS_ANALYSISINSTRUMENTATION_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

class Trace;

/// Time spent computing one analysis (for --timing): inclusive of the
/// analyses it computed on its way.
struct AnalysisTiming {
  std::string Name;
  double WallSeconds = 0;
  double CpuSeconds = 0;
};

/// Called on the thread that computes the analysis, once per analysis and
/// trace, never under the manager's lock (a hook may call AM.get()). Hooks
/// of nested analyses nest; concurrent analyses call them concurrently.
class AnalysisInstrumentation {
public:
  virtual ~AnalysisInstrumentation();
  virtual void runBeforeAnalysis(llvm::StringRef Name, const Trace &T) {}
  virtual void runAfterAnalysis(const AnalysisTiming &Timing,
                                const Trace &T) {}
};

} // namespace tl

#endif // TL_ANALYSIS_ANALYSISINSTRUMENTATION_H
