//===- ComputeFindings.h - Compute-tier findings from category results -*- C++ -*-===//
//
// Turning a CategoryResult (the shared compute core, an analysis) into
// findings and the reference-schema metrics artifact. Lives in the Pass
// layer because it writes to a FindingSink.
//
//===----------------------------------------------------------------------===//
#ifndef TL_COMPUTE_COMPUTEFINDINGS_H
#define TL_COMPUTE_COMPUTEFINDINGS_H

#include "tl/Compute/CategoryAnalyzer.h"

namespace tl {
class FindingSink;
class Trace;
} // namespace tl

namespace tl::compute {

/// Default resolution by bound type (§11.3 action templates).
Resolution defaultResolution(const CategoryResult &R,
                             const CategoryFinding &F);

/// Every kernel of the op is a memcpy or memset (Kineto's "Memcpy ...",
/// "Memset ..."): a transfer, not work a roofline rates.
bool isCopyOnlyOp(const CategoryResult &R, const OpRecord &Op);

/// One compute finding per category_findings[] entry, with the reference's
/// metric names (impact_score*, bound_type, library, eff_bucket,
/// estimate_method, member_count, rank), an evidence table, the
/// identification rationale and the resolution.
void emitFindings(const CategoryResult &R, const AnalyzerHooks &Hooks,
                  const Trace *T, FindingSink &Sink);

/// emitFindings for the given groups; a non-empty Face ("tl",
/// "reference") adds the report_face metric: the finding belongs to that
/// face of the report only (tl/Report/ReportModel.h).
void emitGroups(const CategoryResult &R, llvm::ArrayRef<CategoryFinding> Groups,
                const AnalyzerHooks &Hooks, const Trace *T, FindingSink &Sink,
                llvm::StringRef Face);

/// analyzeCategory + metrics artifact + findings, for every key in Keys
/// present in the trace.
void runCategories(const ComputeInput &In, llvm::ArrayRef<std::string> Keys,
                   const AnalyzerHooks &Hooks, const Trace *T,
                   FindingSink &Sink);

} // namespace tl::compute

#endif // TL_COMPUTE_COMPUTEFINDINGS_H
