//===- ReportUtil.cpp - Helpers shared by the report emitters -------------===//
#include "ReportUtil.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportModel.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/PyValue.h"
#include "tl/Support/RelativePath.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <deque>
#include <cmath>
#include <mutex>
#include <optional>

using namespace llvm;

namespace tl {

struct ReportCache {
  std::once_flag MetricsOnce;
  MetricsDocs Metrics;
  /// The JSON views of the metrics documents.
  std::deque<json::Value> ParsedMetrics;
  /// By ReportFace.
  std::once_flag ModelOnce[2];
  std::optional<ReportModel> Model[2];
};


std::shared_ptr<ReportCache> makeReportCache() {
  return std::make_shared<ReportCache>();
}

std::string metricsFileName(StringRef Key) {
  return (Key + "_metrics.json").str();
}

const MetricsDocs &metricsDocs(const ReportContext &Ctx) {
  ReportCache &C = *Ctx.Cache;
  // Four emitters read these; building the views once keeps it off the
  // report phase.
  std::call_once(C.MetricsOnce, [&] {
    if (!Ctx.Data)
      return;
    for (const CategoryMetrics &M : Ctx.Data->Metrics) {
      // What json::parse of the written file would give; a document JSON
      // cannot hold (a NaN) is written but not read.
      std::optional<json::Value> V =
          M.Doc ? pyJsonValue(*M.Doc) : std::nullopt;
      if (V)
        C.Metrics.emplace(metricsFileName(M.Key),
                          &C.ParsedMetrics.emplace_back(std::move(*V)));
    }
  });
  return C.Metrics;
}

const ReportModel &ReportModel::of(const ReportContext &Ctx, ReportFace Face) {
  ReportCache &C = *Ctx.Cache;
  unsigned I = Face == ReportFace::Reference ? 1 : 0;
  // Every emitter reads it; building it ranks all findings and walks the
  // critical path for each one's share.
  std::call_once(C.ModelOnce[I], [&] { C.Model[I].emplace(build(Ctx, Face)); });
  return *C.Model[I];
}

std::string reportTracePath(const ReportContext &Ctx) {
  return relativePath(Ctx.TracePath, Ctx.reportDir());
}

ManifestSystemEntries manifestSystemEntries(const ReportContext &Ctx,
                                            const ReportModel &M) {
  ManifestSystemEntries E;
  E.FusionCandidates = Ctx.Data ? Ctx.Data->fusionCandidateCount() : 0;
  const GpuTimeline &TL = Ctx.AM.get<GpuTimeline>();
  E.MultiKernel = TL.totalCommTime() > 0 || TL.totalMemcpyTime() > 0;
  E.KernelFusion = E.FusionCandidates > 0 || !M.items(Tier::Fusion).empty();
  return E;
}

void jsonNum(json::OStream &J, double V) { J.rawValue(jsonNumber(V)); }

void jsonNumOrInt(json::OStream &J, double V) {
  if (std::isfinite(V) && V == std::floor(V) && std::fabs(V) < 1e15)
    J.value(static_cast<int64_t>(V));
  else
    jsonNum(J, V);
}

void jsonOptNum(json::OStream &J, std::optional<double> V) {
  if (V)
    jsonNum(J, *V);
  else
    J.value(nullptr);
}

void jsonOptNumAttr(json::OStream &J, StringRef Key, std::optional<double> V) {
  J.attributeBegin(Key);
  jsonOptNum(J, V);
  J.attributeEnd();
}

void jsonOptString(json::OStream &J, StringRef V) {
  if (V.empty())
    J.value(nullptr);
  else
    J.value(V);
}

void writeUtilizationJson(json::OStream &J, const Utilization &U,
                          bool WithAvailable) {
  J.attributeObject("gpu_utilization", [&] {
    if (WithAvailable)
      J.attribute("available", U.Available);
    jsonNumAttr(J, "total_time_ms", U.TotalMs);
    jsonNumAttr(J, "computation_time_percent", U.ComputationPct);
    jsonNumAttr(J, "exposed_comm_time_percent", U.ExposedCommPct);
    jsonNumAttr(J, "exposed_memcpy_time_percent", U.ExposedMemcpyPct);
    jsonNumAttr(J, "idle_time_percent", U.IdlePct);
  });
}

void writeArchJson(json::OStream &J, const ArchSpec *A) {
  if (!A) {
    J.attribute("platform", nullptr);
    return;
  }
  J.attribute("platform", A->Name);
  J.attributeBegin("peak_hbm_bw_tbs");
  jsonNumOrInt(J, A->MemBwGBps / 1000);
  J.attributeEnd();
  // The reference arch files list the specs in this order.
  static const char *const Order[] = {
      "matrix_fp16", "matrix_bf16", "matrix_fp32", "matrix_fp64",
      "matrix_fp8",  "matrix_fp6",  "matrix_fp4",  "matrix_int8",
      "vector_fp16", "vector_bf16", "vector_fp32", "vector_fp64"};
  SmallVector<StringRef, 16> Keys;
  for (const char *K : Order)
    if (A->MaxTflops.count(K))
      Keys.push_back(K);
  SmallVector<StringRef, 8> Rest;
  for (const auto &E : A->MaxTflops)
    if (std::find(Keys.begin(), Keys.end(), E.getKey()) == Keys.end())
      Rest.push_back(E.getKey());
  llvm::sort(Rest);
  Keys.append(Rest.begin(), Rest.end());
  J.attributeObject("max_achievable_tflops", [&] {
    for (StringRef K : Keys) {
      J.attributeBegin(K);
      jsonNumOrInt(J, A->MaxTflops.lookup(K));
      J.attributeEnd();
    }
  });
  J.attributeBegin("memory_gb");
  jsonNumOrInt(J, A->MemoryGB);
  J.attributeEnd();
}

std::string fixed(double V, int N) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%.*f", N, V);
  if (S == "-0.00" || S == "-0.0" || S == "-0")
    S.erase(0, 1);
  return S;
}

std::string score(double V) { return pyRepr(pyRound(V, 2)); }
std::string score(std::optional<double> V) {
  return V ? score(*V) : std::string("null");
}

} // namespace tl
