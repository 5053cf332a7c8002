//===- CategoryAnalyzer.cpp - The shared compute-category runner ----------===//
//
// tracelens-analysis §5.1-§5.2: the rows of one category, their operations[]
// records, the category totals and the metrics file. Percentages use the
// unrounded kernel times (as the reference does); impact uses the rounded
// time_ms it prints.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/CategoryAnalyzer.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/Compare/ComparativeColumns.h"
#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/FusionEstimate.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace llvm;

namespace tl::compute {

std::string categoryKeyOf(StringRef Label) {
  if (Label.empty() || Label == "nan")
    return "other";
  std::string K;
  for (char C : Label)
    K += (C == ' ' || C == '/') ? '_' : toLower(C);
  return K;
}

//===--- ComputeInput -----------------------------------------------------===//

ComputeInput::ComputeInput(const Trace &T, AnalysisManager &AM) {
  const UnifiedPerfTable &U = AM.get<UnifiedPerfTable>();
  const AnalysisOptions &O = AM.options();
  Table = U.toTable(/*Roofline=*/O.Arch.has_value(), /*CallStack=*/true);
  if (O.Reference) {
    addComparativeColumns(Table, T, U, AM.get<TraceDiff>());
    Comparative = true;
  }
  if (Table.Rows.size() == U.rows().size())
    for (const UnifiedPerfRow &R : U.rows())
      Typed.push_back(&R);
  E2EMs = AM.get<GpuTimeline>().totalTime() / 1000.0;
  if (O.Arch) {
    P.HbmTbs = O.Arch->MemBwGBps / 1000.0;
    for (const auto &E : O.Arch->MaxTflops)
      P.MaxTflops.push_back({E.first().str(), E.second});
    llvm::sort(P.MaxTflops);
  }
  // The kernel-fusion analysis' high-confidence map: fused kernels are
  // flagged and kept out of the impact estimates (§5.6).
  Fusion = AM.get<tl::FusionKernelMap>().entries();
  index();
}

ComputeInput::ComputeInput(TextTable Tab, double E2E, Peaks Pk,
                           FusionKernelMap F)
    : Table(std::move(Tab)), E2EMs(E2E), P(std::move(Pk)),
      Fusion(std::move(F)) {
  index();
}

void ComputeInput::index() {
  int C = Table.column("op category");
  for (const std::vector<std::string> &Row : Table.Rows) {
    std::string Label = C >= 0 && size_t(C) < Row.size() ? Row[C] : "";
    std::string Key = categoryKeyOf(Label);
    if (llvm::none_of(Categories, [&](auto &E) { return E.first == Key; }))
      Categories.push_back({Key, Label.empty() ? "Other" : Label});
  }
}

std::vector<size_t> ComputeInput::rowsOf(StringRef Key) const {
  std::vector<size_t> Out;
  int C = Table.column("op category");
  for (size_t I = 0; I < Table.Rows.size(); ++I) {
    std::string Label =
        C >= 0 && size_t(C) < Table.Rows[I].size() ? Table.Rows[I][C] : "";
    if (categoryKeyOf(Label) == Key)
      Out.push_back(I);
  }
  return Out;
}

const UnifiedPerfRow *ComputeInput::typedRow(size_t I) const {
  return I < Typed.size() ? Typed[I] : nullptr;
}

//===--- Runner -----------------------------------------------------------===//

namespace {

/// A CSV cell as pandas would type it, nullopt for NaN.
std::optional<PyValue> cellValue(const RowView &R, StringRef Column) {
  StringRef S = R.text(Column);
  if (S.empty() || S == "nan" || !R.has(Column))
    return std::nullopt;
  if (Column == "has_perf_model")
    return PyValue::boolean(S == "True" || S == "1");
  if (Column == "FLOPS/Byte") {
    std::optional<double> D = R.num(Column);
    if (!D)
      return std::nullopt;
    return PyValue::real(*D);
  }
  return PyValue::str(S);
}

} // namespace

CategoryResult analyzeCategory(const ComputeInput &In, StringRef Key,
                               StringRef Display, const AnalyzerHooks &H) {
  CategoryResult R;
  R.In = &In;
  R.Key = Key.str();
  R.Display = Display.str();
  const TextTable &Tab = In.table();
  std::vector<RowView> Excluded;
  for (size_t I : In.rowsOf(Key)) {
    RowView V(Tab, I);
    if (H.Exclude && H.Exclude(V)) {
      Excluded.push_back(V);
      continue;
    }
    R.Rows.push_back(I);
  }
  // Kernel time desc, stable, NaN last.
  auto KT = [&](size_t I) { return RowView(Tab, I).num("Kernel Time (µs)_sum"); };
  llvm::stable_sort(R.Rows, [&](size_t A, size_t B) {
    std::optional<double> X = KT(A), Y = KT(B);
    if (!X || !Y)
      return X.has_value() && !Y.has_value();
    return *X > *Y;
  });

  double CatUs = 0;
  bool HasKT = Tab.column("Kernel Time (µs)_sum") >= 0;
  for (size_t I : R.Rows)
    CatUs += KT(I).value_or(0);
  double E2E = In.e2eMs();
  double CatMs = CatUs / 1000;
  R.TotalTimeMs = HasKT ? pyRound(CatMs, 3) : 0;
  double Denom = E2E != 0 ? E2E : 1;
  R.PercentOfCompute = HasKT ? pyRound(CatMs / Denom * 100, 2) : 0;
  bool HasOpCount = Tab.column("operation_count") >= 0;
  for (size_t I : R.Rows)
    R.OperationCount += HasOpCount ? static_cast<int64_t>(
                                         RowView(Tab, I).num("operation_count")
                                             .value_or(0))
                                   : 1;

  bool WithCallChain = R.Rows.size() <= 100;
  for (size_t I : R.Rows) {
    RowView V(Tab, I);
    OpRecord Op;
    Op.Row = I;
    Op.Name = V.text("name").str();
    if (auto C = V.num("count"))
      Op.Count = static_cast<int64_t>(*C);
    else if (auto C = V.num("operation_count"))
      Op.Count = static_cast<int64_t>(*C);
    double Ms = KT(I).value_or(0) / 1000;
    Op.TimeMs = pyRound(Ms, 3);
    Op.PercentOfCategory = CatMs > 0 ? pyRound(Ms / CatMs * 100, 2) : 0;
    if (E2E > 0)
      Op.PercentOfTotal = pyRound(Ms / E2E * 100, 2);
    Op.Eff = computeEfficiency(V, In.peaks(), In.comparative());
    if (In.comparative()) {
      if (auto T2 = V.num("lca_total_kernel_time_trace2_us"))
        Op.T2TimeMs = pyRound(*T2 / 1000, 3);
      if (auto C = V.num("lca_count_trace2"))
        Op.CountTrace2 = static_cast<int64_t>(*C);
      if (auto D = V.num("delta_us (trace2 - trace1)"))
        Op.DifferenceMs = pyRound(*D / 1000, 3);
    }
    for (const std::string &F : H.ExtraFields)
      if (std::optional<PyValue> Cell = cellValue(V, F))
        Op.Extra.push_back({F, *Cell});
    Op.Args = renderArgs(V.text("Input Dims"), V.text("Input type"));
    double Frac = E2E > 0 ? Op.TimeMs / E2E : 1.0;
    std::optional<double> Std = V.num("Kernel Time (µs)_std"),
                          Mean = V.num("Kernel Time (µs)_mean");
    if (Op.Count > 10 && Frac >= 0.05 && Std && Mean && *Mean > 0) {
      Op.Cov = pyRound(*Std / *Mean, 3);
      Op.HighVariance = *Op.Cov > 1.0;
    }
    StringRef Kds = V.text("kernel_details_summary");
    Op.Library = detectLibrary(Op.Name, Kds);
    Op.FusionCandidate = fusionMatch(kernelNamesOf(Kds), In.fusionMap());
    StringRef Stack = V.text("call_stack_full");
    Op.ModuleChain = moduleChain(Stack);
    Op.LauncherPath =
        launcherPath(V.text("entry_point"), Op.ModuleChain, Op.Library);
    std::tie(Op.KernelName, Op.KernelNameTrunc) = kernelNames(Stack);
    if (WithCallChain)
      Op.CallChain = callChain(Stack);
    Op.FlopsPerByteRaw = V.num("FLOPS/Byte");
    if (H.Classify)
      Op.Classification = H.Classify(V, Op);
    R.Ops.push_back(std::move(Op));
  }

  R.Estimates = estimateImpact(R.Ops, R.Key, E2E, In.comparative());
  R.Findings = groupFindings(R.Estimates, In.comparative(), H.MinImpact);
  R.Specific = PyValue::dict(H.Specific ? H.Specific(R, Excluded)
                                        : decltype(H.Specific(R, Excluded)){});
  if (H.Extensions) {
    auto Ext = H.Extensions(R);
    if (!Ext.empty())
      R.Extensions = PyValue::dict(std::move(Ext));
  }
  return R;
}

std::string CategoryResult::metricsJson() const {
  // json.dump(indent=2): no trailing newline.
  return pyJsonDumps(metricsValue(), 2);
}

PyValue CategoryResult::metricsValue() const {
  std::vector<PyValue> Ops, Est, Fnd;
  for (const OpRecord &O : this->Ops)
    Ops.push_back(toPy(O));
  for (const ImpactEstimate &E : Estimates)
    Est.push_back(toPy(E));
  for (const CategoryFinding &F : Findings)
    Fnd.push_back(toPy(F));
  std::vector<std::pair<std::string, PyValue>> D = {
      {"category", PyValue::str(Key)},
      {"status", PyValue::str("OK")},
      {"comparison_scope",
       PyValue::str(In && In->comparative() ? "comparative" : "standalone")},
      {"total_time_ms", PyValue::real(TotalTimeMs)},
      {"percent_of_compute", PyValue::real(PercentOfCompute)},
      {"operation_count", PyValue::integer(OperationCount)},
      {"operations", PyValue::list(std::move(Ops))},
      {"category_specific", Specific},
      {"impact_estimates", PyValue::list(std::move(Est))},
      {"category_findings", PyValue::list(std::move(Fnd))}};
  if (!Extensions.isNone())
    D.push_back({"tl_extensions", Extensions});
  return PyValue::dict(std::move(D));
}

PyValue noDataMetrics(StringRef Key, StringRef Message, bool Comparative) {
  std::vector<std::pair<std::string, PyValue>> D = {
      {"category", PyValue::str(Key)},
      {"status", PyValue::str("NO_DATA")},
      {"comparison_scope",
       PyValue::str(Comparative ? "comparative" : "standalone")},
      {"message", PyValue::str(Message)},
      {"total_time_ms", PyValue::integer(0)},
      {"percent_of_compute", PyValue::integer(0)},
      {"operation_count", PyValue::integer(0)},
      {"operations", PyValue::list({})},
      {"category_specific", PyValue::dict({})}};
  return PyValue::dict(std::move(D));
}

} // namespace tl::compute
