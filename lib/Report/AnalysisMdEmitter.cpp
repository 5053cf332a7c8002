//===- AnalysisMdEmitter.cpp - analysis.md ---------------------------------===//
//
// The human report, in the reference's structure (tracelens-analysis §9):
// title, executive summary (metrics table, charts), warnings, compute kernel
// optimizations (top operations, P-item cards), kernel fusion, system-level,
// detailed analysis per tier (anchors, reasoning candidates, impact
// markers), appendix. The markers follow the grammar of §8.1 so the
// reference's validator and ours (`tl-opt --validate-report`) accept it.
//
//===----------------------------------------------------------------------===//
#include "AnalysisMarkdown.h"
#include "Charts.h"
#include "Compare/ComparativeMarkdown.h"
#include "PItemMarkdown.h"
#include "Prose.h"
#include "StepsReport.h"
#include "PathMemoryMarkdown.h"
#include "ReportUtil.h"
#include "TopOpsMarkdown.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/QualityReport.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {
namespace {

/// The executive summary opens with the first findings of the one ranking
/// across tiers (global_rank), each linked to its detailed block.
void renderTopFindings(raw_ostream &OS, const ReportModel &M) {
  std::vector<const PItem *> Order = M.globalOrder();
  if (Order.empty())
    return;
  constexpr size_t Shown = 5;
  OS << "**Top findings** (one ranking across the three tiers, largest "
        "expected step-time saving first: the saving times the share of the "
        "finding's time on the critical path):\n\n";
  for (size_t I = 0; I < Order.size() && I < Shown; ++I) {
    const PItem &P = *Order[I];
    OS << P.GlobalRank << ". " << mdInline(P.F->Title) << " — "
       << tierName(P.F->T) << " P" << P.Rank << ", ";
    if (P.scored())
      OS << "saves " << fixed(*P.Low, 2) << "–" << fixed(*P.High, 2)
         << "% of end-to-end time";
    if (P.scored() && P.Path)
      OS << ", " << fixed(*P.placeScore(), 2) << "% of the step ("
         << fixed(P.Path->share() * 100, 1) << " % on the critical path)";
    else if (P.CoveredPct)
      OS << "not quantified; covers " << fixed(*P.CoveredPct, 2)
         << "% of end-to-end time";
    else
      OS << "not quantified";
    OS << " ([details](#" << detailAnchor(P.F->T, P.Rank) << "))\n";
  }
  if (Order.size() > Shown)
    OS << "\n" << Order.size() - Shown
       << " more below; findings.json lists every finding with its "
          "`global_rank`.\n";
  OS << "\n";
}


/// The reference's tier label of a failed analysis: from the findings the
/// pass emitted before failing, else from the tier the pass declares.
StringRef failedTier(const ReportContext &Ctx, const FailedPass &FP) {
  Tier T = FP.PassTier;
  for (const Finding &F : Ctx.Findings)
    if (F.Pass == FP.Pass) {
      T = F.T;
      break;
    }
  return T == Tier::Compute ? "Compute Kernel" : "System";
}

/// A Data Quality row (§9 item 3): an operation whose per-call kernel time
/// varies so much (high_variance, §5.2) that its mean misleads.
struct VarianceRow {
  std::string Operation, Category;
  double Cov = 0, TimeMs = 0;
};

std::vector<VarianceRow> highVarianceOps(const ReportContext &Ctx,
                                         const ReportModel &M) {
  std::vector<VarianceRow> Rows;
  for (const auto &[File, V] : metricsDocs(Ctx)) {
    const json::Object *O = V->getAsObject();
    const json::Array *Ops = O ? O->getArray("operations") : nullptr;
    if (!Ops)
      continue;
    std::string Key = O->getString("category")
                          .value_or(StringRef(File).drop_back(
                              StringRef("_metrics.json").size()))
                          .str();
    for (const json::Value &OpV : *Ops) {
      const json::Object *Op = OpV.getAsObject();
      if (!Op || Op->getBoolean("high_variance") != true)
        continue;
      Rows.push_back({Op->getString("name").value_or("").str(),
                      M.displayName(Key), Op->getNumber("cov").value_or(0),
                      Op->getNumber("time_ms").value_or(0)});
    }
  }
  return Rows;
}

class AnalysisMdEmitter final : public Emitter {
public:
  StringRef name() const override { return "analysis-md"; }
  Error emit(const ReportContext &Ctx) override {
    const ReportModel &M = ReportModel::of(Ctx);
    const TraceQuality &Q = Ctx.AM.get<TraceQuality>();
    const WorkloadInfo &W = Ctx.AM.get<WorkloadInfo>();
    return writeFileAtomically(Ctx.OutputDir, "analysis.md",
                               [&](raw_ostream &OS) {
                                 render(OS, Ctx, M, Q, W);
                               });
  }

