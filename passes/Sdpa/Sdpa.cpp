//===- Sdpa.cpp - Attention kernels against the roofline ------------------===//
//
// Compute tier, categories sdpa_fwd / sdpa_bwd / inferenceattention
// (tracelens-analysis §6.2): flash / paged / standard attention, the kernel
// breakdown of paged attention (KV-cache store vs attention kernels), the
// workload profile (prefill / decode / mixed) and GQA vs MHA.
//
//===----------------------------------------------------------------------===//
#include "SdpaPass.h"
#include "tl/Compute/ComputePass.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/PyLiteral.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tl;
using namespace tl::compute;
using llvm::StringRef;

namespace {

bool isFlash(StringRef Name) {
  return containsAnyCI(Name, {"flash", "fmha", "flash_attention", "flashattn"});
}
bool isPaged(StringRef Name, StringRef Kds) {
  return containsAnyCI(Name, {"unified_attention", "paged_attention", "vllm"}) ||
         containsAnyCI(Kds, {"kernel_paged_attention", "paged_attention_2d"});
}

struct BreakdownKernel {
  std::string Name, Type;
  double MeanUs = 0, Percent = 0;
};

/// The reference's regex over the kernel-details text after removing every
/// `np.float64(` and every `)` (which also strips parentheses inside kernel
/// names — replicated, see docs/conformance.md).
std::vector<BreakdownKernel> breakdownOf(StringRef Kds) {
  std::string S = Kds.str();
  for (size_t P; (P = S.find("np.float64(")) != std::string::npos;)
    S.erase(P, strlen("np.float64("));
  llvm::erase(S, ')');
  std::vector<BreakdownKernel> Out;
  StringRef T(S);
  size_t Pos = 0;
  auto SkipWs = [&](size_t I) {
    while (I < T.size() && llvm::isSpace(T[I]))
      ++I;
    return I;
  };
  while (true) {
    size_t N = T.find("'name':", Pos);
    if (N == StringRef::npos)
      break;
    size_t Q = SkipWs(N + 7);
    if (Q >= T.size() || T[Q] != '\'') {
      Pos = N + 7;
      continue;
    }
    size_t End = T.find('\'', Q + 1);
    if (End == StringRef::npos || End == Q + 1)
      break;
    size_t M = T.find("'mean_duration_us':", End);
    if (M == StringRef::npos)
      break;
    size_t V = SkipWs(M + 19), VE = V;
    while (VE < T.size() && (llvm::isDigit(T[VE]) || T[VE] == '.'))
      ++VE;
    if (VE == V) {
      Pos = M + 19;
      continue;
    }
    BreakdownKernel K;
    K.Name = T.slice(Q + 1, End).str();
    K.MeanUs = parsePyFloat(T.slice(V, VE)).value_or(0);
    std::string L = StringRef(K.Name).lower();
    K.Type = StringRef(L).contains("reshape_and_cache") ? "reshape_cache"
             : StringRef(L).contains("paged_attention") ? "paged_attention"
             : StringRef(L).contains("fwd_kernel")      ? "fwd_kernel"
                                                        : "other";
    Out.push_back(std::move(K));
    Pos = VE;
  }
  double Sum = 0;
  for (const BreakdownKernel &K : Out)
    Sum += K.MeanUs;
  for (BreakdownKernel &K : Out)
    K.Percent = Sum > 0 ? pyRound(K.MeanUs / Sum * 100, 2) : 0;
  return Out;
}

double typePercent(const std::vector<BreakdownKernel> &B, StringRef Type) {
  double P = 0;
  for (const BreakdownKernel &K : B)
    if (K.Type == Type)
      P += K.Percent;
  return P;
}

struct Workload {
  std::optional<int64_t> NQ, NKV, HQ, HKV;
  std::optional<double> Ctx, Gen, CtxRatio, GqaRatio;
  std::string Type = "unknown";
  std::string Pattern; // "" = null
};

std::optional<double> numberOf(const PyValue &V) {
  if (V.isNumber())
    return V.asDouble();
  return std::nullopt;
}

PyValue numValue(const std::optional<double> &D) {
  if (!D)
    return PyValue::none();
  if (*D == static_cast<double>(static_cast<int64_t>(*D)))
    return PyValue::integer(static_cast<int64_t>(*D));
  return PyValue::real(*D);
}

Workload workloadOf(StringRef PerfParams) {
  Workload W;
  auto PP = parsePyDict(PerfParams);
  if (!PP)
    return W;
  auto Get = [&](StringRef K) -> std::optional<double> {
    for (auto &[Key, V] : *PP)
      if (Key == K)
        return numberOf(V);
    return std::nullopt;
  };
  auto Int = [&](StringRef K) -> std::optional<int64_t> {
    if (auto D = Get(K))
      return static_cast<int64_t>(*D);
    return std::nullopt;
  };
  W.NQ = Int("N_Q");
  W.NKV = Int("N_KV");
  W.HQ = Int("H_Q");
  W.HKV = Int("H_KV");
  W.Ctx = Get("sum_ctx_tokens").value_or(0);
  W.Gen = Get("sum_gen_tokens").value_or(0);
  double Total = *W.Ctx + *W.Gen;
  if (Total > 0) {
    W.CtxRatio = pyRound(*W.Ctx / Total, 3);
    W.Type = *W.CtxRatio > 0.8   ? "prefill_heavy"
             : *W.CtxRatio < 0.2 ? "decode_heavy"
                                 : "mixed";
  }
  if (W.HQ && W.HKV && *W.HQ && *W.HKV) {
    if (*W.HKV < *W.HQ) {
      W.Pattern = "GQA";
      W.GqaRatio = static_cast<double>(*W.HQ / *W.HKV);
    } else if (*W.HKV == *W.HQ) {
      W.Pattern = "MHA";
    } else {
      W.Pattern = "unknown";
    }
  }
  return W;
}

PyValue workloadPy(const Workload &W) {
  auto I = [](const std::optional<int64_t> &V) {
    return V ? PyValue::integer(*V) : PyValue::none();
  };
  return PyValue::dict({
      {"n_q", I(W.NQ)},
      {"n_kv", I(W.NKV)},
      {"h_q", I(W.HQ)},
      {"h_kv", I(W.HKV)},
      {"sum_ctx_tokens", numValue(W.Ctx)},
      {"sum_gen_tokens", numValue(W.Gen)},
      {"ctx_ratio", W.CtxRatio ? PyValue::real(*W.CtxRatio) : PyValue::none()},
      {"workload_type", PyValue::str(W.Type)},
      {"attention_pattern",
       W.Pattern.empty() ? PyValue::none() : PyValue::str(W.Pattern)},
      {"gqa_ratio", numValue(W.GqaRatio)},
  });
}

class SdpaPass : public ComputePass<SdpaPass> {
public:
  static constexpr llvm::StringLiteral Argument = "sdpa";
  static constexpr llvm::StringLiteral Description =
      "Attention (SDPA fwd/bwd, inference attention): flash/paged/standard, "
      "paged-attention kernel breakdown, workload profile, GQA";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 200}};
  static constexpr llvm::StringLiteral SkillName = "sdpa-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {
      "sdpa_fwd", "sdpa_bwd", "inferenceattention"};

  Option<double> kvStorePct{
      *this, "kv-store-pct",
      desc("KV-cache store share (% of paged attention kernel time) that "
           "calls for block-size tuning"),
      init(10.0)};

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.ExtraFields = {"Input Dims", "Input type", "has_perf_model",
                     "perf_params", "kernel_details_summary"};
    H.Classify = [](const RowView &V, const OpRecord &Op) {
      StringRef Kds = V.text("kernel_details_summary");
      bool Flash = isFlash(Op.Name), Paged = isPaged(Op.Name, Kds);
      StringRef HPM = V.text("has_perf_model");
      std::vector<std::pair<std::string, PyValue>> C = {
          {"is_flash_attention", PyValue::boolean(Flash)},
          {"is_paged_attention", PyValue::boolean(Paged)},
          {"has_perf_model", PyValue::boolean(HPM == "True" || HPM == "1")},
          {"attention_type",
           PyValue::str(Paged ? "paged" : Flash ? "flash" : "standard")}};
      if (Paged && !Kds.empty()) {
        std::vector<BreakdownKernel> B = breakdownOf(Kds);
        if (!B.empty()) {
          std::vector<PyValue> Ks;
          for (const BreakdownKernel &K : B)
            Ks.push_back(PyValue::dict({{"name", PyValue::str(K.Name)},
                                        {"mean_us", PyValue::real(K.MeanUs)},
                                        {"kernel_type", PyValue::str(K.Type)},
                                        {"percent", PyValue::real(K.Percent)}}));
          auto Has = [&](StringRef T) {
            return llvm::any_of(B, [&](auto &K) { return K.Type == T; });
          };
          C.push_back({"kernel_breakdown",
                       PyValue::dict({{"has_paged_attention_kernel",
                                       PyValue::boolean(Has("paged_attention"))},
                                      {"has_fwd_kernel",
                                       PyValue::boolean(Has("fwd_kernel"))},
                                      {"has_reshape_cache",
                                       PyValue::boolean(Has("reshape_cache"))},
                                      {"kernels", PyValue::list(std::move(Ks))}})});
        }
      }
      if (V.has("perf_params"))
        C.push_back({"workload_profile",
                     workloadPy(workloadOf(V.text("perf_params")))});
      return std::optional<PyValue>(PyValue::dict(std::move(C)));
    };
    H.Specific = [](const CategoryResult &R, llvm::ArrayRef<RowView>) {
      int64_t Flash = 0, Paged = 0, Models = 0;
      double Reshape = 0, Fwd = 0, PagedK = 0, Ctx = 0, Gen = 0;
      int64_t WithBreakdown = 0;
      for (const OpRecord &Op : R.Ops) {
        RowView V = R.row(Op);
        StringRef Kds = V.text("kernel_details_summary");
        Flash += isFlash(Op.Name);
        bool P = isPaged(Op.Name, Kds);
        Paged += P;
        Models += V.text("has_perf_model") == "True";
        if (P && !Kds.empty()) {
          std::vector<BreakdownKernel> B = breakdownOf(Kds);
          if (!B.empty()) {
            ++WithBreakdown;
            Reshape += typePercent(B, "reshape_cache");
            Fwd += typePercent(B, "fwd_kernel");
            PagedK += typePercent(B, "paged_attention");
          }
        }
        Workload W = workloadOf(V.text("perf_params"));
        Ctx += W.Ctx.value_or(0);
        Gen += W.Gen.value_or(0);
      }
      std::vector<std::pair<std::string, PyValue>> S = {
          {"flash_attention_count", PyValue::integer(Flash)},
          {"paged_attention_count", PyValue::integer(Paged)},
          {"has_perf_model_count", PyValue::integer(Models)},
          {"flash_attention_detected", PyValue::boolean(Flash > 0)},
          {"paged_attention_detected", PyValue::boolean(Paged > 0)}};
      for (auto &KV : peakItems(R.In->peaks(), /*WithMaf=*/true))
        S.push_back(std::move(KV));
      if (WithBreakdown) {
        double N = static_cast<double>(WithBreakdown);
        S.push_back({"kernel_breakdown_avg",
                     PyValue::dict({{"avg_reshape_cache_percent",
                                     PyValue::real(pyRound(Reshape / N, 2))},
                                    {"avg_fwd_kernel_percent",
                                     PyValue::real(pyRound(Fwd / N, 2))},
                                    {"avg_paged_attention_percent",
                                     PyValue::real(pyRound(PagedK / N, 2))}})});
      }
      if (Ctx + Gen > 0) {
        double Ratio = pyRound(Ctx / (Ctx + Gen), 3);
        S.push_back(
            {"workload_profile",
             PyValue::dict({{"total_ctx_tokens", numValue(Ctx)},
                            {"total_gen_tokens", numValue(Gen)},
                            {"ctx_ratio", PyValue::real(Ratio)},
                            {"profile_type",
                             PyValue::str(Ratio > 0.8   ? "prefill_heavy"
                                          : Ratio < 0.2 ? "decode_heavy"
                                                        : "mixed")}})});
      }
      return S;
    };
    double KvPct = kvStorePct;
    H.Resolve = [KvPct](const CategoryResult &R, const CategoryFinding &F) {
      if (!F.Quantified)
        return defaultResolution(R, F);
      bool AnyPaged = false, AnyStandard = false, AnyGqa = false;
      int64_t MinN = 0;
      double KvShare = 0;
      for (const ImpactEstimate &E : F.Members) {
        const OpRecord &Op = R.Ops[E.Op];
        RowView V = R.row(Op);
        StringRef Kds = V.text("kernel_details_summary");
        bool P = isPaged(Op.Name, Kds);
        AnyPaged |= P;
        AnyStandard |= !P && !isFlash(Op.Name);
        if (P)
          KvShare = std::max(KvShare,
                             typePercent(breakdownOf(Kds), "reshape_cache"));
        Workload W = workloadOf(V.text("perf_params"));
        AnyGqa |= W.Pattern == "GQA";
        if (W.NQ && (!MinN || *W.NQ < MinN))
          MinN = *W.NQ;
      }
      if (AnyPaged && F.BoundType == "memory" && KvShare > KvPct)
        return Resolution{
            "KV-cache stores take " + llvm::formatv("{0:F2}", KvShare).str() +
                "% of the paged-attention kernel time: tune the KV cache "
                "block_size (16/32/64) and batch more decode sequences per "
                "step.",
            "KV block-size tuning, larger decode batch",
            "lower KV-store share and higher TB/s"};
      if (AnyPaged && F.BoundType == "memory")
        return Resolution{
            "Decode attention is bandwidth-bound: raise the decode batch (or "
            "use speculative decoding) so each KV-cache read serves more "
            "query tokens.",
            "larger decode batch", "higher FLOPS/byte"};
      if (AnyStandard)
        return Resolution{
            "Attention runs as the standard (unfused) path: dispatch "
            "scaled_dot_product_attention to the flash / memory-efficient "
            "backend so scores never go to HBM.",
            "flash attention backend", "one fused attention kernel"};
      std::string Short =
          MinN && MinN < 1024
              ? " Sequences are short (N = " + std::to_string(MinN) +
                    " < 1024), where attention kernels reach low efficiency; "
                    "pack sequences or batch more of them per launch."
              : "";
      return Resolution{
          "Use the attention backend's tuned kernel for these shapes "
          "(larger head-dim tiles, the FA3/CK variant for this GPU)" +
              std::string(AnyGqa ? "" : "; check whether the model allows "
                                        "grouped-query attention") +
              "." + Short,
          "tile/occupancy tuning", "higher attention TFLOP/s"};
    };
    return H;
  }
};

} // namespace

void tl::registerSdpaPass(PassRegistry &R) { R.registerPass<SdpaPass>(); }
