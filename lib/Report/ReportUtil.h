//===- ReportUtil.h - Helpers shared by the report emitters -----*- C++ -*-===//
//
// Private to lib/Report: Python-compatible JSON numbers (so our reference-
// schema files read like the reference's), the gpu_utilization object and
// the arch block every metadata file carries.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_REPORT_REPORTUTIL_H
#define TL_LIB_REPORT_REPORTUTIL_H

#include "tl/Analysis/ArchSpec.h"
#include "tl/Report/ReportModel.h"
#include "tl/Support/NumberFormat.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>

namespace tl {

struct ReportContext;

/// The categories' metrics documents the passes handed over
/// (ReportData::Metrics), as JSON views of the typed documents, keyed by
/// file name (sorted: the reference visits them in that order, §7). No file
/// or artifact is read back. Built once per report (ReportContext::Cache),
/// whichever emitter asks first.
using MetricsDocs = std::map<std::string, const llvm::json::Value *>;
const MetricsDocs &metricsDocs(const ReportContext &Ctx);

/// "<Key>_metrics.json", the file category_data/ holds Key's metrics in.
std::string metricsFileName(llvm::StringRef Key);

/// The optional system entries of the manifest (§3.7): multi_kernel when
/// the trace has memcpy or communication, kernel_fusion when there are
/// fusion candidates (ReportData::FusionCandidates, handed over by a pass)
/// or fusion findings. FusionCandidates is the candidate count (0 if none).
struct ManifestSystemEntries {
  bool MultiKernel = false;
  bool KernelFusion = false;
  uint64_t FusionCandidates = 0;
};
ManifestSystemEntries manifestSystemEntries(const ReportContext &Ctx,
                                            const ReportModel &M);

/// The trace as the report names it: relative to the output directory
/// (docs/ReportFormat.md, "Paths").
std::string reportTracePath(const ReportContext &Ctx);

/// json.dumps spelling of a float ("3.91", "0.0", "1e-05").
void jsonNum(llvm::json::OStream &J, double V);
/// Integral values as integers (arch peaks), others as floats.
void jsonNumOrInt(llvm::json::OStream &J, double V);
void jsonOptNum(llvm::json::OStream &J, std::optional<double> V);
/// `"Key": V` with V as jsonOptNum writes it (null when absent).
void jsonOptNumAttr(llvm::json::OStream &J, llvm::StringRef Key,
                    std::optional<double> V);
void jsonOptString(llvm::json::OStream &J, llvm::StringRef V);

/// Members "gpu_utilization": {five keys} of the current object, led by
/// "available" when WithAvailable (findings.json).
void writeUtilizationJson(llvm::json::OStream &J, const Utilization &U,
                          bool WithAvailable = false);
/// The arch members of a metadata file (platform, peaks, memory).
void writeArchJson(llvm::json::OStream &J, const ArchSpec *A);

/// "1.23" with exactly N decimals (Python "{:.Nf}").
std::string fixed(double V, int N);
/// Score as Python prints a round(x, 2) float ("3.91", "0.5", "2.0").
std::string score(double V);
std::string score(std::optional<double> V); // "null" when absent

} // namespace tl

#endif // TL_LIB_REPORT_REPORTUTIL_H
