//===- FindingsJsonEmitter.cpp - findings.json -----------------------------===//
//
// Machine-readable findings: run provenance (tool, pipeline, arch and its
// kind, trace hash), GPU utilization, trace quality and workload, then every
// field of every finding in report order (tier, then rank), plus the passes
// that failed. Schema: docs/findings.schema.json; the version bumps on
// incompatible change.
//
//===----------------------------------------------------------------------===//
#include "ReportUtil.h"
#include "StepsReport.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/QualityReport.h"
#include "tl/Analysis/TraceFileHash.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportMetrics.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cmath>

using namespace llvm;

namespace tl {

namespace {

/// 2: report order, rank, score, trace, arch, utilization, quality.
/// 3: global_rank on every finding (one ranking across tiers).
/// 4: top-level `metrics` (the report-level numbers --fail-on gates);
///    evidence: the compute Data table's `kernel` column, cpu-idle's gaps
///    `start_ms` from the trace start (was `start_us`); trace path relative
///    to the report.
/// 5: `critical_path` on findings that name their events; global_rank by
///    the expected step-time saving (docs/ReportFormat.md, "Path impact").
constexpr int64_t FindingsSchemaVersion = 5;

/// JSON has no inf or NaN (llvm::json would print `inf`, which no reader
/// accepts): a non-finite number is written as null.
void writeNumber(json::OStream &J, double D) {
  if (std::isfinite(D))
    J.value(D);
  else
    J.value(nullptr);
}

void numberAttr(json::OStream &J, llvm::StringRef Key, double D) {
  J.attributeBegin(Key);
  writeNumber(J, D);
  J.attributeEnd();
}

void writeValue(json::OStream &J, const Value &V) {
  if (const double *D = std::get_if<double>(&V))
    writeNumber(J, *D);
  else if (const int64_t *I = std::get_if<int64_t>(&V))
    J.value(*I);
  else if (const bool *B = std::get_if<bool>(&V))
    J.value(*B);
  else
    J.value(std::get<std::string>(V));
}

/// How much of the finding's time lies on the critical path and the
/// step-time saving that leaves (docs/ReportFormat.md, "Path impact").
void writeCriticalPath(json::OStream &J, const PItem &P, const Utilization &U) {
  const PathShare &S = *P.Path;
  J.attributeObject("critical_path", [&] {
    jsonOptNumAttr(J, "on_path_us", roundTo(S.OnPathUs, 3));
    jsonOptNumAttr(J, "event_us", roundTo(S.EventUs, 3));
    jsonOptNumAttr(J, "share", roundTo(S.share(), 4));
    if (P.scored()) {
      jsonOptNumAttr(J, "step_saving_pct", roundTo(*P.placeScore(), 4));
      if (U.Available)
        jsonOptNumAttr(J, "step_saving_us",
                   roundTo(*P.placeScore() / 100 * U.TotalMs * 1000, 3));
    }
  });
}

void writeFinding(json::OStream &J, const Finding &F, const PItem *P,
                  const Utilization &U) {
  J.object([&] {
    J.attribute("id", F.Id);
    J.attribute("tier", tierName(F.T));
    if (P) {
      J.attribute("rank", static_cast<int64_t>(P->Rank));
      J.attribute("p_item", (Twine("P") + Twine(P->Rank)).str());
      J.attribute("global_rank", static_cast<int64_t>(P->GlobalRank));
    }
    J.attribute("pass", F.Pass);
    J.attribute("category", F.Category);
    J.attribute("title", F.Title);
    J.attributeArray("metrics", [&] {
      for (const Metric &M : F.Metrics)
        J.object([&] {
          J.attribute("name", M.Name);
          J.attributeBegin("value");
          writeValue(J, M.V);
          J.attributeEnd();
          if (!M.Unit.empty())
            J.attribute("unit", M.Unit);
        });
    });
    J.attributeArray("evidence", [&] {
      for (const EvidenceTable &T : F.Evidence)
        J.object([&] {
          J.attribute("title", T.Title);
          J.attributeArray("columns", [&] {
            for (const std::string &C : T.Columns)
              J.value(C);
          });
          J.attributeArray("rows", [&] {
            for (const auto &Row : T.Rows)
              J.array([&] {
                for (const Value &C : Row)
                  writeValue(J, C);
              });
          });
        });
    });
    J.attributeObject("impact", [&] {
      J.attribute("quantified", F.Imp.Quantified);
      if (P && P->scored()) {
        // The ranking score (percent of E2E), as the report prints it.
        J.attributeObject("score", [&] {
          jsonOptNumAttr(J, "low", P->Low);
          jsonOptNumAttr(J, "mid", P->Mid);
          jsonOptNumAttr(J, "high", P->High);
          J.attribute("estimate_method", P->EstimateMethod);
        });
      }
      if (F.Imp.Quantified) {
        numberAttr(J, "low_pct", F.Imp.LowPct);
        numberAttr(J, "mid_pct", F.Imp.MidPct);
        numberAttr(J, "high_pct", F.Imp.HighPct);
      }
      J.attribute("method", F.Imp.Method);
      J.attribute("severity", severityName(F.Imp.Sev));
    });
    if (P && P->Path)
      writeCriticalPath(J, *P, U);
    J.attributeArray("locations", [&] {
      for (const Location &L : F.Locations)
        J.object([&] {
          J.attribute("kind", locationKindName(L.K));
          switch (L.K) {
          case Location::Kind::Event:
            J.attribute("uid", static_cast<int64_t>(L.Uid));
            break;
          case Location::Kind::Op:
          case Location::Kind::Kernel:
            J.attribute("name", L.Name);
            break;
          case Location::Kind::TimeRange:
            numberAttr(J, "start_us", L.StartUs);
            numberAttr(J, "end_us", L.EndUs);
            break;
          }
        });
    });
    J.attributeObject("recommendation", [&] {
      J.attribute("action", F.Rec.Action);
      J.attribute("mechanism", F.Rec.Mechanism);
      J.attribute("expected", F.Rec.Expected);
    });
    J.attributeArray("notes", [&] {
      for (const std::string &N : F.Notes)
        J.value(N);
    });
  });
}

class FindingsJsonEmitter final : public Emitter {
public:
  StringRef name() const override { return "findings-json"; }
  Error emit(const ReportContext &Ctx) override {
    const ReportModel &M = ReportModel::of(Ctx);
    const auto &Arch = Ctx.AM.options().Arch;
    // The hash is usually ready: the driver computes it on the pool.
    uint64_t Size = 0;
    std::string Hash;
    const TraceFileHash &H = Ctx.AM.get<TraceFileHash>();
    if (H.path() == Ctx.TracePath) {
      Hash = H.hash().str();
      Size = H.size();
    } else {
      Hash = traceFileHash(Ctx.TracePath, Size);
    }
    return writeFileAtomically(Ctx.OutputDir, "findings.json",
                               [&](raw_ostream &OS) {
      json::OStream J(OS, /*IndentSize=*/2);
      J.object([&] {
        J.attribute("schema_version", FindingsSchemaVersion);
        J.attribute("tool", Ctx.ToolVersion);
        J.attribute("pipeline", Ctx.Pipeline);
        J.attributeObject("trace", [&] {
          J.attribute("path", reportTracePath(Ctx));
          J.attribute("hash", Hash);
          J.attribute("size_bytes", static_cast<int64_t>(Size));
        });
        writeStepsJson(J, Ctx);
        J.attributeBegin("arch");
        if (Arch)
          J.object([&] {
            J.attribute("name", Arch->Name);
            J.attribute("kind", Arch->Source.empty() ? "datasheet"
                                                     : Arch->Source);
          });
        else
          J.value(nullptr);
        J.attributeEnd();
        writeUtilizationJson(J, M.utilization(), /*WithAvailable=*/true);
        J.attribute("top_bottleneck_category", M.topBottleneckKey());
        writeQualityJson(Ctx.AM.get<TraceQuality>(),
                         Ctx.AM.get<WorkloadInfo>(), J);
        J.attributeObject("counts", [&] {
          for (Tier T : {Tier::Compute, Tier::Fusion, Tier::System})
            J.attribute(tierName(T),
                        static_cast<int64_t>(M.items(T).size()));
        });
        // What --fail-on's report-level terms compare (null: not
        // available for this trace).
        ReportMetrics RM = ReportMetrics::compute(M, Ctx.AM.get<TraceQuality>());
        J.attributeObject("metrics", [&] {
          for (const ReportMetricInfo &I : ReportMetrics::known()) {
            std::optional<double> V = RM.get(I.Name);
            if (V && I.IsCount)
              J.attribute(I.Name, static_cast<int64_t>(*V));
            else
              jsonOptNumAttr(J, I.Name, V);
          }
        });
        J.attributeArray("findings", [&] {
          for (Tier T : {Tier::Compute, Tier::Fusion, Tier::System})
            for (const PItem &P : M.items(T))
              writeFinding(J, *P.F, &P, M.utilization());
        });
        J.attributeArray("failed_passes", [&] {
          for (const FailedPass &P : Ctx.Failed)
            J.object([&] {
              J.attribute("pass", P.Pass);
              J.attribute("message", P.Message);
            });
        });
      });
      OS << "\n";
    });
  }
};

} // namespace

std::unique_ptr<Emitter> createFindingsJsonEmitter() {
  return std::make_unique<FindingsJsonEmitter>();
}

} // namespace tl
