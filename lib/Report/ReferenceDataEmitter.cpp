//===- ReferenceDataEmitter.cpp - priority_data.json and friends ----------===//
//
// Files in the reference's schemas (tracelens-analysis §3.1, §3.6-§3.9, §7)
// so scripts and validators written for TraceLens keep working on our
// output: priority_data.json, category_data/category_manifest.json,
// category_data/<category>_ops.csv, metadata/<category>_metadata.json and
// metadata/model_info.json.
//
// Members and all_estimates are copied from the metrics documents the
// passes handed over (ReportData::Metrics) when they exist; everything
// else comes from the ReportModel.
//
//===----------------------------------------------------------------------===//
#include "ReportUtil.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/PerfSheets.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/Report/CompareEmitters.h"
#include "tl/Report/CsvTable.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace tl {
namespace {

constexpr StringLiteral TimeNote =
    "Use gpu_kernel_time_ms for bottleneck prioritization. sync_time_ms "
    "indicates host-device sync overhead.";
constexpr StringLiteral ManifestNote =
    "Use gpu_kernel_time_ms for bottleneck prioritization. cpu_duration_ms "
    "includes sync/launch overhead.";
constexpr StringLiteral NotInferred = "Cannot be inferred from trace";

/// json::Value printer with Python float spelling. Depth-capped: pass
/// artifacts are a few levels deep.
void writeJson(json::OStream &J, const json::Value &V, unsigned Depth = 0) {
  if (Depth > 32) {
    J.value(nullptr);
    return;
  }
  if (const json::Object *O = V.getAsObject()) {
    // json::Object is unordered; print keys sorted for stable output.
    std::vector<StringRef> Keys;
    for (const auto &KV : *O)
      Keys.push_back(KV.first);
    llvm::sort(Keys);
    J.object([&] {
      for (StringRef K : Keys) {
        J.attributeBegin(K);
        writeJson(J, *O->get(K), Depth + 1);
        J.attributeEnd();
      }
    });
  } else if (const json::Array *A = V.getAsArray()) {
    J.array([&] {
      for (const json::Value &E : *A)
        writeJson(J, E, Depth + 1);
    });
  } else if (V.kind() == json::Value::Number && !V.getAsInteger()) {
    jsonNum(J, *V.getAsNumber());
  } else {
    J.value(V);
  }
}

/// The reference skill name of category Key (§3.6), from what the
/// scheduled passes declare: the skill of the pass claiming Key, else of the
/// pass taking unclaimed categories, else the reference's generic analyzer.
StringRef skillFor(ArrayRef<PassDescription> Scheduled, StringRef Key) {
  for (const PassDescription &R : Scheduled)
    if (!R.Skill.empty() && is_contained(R.Claims, Key))
      return R.Skill;
  for (const PassDescription &R : Scheduled)
    if (!R.Skill.empty() && R.TakesUnclaimed)
      return R.Skill;
  return "generic-op-analyzer";
}

class ReferenceDataEmitter final : public Emitter {
public:
  StringRef name() const override { return "reference-data"; }
  Error emit(const ReportContext &Ctx) override;

private:
  const json::Object *categoryFinding(StringRef Key, unsigned Rank) const;
  /// A file of the report as the manifest names it: relative to the
  /// output directory (the reference writes <-o>/Rel, machine-specific).
  std::string outPath(const ReportContext &, StringRef Rel) const {
    return Rel.str();
  }
  Error writePriorityData(const ReportContext &Ctx, const ReportModel &M);
  Error writeManifest(const ReportContext &Ctx, const ReportModel &M);
  Error writeOpsCsvs(const ReportContext &Ctx, const ReportModel &M);
  Error writeMetadata(const ReportContext &Ctx, const ReportModel &M);

