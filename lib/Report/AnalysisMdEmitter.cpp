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
#include "Compare/ComparativeMarkdown.h"
#include "Prose.h"
#include "ReportUtil.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/QualityReport.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {
namespace {

StringRef icon(unsigned Rank) {
  return Rank == 1 ? "🔴" : Rank == 2 ? "🟡" : "🟢";
}

StringRef tierAnchor(Tier T) {
  return T == Tier::Compute ? "compute" : T == Tier::Fusion ? "fusion"
                                                             : "system";
}

/// The reference writes `P` capitalised in fusion anchors only.
std::string anchor(Tier T, unsigned Rank) {
  return ("detailed-analysis-" + tierAnchor(T) + "-" +
          (T == Tier::Fusion ? "P" : "p") + Twine(Rank))
      .str();
}

std::string cell(StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '|')
      Out += "\\|";
    else if (C == '\n')
      Out += "<br>";
    else
      Out += C;
  }
  return Out.empty() ? "—" : Out;
}

std::string valueText(const Value &V) {
  if (const double *D = std::get_if<double>(&V))
    return pyRepr(pyRound(*D, 3));
  std::string S;
  raw_string_ostream OS(S);
  printValue(OS, V);
  return S;
}

void table(raw_ostream &OS, const EvidenceTable &T) {
  OS << "|";
  for (const std::string &C : T.Columns)
    OS << " " << cell(C) << " |";
  OS << "\n|";
  for (size_t I = 0; I < T.Columns.size(); ++I)
    OS << "---|";
  OS << "\n";
  for (const auto &Row : T.Rows) {
    OS << "|";
    for (size_t I = 0; I < T.Columns.size(); ++I)
      OS << " " << (I < Row.size() ? cell(valueText(Row[I])) : "—") << " |";
    OS << "\n";
  }
}

void metricsTable(raw_ostream &OS, const Finding &F) {
  EvidenceTable T;
  T.Columns = {"Metric", "Value"};
  for (const Metric &M : F.Metrics) {
    std::string V = valueText(M.V);
    if (!M.Unit.empty())
      V += M.Unit == "%" ? "%" : " " + M.Unit;
    T.Rows.push_back({M.Name, V});
  }
  if (T.Rows.empty())
    T.Rows.push_back({std::string("findings"), std::string("no metrics")});
  table(OS, T);
}

/// The reference's tier label of a failed analysis: from the findings the
/// pass emitted before failing, else from the system passes' names.
StringRef failedTier(const ReportContext &Ctx, StringRef Pass) {
  for (const Finding &F : Ctx.Findings)
    if (F.Pass == Pass)
      return F.T == Tier::Compute ? "Compute Kernel" : "System";
  return Pass == "cpu-idle" || Pass == "multi-kernel" ||
                 Pass == "kernel-fusion"
             ? "System"
             : "Compute Kernel";
}

class AnalysisMdEmitter final : public Emitter {
public:
  StringRef name() const override { return "analysis-md"; }
  Error emit(const ReportContext &Ctx) override {
    ReportModel M = ReportModel::build(Ctx);
    const TraceQuality &Q = Ctx.AM.get<TraceQuality>();
    const WorkloadInfo &W = Ctx.AM.get<WorkloadInfo>();
    return writeFileAtomically(Ctx.OutputDir, "analysis.md",
                               [&](raw_ostream &OS) {
                                 render(OS, Ctx, M, Q, W);
                               });
  }

private:
  void render(raw_ostream &OS, const ReportContext &Ctx, const ReportModel &M,
              const TraceQuality &Q, const WorkloadInfo &W);
  void card(raw_ostream &OS, const PItem &P, const ReportModel &M);
  void detail(raw_ostream &OS, const PItem &P, const ReportModel &M);
};