  void render(raw_ostream &OS, const ReportContext &Ctx,
              const ReportModel &M) {
    render(OS, Ctx, M, Ctx.AM.get<TraceQuality>(), Ctx.AM.get<WorkloadInfo>());
  }

private:
  void render(raw_ostream &OS, const ReportContext &Ctx, const ReportModel &M,
              const TraceQuality &Q, const WorkloadInfo &W);
};

void AnalysisMdEmitter::render(raw_ostream &OS, const ReportContext &Ctx,
                               const ReportModel &M, const TraceQuality &Q,
                               const WorkloadInfo &W) {
  const Utilization &U = M.utilization();
  const std::optional<ArchSpec> &Arch = Ctx.AM.options().Arch;
  std::string Platform = Arch ? Arch->Name : "Unknown GPU";
  bool Cmp = comparativeReport(Ctx); // §10.3 swaps the blocks below
  if (Cmp)
    renderComparativeTitle(OS, Ctx, W.title());
  else
    OS << "# " << W.title() << " - " << Platform
       << " Standalone Analysis\n\n";
  OS << "<!-- generated by " << Ctx.ToolVersion << "; pipeline: "
     << Ctx.Pipeline << " -->\n\n";
  renderStepsHeader(OS, Ctx);

  // Executive summary.
  OS << "## Executive Summary\n\n";
  if (Cmp) {
    renderComparativeSummaryTable(OS, Ctx, M);
  } else {
    renderTopFindings(OS, M);
    OS << proseHook("report", "executive-summary", executiveSummaryProse(M))
       << "\n\n";
    OS << "| Metric | Value |\n|---|---|\n";
    OS << "| Total Time | " << fixed(U.TotalMs, 3) << " ms |\n";
    OS << "| Compute % | " << fixed(U.ComputationPct, 2) << "% |\n";
    OS << "| Idle % | " << fixed(U.IdlePct, 2) << "% |\n";
    OS << "| Exposed Communication % | " << fixed(U.ExposedCommPct, 2)
       << "% |\n";
    OS << "| Top Bottleneck Category | ";
    if (const CategoryInfo *C = M.topBottleneck()) {
      OS << C->DisplayName;
      if (auto V = M.percentOfCompute(C->GpuKernelTimeMs))
        OS << " (" << fixed(*V, 1) << "%)";
    } else {
      OS << "None";
    }
    OS << " |\n\n";
  }
  OS << "![Performance breakdown](performance_breakdown.svg)\n\n";
  OS << "![GPU timeline overview](gpu_timeline.svg)\n\n";
  OS << "![Top kernels](top_kernels.svg)\n\n";
  OS << "![GPU idle by cause](idle_by_cause.svg)\n\n";
  if (hasCompareChart(Ctx))
    OS << "![Per-category time, trace 1 vs trace 2](compare_categories.svg)"
          "\n\n";
  if (std::optional<std::string> Why = rooflineUnavailable(Ctx))
    OS << "_" << *Why << "._\n\n";
  else
    OS << "![Roofline](roofline.svg)\n\n";
  OS << "Trace quality: **" << verdictName(Q.verdict()) << "** ("
     << Q.issues().size()
     << " issue(s); see [Appendix: trace quality](#trace-quality)).\n\n";

  // Warnings: failed passes, high-variance operations, trace-quality
  // warnings.
  bool QualityWarn = false;
  for (const QualityIssue &I : Q.issues())
    QualityWarn |= I.Severity != IssueSeverity::Info;
  std::vector<VarianceRow> Variance = highVarianceOps(Ctx, M);
  if (!Ctx.Failed.empty() || !Variance.empty() || QualityWarn) {
    OS << "## Warnings\n\n";
    if (!Ctx.Failed.empty()) {
      OS << "| Analysis | Tier | Error Summary |\n|---|---|---|\n";
      for (const FailedPass &FP : Ctx.Failed)
        OS << "| " << mdCell(FP.Pass) << " | " << failedTier(Ctx, FP)
           << " | " << mdCell(FP.Message) << " |\n";
      OS << "\n";
    }
    if (!Variance.empty()) {
      OS << "**Data Quality**: these operations' kernel times vary by more "
            "than their mean (coefficient of variation > 1.0), so their "
            "averages and the estimates built on them are less reliable.\n\n";
      OS << "| Operation | Category | CoV | Reported Time (ms) |\n"
            "|---|---|---|---|\n";
      for (const VarianceRow &R : Variance)
        OS << "| " << mdNameCell(R.Operation) << " | " << mdCell(R.Category)
           << " | "
           << pyRepr(R.Cov) << " | " << fixed(R.TimeMs, 3) << " |\n";
      OS << "\n";
    }
    if (QualityWarn) {
      OS << "| Trace issue | Severity | Evidence |\n|---|---|---|\n";
      for (const QualityIssue &I : Q.issues())
        if (I.Severity != IssueSeverity::Info)
          OS << "| " << mdCell(I.Summary) << " | " << severityName(I.Severity)
             << " | " << mdCell(I.Evidence) << " |\n";
      OS << "\n";
    }
    OS << "---\n\n";
  }

  // Compute tier.
  OS << "## Compute Kernel Optimizations\n\n";
  OS << "Categories ranked by estimated impact; impact_score is the percent "
        "of end-to-end GPU time a fix could save.\n\n";
  OS << "### Top Operations\n\n";
  if (Cmp) {
    renderComparativeTopOps(OS, Ctx, M);
  } else {
    OS << "<!-- impact-begin kind=top_ops -->\n";
    OS << "| Rank | Category | Time (ms) | " << TopOpsShareColumn
       << " | Ops |\n";
    OS << "|------|----------|-----------|------------------|-----|\n";
    for (const Priority &P : M.priorities()) {
      const CategoryInfo *C = M.category(P.Category);
      double Ms = C ? C->GpuKernelTimeMs : P.GpuKernelTimeMs.value_or(0);
      auto Share = M.percentOfKernelTime(Ms);
      OS << "| " << P.Rank << " | " << mdCell(P.DisplayName) << " | "
         << fixed(Ms, 3) << " | " << (Share ? fixed(*Share, 1) : "—")
         << " | " << (C ? C->OpsCount : 0)
         << " | <!-- top-ops-row low=" << score(P.Low)
         << " high=" << score(P.High) << " -->\n";
    }
    OS << "<!-- impact-end -->\n\n";
    renderTopOpsShareNote(OS, M);
  }
  if (M.items(Tier::Compute).empty())
    OS << "✅ No compute kernel optimization opportunities identified. All "
          "categories are within target performance bounds.\n\n";
  for (const PItem &P : M.items(Tier::Compute))
    renderCard(OS, P, M);

  // Fusion tier.
  OS << "## Kernel Fusion Opportunities (Experimental)\n\n";
  if (Cmp)
    renderComparativeFusionNote(OS);
  else
    OS << "Kernel fusion analysis is experimental: estimates assume 85% "
          "overlap of the fused work, unmodelled kernels use their measured "
          "time, and low-coverage candidates are not reported.\n\n";
  if (M.items(Tier::Fusion).empty())
    OS << "No kernel fusion opportunities detected.\n\n";
  for (const PItem &P : M.items(Tier::Fusion))
    renderCard(OS, P, M);

  // System tier.
  OS << "## System-Level Optimizations\n\n";
  OS << "System-level items are exploratory: they point at where the GPU "
        "waits, not at a quantified saving.\n\n";
  if (Cmp)
    renderComparativeSystemNote(OS, Ctx);
  if (M.items(Tier::System).empty())
    OS << "✅ No system-level bottlenecks detected. GPU activity breakdown "
          "shows "
       << fixed(U.ComputationPct, 1)
       << "% computation, with negligible memcpy and communication "
          "overhead.\n\n";
  for (const PItem &P : M.items(Tier::System))
    renderCard(OS, P, M);

  // Detailed analysis.
  OS << "## Detailed Analysis\n\n";
  struct {
    Tier T;
    StringRef Heading, Empty;
  } Sections[] = {
      {Tier::Compute, "Compute Kernel Insights",
       "✅ No compute kernel optimization opportunities identified."},
      {Tier::Fusion, "Kernel Fusion Insights",
       "No kernel fusion opportunities detected."},
      {Tier::System, "System-Level Insights",
       "✅ No system-level bottlenecks detected."}};
  ComputeDataTables Data(metricsDocs(Ctx), Cmp);
  for (const auto &S : Sections) {
    OS << "### " << S.Heading << "\n\n";
    if (M.items(S.T).empty())
      OS << S.Empty << "\n\n";
    for (const PItem &P : M.items(S.T))
      renderDetail(OS, P, M, {0, /*InReport=*/true, &Data});
  }

  // Appendix.
  OS << "## Appendix\n\n### Model Architecture\n\n";
  auto Fact = [&](StringRef K) {
    StringRef V = W.value(K);
    return V.empty() ? std::string("Cannot be inferred from trace") : V.str();
  };
  OS << "- **Model**: " << Fact("model_family") << "\n";
  OS << "- **Architecture**: " << Fact("model_class") << "\n";
  std::string Scale = "Cannot be inferred from trace";
  if (auto L = W.number("num_layers"), H = W.number("hidden_size"); L && H)
    Scale = std::to_string(*L) + " layers, hidden size " + std::to_string(*H);
  OS << "- **Scale**: " << Scale << "\n";
  OS << "- **Precision**: " << Fact("precision") << "\n\n";
  OS << "### Hardware Reference\n\n";
  if (Arch) {
    OS << "- **Platform**: " << Arch->Name << " (" << Arch->Source
       << " peaks)\n";
    OS << "- **Peak HBM BW**: " << pyRepr(Arch->MemBwGBps / 1000)
       << " TB/s\n";
    if (auto P = Arch->peakTflops("matrix_bf16"))
      OS << "- **Peak MAF (BF16)**: " << pyRepr(*P) << " TFLOPS\n";
    if (auto P = Arch->peakTflops("matrix_fp8"))
      OS << "- **Peak MAF (FP8)**: " << pyRepr(*P) << " TFLOPS\n";
    if (auto P = Arch->peakTflops("matrix_fp4"))
      OS << "- **Peak MAF (FP4)**: " << pyRepr(*P) << " TFLOPS\n";
  } else {
    OS << "- **Platform**: not given (run with --arch for roofline "
          "numbers)\n";
  }
  OS << "\n### What the Trace Says About the Workload\n\n";
  OS << "<a id=\"trace-quality\"></a>\n\n";
  std::string QM;
  raw_string_ostream QOS(QM);
  renderQualityMarkdown(Q, W, QOS);
  // Nest its "## " blocks under the appendix.
  for (StringRef Line : split(StringRef(QM), '\n')) {
    if (Line.starts_with("## "))
      OS << "#### " << Line.drop_front(3) << "\n";
    else
      OS << Line << "\n";
  }
  OS << "\n";
  renderPathMemoryMarkdown(OS, Ctx); // critical path + memory (helper block)
  renderStepsAppendix(OS, Ctx);
  OS << "\n### Run\n\n";
  OS << "- **Tool**: " << Ctx.ToolVersion << "\n";
  OS << "- **Pipeline**: `" << Ctx.Pipeline << "`\n";
  OS << "- **Machine-readable**: `findings.json`, `priority_data.json`\n";
}

} // namespace

void renderAnalysisMarkdown(raw_ostream &OS, const ReportContext &Ctx,
                            const ReportModel &M) {
  AnalysisMdEmitter E;
  E.render(OS, Ctx, M);
}

std::unique_ptr<Emitter> createAnalysisMdEmitter() {
  return std::make_unique<AnalysisMdEmitter>();
}

} // namespace tl
