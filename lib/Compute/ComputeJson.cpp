//===- ComputeJson.cpp - Reference-schema JSON of the core records --------===//
//
// Field order and int/float/null choices follow the reference's
// <category>_metrics.json exactly (json.dumps of Python dicts).
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ComputeCore.h"

using namespace llvm;

namespace tl::compute {

namespace {

using Items = std::vector<std::pair<std::string, PyValue>>;

PyValue optNum(const std::optional<double> &V) {
  return V ? PyValue::real(*V) : PyValue::none();
}
PyValue optStr(const std::string &S) {
  return S.empty() ? PyValue::none() : PyValue::str(S);
}
PyValue strList(ArrayRef<std::string> V) {
  std::vector<PyValue> Out;
  for (const std::string &S : V)
    Out.push_back(PyValue::str(S));
  return PyValue::list(std::move(Out));
}

PyValue effPy(const Efficiency &E) {
  return PyValue::dict({
      {"tflops_achieved", optNum(E.TflopsAchieved)},
      {"tb_s_achieved", optNum(E.TbsAchieved)},
      {"efficiency_percent", optNum(E.EfficiencyPercent)},
      {"bound_type", optStr(E.BoundType)},
      {"flops_per_byte", optNum(E.FlopsPerByte)},
      {"compute_spec", optStr(E.ComputeSpec)},
      {"resolved_peak_maf", E.ResolvedPeakMaf},
      {"resolved_peak_hbm_bw", optNum(E.ResolvedPeakHbm)},
      {"warning", optStr(E.Warning)},
      {"is_anomaly", PyValue::boolean(E.IsAnomaly)},
  });
}

} // namespace

PyValue toPy(const OpRecord &Op) {
  Items D;
  D.push_back({"name", PyValue::str(Op.Name)});
  D.push_back({"count", PyValue::integer(Op.Count)});
  D.push_back({"time_ms", PyValue::real(Op.TimeMs)});
  D.push_back({"percent_of_category", PyValue::real(Op.PercentOfCategory)});
  D.push_back({"percent_of_total", optNum(Op.PercentOfTotal)});
  D.push_back({"efficiency", effPy(Op.Eff)});
  if (!Op.Eff.Warning.empty())
    D.push_back({"efficiency_warning", PyValue::str(Op.Eff.Warning)});
  for (const auto &KV : Op.Extra)
    D.push_back(KV);
  if (Op.Args)
    D.push_back({"args", PyValue::str(*Op.Args)});
  if (Op.T2TimeMs)
    D.push_back({"t2_time_ms", PyValue::real(*Op.T2TimeMs)});
  if (Op.CountTrace2)
    D.push_back({"count_trace2", PyValue::integer(*Op.CountTrace2)});
  if (Op.DifferenceMs)
    D.push_back({"difference_ms", PyValue::real(*Op.DifferenceMs)});
  if (Op.Cov) {
    D.push_back({"cov", PyValue::real(*Op.Cov)});
    D.push_back({"high_variance", PyValue::boolean(Op.HighVariance)});
  }
  if (Op.Classification)
    D.push_back({"classification", *Op.Classification});
  D.push_back({"library", optStr(Op.Library)});
  if (!Op.FusionCandidate.empty()) {
    D.push_back({"fusion_flagged", PyValue::boolean(true)});
    D.push_back({"fusion_candidate_name", PyValue::str(Op.FusionCandidate)});
  }
  D.push_back({"launcher_path", PyValue::str(Op.LauncherPath)});
  D.push_back({"kernel_name", PyValue::str(Op.KernelName)});
  D.push_back({"kernel_name_trunc", PyValue::str(Op.KernelNameTrunc)});
  D.push_back({"module_chain", strList(Op.ModuleChain)});
  if (Op.CallChain)
    D.push_back({"call_chain", strList(*Op.CallChain)});
  return PyValue::dict(std::move(D));
}

PyValue toPy(const ImpactEstimate &E) {
  Items D;
  D.push_back({"operation", PyValue::str(E.Operation)});
  D.push_back({"category", PyValue::str(E.Category)});
  D.push_back({"type", PyValue::str(E.Quantified ? "kernel_tuning"
                                                 : "unmodeled_significant")});
  D.push_back({"estimate_method",
               PyValue::str(E.Quantified ? "quantified" : "heuristic")});
  D.push_back({"impact_score", PyValue::real(E.Mid)});
  D.push_back({"impact_score_low", PyValue::real(E.Low)});
  D.push_back({"impact_score_high", PyValue::real(E.High)});
  D.push_back({"efficiency_pct", optNum(E.EfficiencyPct)});
  D.push_back({"bound_type", optStr(E.BoundType)});
  D.push_back({"library", optStr(E.Library)});
  D.push_back({"time_ms", PyValue::real(E.TimeMs)});
  if (E.PercentOfTotal)
    D.push_back({"percent_of_total", PyValue::real(*E.PercentOfTotal)});
  return PyValue::dict(std::move(D));
}

PyValue toPy(const CategoryFinding &F) {
  Items D;
  D.push_back({"bound_type", PyValue::str(F.BoundType)});
  D.push_back({"library", PyValue::str(F.Library)});
  D.push_back({"eff_bucket", PyValue::str(F.EffBucket)});
  D.push_back({"estimate_method",
               PyValue::str(F.Quantified ? "quantified" : "heuristic")});
  D.push_back({"impact_score", PyValue::real(F.Mid)});
  D.push_back({"impact_score_low", PyValue::real(F.Low)});
  D.push_back({"impact_score_high", PyValue::real(F.High)});
  if (F.PercentOfTotal)
    D.push_back({"percent_of_total", PyValue::real(*F.PercentOfTotal)});
  D.push_back({"member_count",
               PyValue::integer(static_cast<int64_t>(F.Members.size()))});
  std::vector<PyValue> M;
  for (const ImpactEstimate &E : F.Members)
    M.push_back(toPy(E));
  D.push_back({"members", PyValue::list(std::move(M))});
  D.push_back({"rank", PyValue::integer(F.Rank)});
  return PyValue::dict(std::move(D));
}

} // namespace tl::compute