void AnalysisMdEmitter::card(raw_ostream &OS, const PItem &P,
                             const ReportModel &M) {
  const Finding &F = *P.F;
  Prose Pr = writeProse(P, M);
  OS << "### " << icon(P.Rank) << " P" << P.Rank << ": " << Pr.Title;
  std::string Lib = stringMetric(F, "library");
  if (F.T == Tier::Compute && !Lib.empty() && Lib != "Unknown")
    OS << " (" << Lib << ")";
  OS << "\n\n";
  OS << "**Insight**: " << proseHook(F.Id, "insight", Pr.Insight) << "\n\n";
  OS << "**Action**: " << proseHook(F.Id, "action", Pr.Action) << "\n\n";
  OS << "<!-- impact-begin kind=p_item";
  if (F.T == Tier::Compute)
    OS << " category=" << P.CategoryKey;
  OS << " low=" << score(P.Low) << " mid=" << score(P.Mid)
     << " high=" << score(P.High) << " -->\n";
  if (!P.scored()) {
    OS << "**Impact**: Not quantifiable from trace data\n";
  } else if (F.T == Tier::Fusion &&
             stringMetric(F, "estimation") != "measured") {
    // Comparative (measured) estimates have no perf-model coverage (§10.3).
    auto K = numericMetric(F, "kernel_count");
    auto Mod = numericMetric(F, "modeled_kernel_count");
    int64_t Kernels = K ? int64_t(*K) : 0, Modelled = Mod ? int64_t(*Mod)
                                                           : Kernels;
    OS << "**Impact**: impact_score: " << score(P.Mid)
       << " (perf-model coverage " << Modelled << "/" << Kernels
       << " kernels)\n";
  } else {
    OS << "**Impact**: impact_score: " << score(P.Mid) << "\n";
  }
  OS << "<!-- impact-end -->\n";
  if (F.T == Tier::Compute && P.isHeuristic()) {
    OS << "\n> **Warning — estimated:** No performance model for this op; "
          "impact is derived from its E2E GPU-time share";
    if (auto Pct = numericMetric(F, "percent_of_total"))
      OS << " (" << pyRepr(*Pct) << "%)";
    OS << ", not a gap projection.\n";
  }
  if (F.T == Tier::Fusion) {
    std::string Conf = stringMetric(F, "confidence");
    if (Conf.empty())
      Conf = "low";
    OS << "\n**Confidence**: " << Conf
       << " — from the kernel names and composition of the sequence\n";
  }
  StringRef Section = F.T == Tier::Compute  ? "Compute kernel insights"
                      : F.T == Tier::Fusion ? "Kernel fusion insights"
                                            : "System-level insights";
  OS << "\n→ *See [Detailed Analysis: " << Section << " > P" << P.Rank
     << "](#" << anchor(F.T, P.Rank) << ") for details*\n\n---\n\n";
}