  /// The metrics documents, by file name (metricsDocs).
  const MetricsDocs *Metrics = nullptr;
  bool HasMultiKernel = false, HasFusion = false;
  uint64_t FusionCandidates = 0;
};

const json::Object *ReferenceDataEmitter::categoryFinding(StringRef Key,
                                                          unsigned Rank) const {
  auto It = Metrics->find((Key + "_metrics.json").str());
  if (It == Metrics->end())
    return nullptr;
  const json::Object *O = It->second->getAsObject();
  const json::Array *CF = O ? O->getArray("category_findings") : nullptr;
  if (!CF)
    return nullptr;
  for (const json::Value &V : *CF)
    if (const json::Object *F = V.getAsObject())
      if (F->getInteger("rank") == static_cast<int64_t>(Rank))
        return F;
  return nullptr;
}

Error ReferenceDataEmitter::writePriorityData(const ReportContext &Ctx,
                                              const ReportModel &M) {
  return writeFileAtomically(Ctx.OutputDir, "priority_data.json",
                             [&](raw_ostream &OS) {
    json::OStream J(OS, 2);
    J.object([&] {
      jsonNumAttr(J, "baseline_ms", M.utilization().TotalMs);
      J.attributeArray("priorities", [&] {
        for (const Priority &P : M.priorities())
          J.object([&] {
            J.attribute("rank", static_cast<int64_t>(P.Rank));
            J.attribute("category", P.Category);
            J.attribute("display_name", P.DisplayName);
            jsonOptNumAttr(J, "impact_score", P.Mid);
            if (P.Source == "findings_rollup") {
              jsonOptNumAttr(J, "impact_score_low", P.Low);
              jsonOptNumAttr(J, "impact_score_high", P.High);
            } else {
              jsonOptNumAttr(J, "gpu_kernel_time_ms", P.GpuKernelTimeMs);
            }
            J.attribute("source", P.Source);
          });
      });
      J.attributeArray("recommendations", [&] {
        for (const CategoryRollup &R : M.rollups())
          J.object([&] {
            J.attribute("category", R.Category);
            jsonNumAttr(J, "impact_score", R.Mid);
            jsonNumAttr(J, "impact_score_low", R.Low);
            jsonNumAttr(J, "impact_score_high", R.High);
            J.attribute("operation_count",
                        static_cast<int64_t>(R.OperationCount));
            J.attribute("type", "kernel_tuning");
          });
      });
      J.attributeArray("findings", [&] {
        unsigned Global = 0;
        for (const PItem &P : M.items(Tier::Compute)) {
          const Finding &F = *P.F;
          const json::Object *Ref = categoryFinding(P.CategoryKey,
                                                    P.CategoryRank);
          J.object([&] {
            J.attributeBegin("bound_type");
            std::string Bound = F.Facts.BoundType;
            if (Bound.empty())
              Bound = P.isHeuristic() ? "unmodeled" : "unknown";
            J.value(Bound);
            J.attributeEnd();
            const std::string &Lib = F.Facts.Library;
            J.attribute("library", Lib.empty() ? "Unknown" : Lib);
            const std::string &Bucket = F.Facts.EffBucket;
            J.attribute("eff_bucket", Bucket.empty() ? "unknown" : Bucket);
            J.attribute("estimate_method", P.EstimateMethod);
            jsonOptNumAttr(J, "impact_score", P.Mid);
            jsonOptNumAttr(J, "impact_score_low", P.Low);
            jsonOptNumAttr(J, "impact_score_high", P.High);
            std::optional<double> Pct = F.Facts.PercentOfTotal;
            if (Pct && P.isHeuristic()) {
              jsonNumAttr(J, "percent_of_total", *Pct);
            }
            const json::Array *Members =
                Ref ? Ref->getArray("members") : nullptr;
            int64_t Count = F.Facts.MemberCount.value_or(
                Members ? static_cast<int64_t>(Members->size()) : 0);
            J.attribute("member_count", Count);
            J.attributeBegin("members");
            J.array([&] {
              if (Members)
                for (const json::Value &Mem : *Members)
                  writeJson(J, Mem);
            });
            J.attributeEnd();
            J.attribute("category", P.CategoryKey);
            J.attribute("category_rank", static_cast<int64_t>(P.CategoryRank));
            J.attribute("global_rank", static_cast<int64_t>(++Global));
            J.attribute("finding_id", F.Id);
          });
        }
      });
      J.attributeArray("all_estimates", [&] {
        for (const auto &[File, V] : *Metrics) {
          const json::Object *O = V->getAsObject();
          if (!O)
            continue;
          std::optional<StringRef> Status = O->getString("status");
          if (Status && (*Status == "ERROR" || *Status == "NO_DATA"))
            continue;
          if (const json::Array *E = O->getArray("impact_estimates"))
            for (const json::Value &Est : *E)
              writeJson(J, Est);
        }
      });
    });
    OS << "\n";
  });
}

Error ReferenceDataEmitter::writeManifest(const ReportContext &Ctx,
                                         const ReportModel &M) {
  const ArchSpec *A = Ctx.AM.options().Arch ? &*Ctx.AM.options().Arch
                                            : nullptr;
  return writeFileAtomically(
      Ctx.OutputDir, "category_data/category_manifest.json",
      [&](raw_ostream &OS) {
        json::OStream J(OS, 2);
        J.object([&] {
          J.attributeBegin("platform");
          jsonOptString(J, A ? StringRef(A->Name) : StringRef());
          J.attributeEnd();
          J.attribute("trace_path", reportTracePath(Ctx));
          J.attribute("output_dir", ".");
          J.attribute("comparison_scope", comparisonScope(Ctx));
          writeUtilizationJson(J, M.utilization());
          // The members every category entry starts with.
          // csv_file: the category's rows (writeOpsCsvs); the two system
          // entries after the compute ones have none (§3.7).
          auto entryHead = [&](StringRef Name, StringRef Display,
                               StringRef Skill, StringRef Tier,
                               int64_t OpsCount, bool HasCsv) {
            J.attribute("name", Name);
            J.attribute("display_name", Display);
            J.attribute("skill", Skill);
            J.attribute("tier", Tier);
            J.attribute("ops_count", OpsCount);
            if (HasCsv)
              J.attribute("csv_file",
                          outPath(Ctx, ("category_data/" + Name + "_ops.csv")
                                           .str()));
            else
              J.attribute("csv_file", nullptr);
          };
          J.attributeArray("categories", [&] {
            J.object([&] {
              entryHead("cpu_idle", "CPU/Idle Analysis", "cpu-idle-analyzer",
                        "system", 0, /*HasCsv=*/true);
              J.attribute("metadata_file",
                          outPath(Ctx, "metadata/cpu_idle_metadata.json"));
              J.attribute("priority", 0);
            });
            for (const CategoryInfo &C : M.categories())
              J.object([&] {
                entryHead(C.Key, C.DisplayName, skillFor(Ctx.Scheduled, C.Key),
                          "compute_kernel", C.OpsCount, /*HasCsv=*/true);
                J.attribute("metadata_file",
                            outPath(Ctx, "metadata/" + C.Key +
                                             "_metadata.json"));
                jsonNumAttr(J, "gpu_kernel_time_ms", C.GpuKernelTimeMs);
                jsonNumAttr(J, "cpu_duration_ms", C.CpuDurationMs);
                jsonNumAttr(J, "sync_time_ms", C.SyncTimeMs);
                J.attribute("sync_ops_count",
                            static_cast<int64_t>(C.SyncOpsCount));
                J.attribute("has_sync_bottleneck", C.HasSyncBottleneck);
              });
            if (HasMultiKernel)
              J.object([&] {
                entryHead("multi_kernel", "Multi-Kernel Issues",
                          "multi-kernel-analyzer", "system", 0,
                          /*HasCsv=*/false);
                J.attribute("metadata_file",
                            outPath(Ctx, "metadata/multi_kernel_metadata.json"));
                J.attribute("data_file",
                            outPath(Ctx, "category_data/multi_kernel_data.json"));
              });
            if (HasFusion)
              J.object([&] {
                entryHead("kernel_fusion", "Kernel Fusion Opportunities",
                          "kernel-fusion-analyzer", "system",
                          FusionCandidates ? FusionCandidates
                                           : M.items(Tier::Fusion).size(),
                          /*HasCsv=*/false);
                J.attribute("metadata_file", nullptr);
                J.attribute("data_file",
                            outPath(Ctx, "category_data/fusion_candidates.json"));
                jsonNumAttr(J, "gpu_kernel_time_ms", 0.0);
                jsonNumAttr(J, "cpu_duration_ms", 0.0);
                J.attribute("sync_time_ms", 0);
                J.attribute("sync_ops_count", 0);
                J.attribute("has_sync_bottleneck", false);
              });
          });
          J.attribute("time_metric_note", ManifestNote);
          writeTrace2ManifestMembers(J, Ctx); // comparative only (§10.1)
        });
        OS << "\n";
      });
}

Error ReferenceDataEmitter::writeOpsCsvs(const ReportContext &Ctx,
                                         const ReportModel &M) {
  // cpu_idle has no rows: an empty frame, which pandas writes as "\n".
  if (Error E = writeFileAtomically(
          Ctx.OutputDir, "category_data/cpu_idle_ops.csv",
          [](raw_ostream &OS) { CsvTable().write(OS); }))
    return E;
  if (M.categories().empty())
    return Error::success();
  // The unchanged rows of unified_perf_summary.csv per category (§3.6),
  // plus the category's key and display name.
  const AnalysisOptions &O = Ctx.AM.options();
  TextTable UT = Ctx.AM.get<UnifiedPerfTable>().toTable(O.Arch.has_value(),
                                                        O.IncludeCallStack);
  int CatCol = UT.column("op category");
  std::vector<std::string> Cols = UT.Columns;
  Cols.push_back("enhanced_category");
  Cols.push_back("display_name");
  for (const CategoryInfo &C : M.categories()) {
    CsvTable T(Cols);
    for (const std::vector<std::string> &R : UT.Rows) {
      StringRef Label = CatCol >= 0 && size_t(CatCol) < R.size()
                            ? StringRef(R[CatCol])
                            : StringRef();
      if (categoryKey(Label) != C.Key)
        continue;
      std::vector<PyValue> Cells;
      Cells.reserve(Cols.size());
      for (const std::string &S : R)
        Cells.push_back(S.empty() ? PyValue::none() : PyValue::str(S));
      Cells.push_back(PyValue::str(C.Key));
      Cells.push_back(PyValue::str(C.DisplayName));
      T.addRow(std::move(Cells));
    }
    if (Error E = writeFileAtomically(
            Ctx.OutputDir, "category_data/" + C.Key + "_ops.csv",
            [&](raw_ostream &OS) { T.write(OS); }))
      return E;
  }
  return Error::success();
}

Error ReferenceDataEmitter::writeMetadata(const ReportContext &Ctx,
                                          const ReportModel &M) {
  const ArchSpec *A = Ctx.AM.options().Arch ? &*Ctx.AM.options().Arch
                                            : nullptr;
  auto Common = [&](json::OStream &J, StringRef Display, StringRef Key) {
    writeArchJson(J, A);
    J.attribute("trace_path", reportTracePath(Ctx));
    J.attribute("output_dir", ".");
    J.attribute("category", Display);
    J.attribute("category_name", Key);
    writeUtilizationJson(J, M.utilization());
  };
  auto Write = [&](StringRef Key, auto Body) {
    return writeFileAtomically(Ctx.OutputDir,
                               ("metadata/" + Key + "_metadata.json").str(),
                               [&](raw_ostream &OS) {
                                 json::OStream J(OS, 2);
                                 J.object([&] { Body(J); });
                                 OS << "\n";
                               });
  };
  if (Error E = Write("cpu_idle", [&](json::OStream &J) {
        Common(J, "CPU/Idle Analysis", "cpu_idle");
      }))
    return E;
  if (HasMultiKernel)
    if (Error E = Write("multi_kernel", [&](json::OStream &J) {
          Common(J, "Multi-Kernel Issues", "multi_kernel");
          J.attribute("tier", "system");
        }))
      return E;
  for (const CategoryInfo &C : M.categories())
    if (Error E = Write(C.Key, [&](json::OStream &J) {
          Common(J, C.DisplayName, C.Key);
          J.attribute("trace_loading_policy",
                      "DO_NOT_LOAD_TRACE_use_precomputed_tree_data");
          J.attributeObject("time_breakdown", [&] {
            jsonNumAttr(J, "gpu_kernel_time_ms", C.GpuKernelTimeMs);
            jsonNumAttr(J, "cpu_duration_ms", C.CpuDurationMs);
            jsonNumAttr(J, "sync_time_ms", C.SyncTimeMs);
            J.attribute("sync_ops_count", static_cast<int64_t>(C.SyncOpsCount));
            J.attribute("has_sync_bottleneck", C.HasSyncBottleneck);
            J.attribute("note", TimeNote);
          });
        }))
      return E;

  // model_info.json: the four keys, from what WorkloadInfo inferred.
  const WorkloadInfo &W = Ctx.AM.get<WorkloadInfo>();
  auto Fact = [&](StringRef Key) -> std::string {
    StringRef V = W.value(Key);
    return V.empty() ? NotInferred.str() : V.str();
  };
  std::string Scale = NotInferred.str();
  if (auto L = W.number("num_layers"), H = W.number("hidden_size"); L && H)
    Scale = std::to_string(*L) + " layers, hidden size " + std::to_string(*H);
  return writeFileAtomically(Ctx.OutputDir, "metadata/model_info.json",
                             [&](raw_ostream &OS) {
    json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("model", Fact("model_family"));
      J.attribute("architecture", Fact("model_class"));
      J.attribute("scale", Scale);
      J.attribute("precision", Fact("precision"));
    });
    OS << "\n";
  });
}

Error ReferenceDataEmitter::emit(const ReportContext &Ctx) {
  const ReportModel &M = ReportModel::of(Ctx, ReportFace::Reference);
  Metrics = &metricsDocs(Ctx);
  ManifestSystemEntries Sys = manifestSystemEntries(Ctx, M);
  HasMultiKernel = Sys.MultiKernel;
  HasFusion = Sys.KernelFusion;
  FusionCandidates = Sys.FusionCandidates;
  if (Error E = writePriorityData(Ctx, M))
    return E;
  if (Error E = writeManifest(Ctx, M))
    return E;
  if (Error E = writeOpsCsvs(Ctx, M))
    return E;
  return writeMetadata(Ctx, M);
}

} // namespace

std::unique_ptr<Emitter> createReferenceDataEmitter() {
  return std::make_unique<ReferenceDataEmitter>();
}

} // namespace tl