void AnalysisMdEmitter::detail(raw_ostream &OS, const PItem &P,
                               const ReportModel &M) {
  const Finding &F = *P.F;
  Prose Pr = writeProse(P, M);
  OS << "<a id=\"" << anchor(F.T, P.Rank) << "\"></a>\n";
  OS << "<!-- reasoning-candidate tier=" << tierAnchor(F.T)
     << " rank=" << P.Rank << " -->\n";
  OS << "#### " << icon(P.Rank) << " P" << P.Rank << ": " << Pr.Title << "\n\n";
  OS << "**Identification:** "
     << proseHook(F.Id, "identification", Pr.Identification) << "\n\n";
  OS << "**Data:**\n\n";
  if (F.Evidence.empty())
    metricsTable(OS, F);
  for (const EvidenceTable &T : F.Evidence) {
    if (!T.Title.empty() && &T != &F.Evidence.front())
      OS << "\n*" << T.Title << "*\n\n";
    table(OS, T);
  }
  OS << "\n";
  if (F.T != Tier::Fusion) {
    OS << "**Reasoning for Slowdown:** "
       << proseHook(F.Id, "reasoning", Pr.Reasoning) << "\n\n";
    OS << "**Resolution:** " << proseHook(F.Id, "resolution", Pr.Resolution)
       << "\n\n";
  }
  OS << "**Impact estimate:**\n";
  if (P.scored()) {
    OS << "<!-- impact-begin kind=detail_estimate low=" << score(P.Low)
       << " high=" << score(P.High) << " -->\n";
    OS << "- Low end impact_score: " << score(P.Low) << "\n";
    OS << "- High end impact_score: " << score(P.High) << "\n";
    if (F.T == Tier::Fusion) {
      auto K = numericMetric(F, "kernel_count");
      if (K && stringMetric(F, "estimation") != "measured") {
        int64_t Mod = int64_t(numericMetric(F, "modeled_kernel_count")
                                  .value_or(*K));
        OS << "- Coverage: " << Mod << " of " << int64_t(*K)
           << " kernels modelled";
        if (Mod < int64_t(*K))
          OS << " (" << (int64_t(*K) - Mod)
             << " kernel(s) use measured trace time)";
        OS << "\n";
      }
      std::string Conf = stringMetric(F, "confidence");
      if (!Conf.empty())
        OS << "- Confidence: " << Conf << "\n";
    }
    OS << "<!-- impact-end -->\n\n";
  } else {
    OS << "Impact estimate is not quantifiable from trace data.\n\n";
  }
  if (!F.Notes.empty()) {
    for (const std::string &N : F.Notes)
      OS << "> " << N << "\n";
    OS << "\n";
  }
}

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

  // Executive summary.
  OS << "## Executive Summary\n\n";
  if (Cmp) {
    renderComparativeSummaryTable(OS, Ctx, M);
  } else {
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
  OS << "Trace quality: **" << verdictName(Q.verdict()) << "** ("
     << Q.issues().size()
     << " issue(s); see [Appendix: trace quality](#trace-quality)).\n\n";

  // Warnings: failed passes and trace-quality warnings.
  bool QualityWarn = false;
  for (const QualityIssue &I : Q.issues())
    QualityWarn |= I.Severity != IssueSeverity::Info;
  if (!Ctx.Failed.empty() || QualityWarn) {
    OS << "## Warnings\n\n";
    if (!Ctx.Failed.empty()) {
      OS << "| Analysis | Tier | Error Summary |\n|---|---|---|\n";
      for (const FailedPass &FP : Ctx.Failed)
        OS << "| " << cell(FP.Pass) << " | " << failedTier(Ctx, FP.Pass)
           << " | " << cell(FP.Message) << " |\n";
      OS << "\n";
    }
    if (QualityWarn) {
      OS << "| Trace issue | Severity | Evidence |\n|---|---|---|\n";
      for (const QualityIssue &I : Q.issues())
        if (I.Severity != IssueSeverity::Info)
          OS << "| " << cell(I.Summary) << " | " << severityName(I.Severity)
             << " | " << cell(I.Evidence) << " |\n";
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
    OS << "| Rank | Category | Time (ms) | % of Compute Time | Ops |\n";
    OS << "|------|----------|-----------|-------------------|-----|\n";
    for (const Priority &P : M.priorities()) {
      const CategoryInfo *C = M.category(P.Category);
      double Ms = C ? C->GpuKernelTimeMs : P.GpuKernelTimeMs.value_or(0);
      auto Share = M.percentOfCompute(Ms);
      OS << "| " << P.Rank << " | " << cell(P.DisplayName) << " | "
         << fixed(Ms, 3) << " | " << (Share ? fixed(*Share, 1) : "—")
         << " | " << (C ? C->OpsCount : 0)
         << " | <!-- top-ops-row low=" << score(P.Low)
         << " high=" << score(P.High) << " -->\n";
    }
    OS << "<!-- impact-end -->\n\n";
  }
  if (M.items(Tier::Compute).empty())
    OS << "✅ No compute kernel optimization opportunities identified. All "
          "categories are within target performance bounds.\n\n";
  for (const PItem &P : M.items(Tier::Compute))
    card(OS, P, M);

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
    card(OS, P, M);

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
    card(OS, P, M);

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
  for (const auto &S : Sections) {
    OS << "### " << S.Heading << "\n\n";
    if (M.items(S.T).empty())
      OS << S.Empty << "\n\n";
    for (const PItem &P : M.items(S.T))
      detail(OS, P, M);
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
  OS << "\n### Run\n\n";
  OS << "- **Tool**: " << Ctx.ToolVersion << "\n";
  OS << "- **Pipeline**: `" << Ctx.Pipeline << "`\n";
  OS << "- **Machine-readable**: `findings.json`, `priority_data.json`\n";
}

} // namespace

std::unique_ptr<Emitter> createAnalysisMdEmitter() {
  return std::make_unique<AnalysisMdEmitter>();
}

} // namespace tl
