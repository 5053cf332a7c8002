//===- Gemm.cpp - GEMM and grouped GEMM against the roofline --------------===//
//
// Compute tier, categories gemm / groupedgemm_fwd / groupedgemm_bwd
// (tracelens-analysis §6.0, §6.3). Every category key gets its own metrics
// file (the reference re-analyses `gemm` for grouped GEMM). Besides the
// reference schema: shapes (M, N, K, batch) and dtypes from perf_params,
// the operand layout read from kernel names, and the ops with no perf model,
// under tl_extensions.
//
//===----------------------------------------------------------------------===//
#include "GemmPass.h"
#include "tl/Compute/ComputePass.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tl;
using namespace tl::compute;
using llvm::StringRef;

namespace {

bool isQuantized(StringRef Name) {
  return containsAnyCI(Name,
                       {"w8a8", "int8", "fp8", "w4a16", "w4a4", "fp4", "mxfp4"});
}

/// Operand layout from vendor kernel-name conventions: cutlass/cuBLAS
/// `_tn_`-style tokens, Tensile `Cijk_Ailk_Bljk` (A: il = N, li = T;
/// B: lj = N, jl = T). "" when the name says nothing.
std::string layoutOf(StringRef Kernel) {
  size_t P = Kernel.find("Cijk_A");
  if (P != StringRef::npos && P + 13 <= Kernel.size()) {
    StringRef A = Kernel.substr(P + 6, 2), B = Kernel.substr(P + 11, 2);
    if (Kernel.substr(P + 8, 3) == "k_B") {
      char LA = A == "il" ? 'N' : A == "li" ? 'T' : '?';
      char LB = B == "lj" ? 'N' : B == "jl" ? 'T' : '?';
      if (LA != '?' && LB != '?')
        return std::string{LA, LB};
    }
  }
  std::string L = Kernel.lower();
  for (const char *Tok : {"nn", "nt", "tn", "tt"}) {
    std::string Pat = std::string("_") + Tok + "_";
    if (StringRef(L).contains(Pat) ||
        StringRef(L).ends_with(std::string("_") + Tok))
      return StringRef(Tok).upper();
  }
  return "";
}

/// A cutlass-style `align1` / `align2` kernel: operands not 16-byte
/// aligned, so the kernel loads element by element.
bool misalignedKernel(StringRef Kernel) {
  for (StringRef Tok : {"align1", "align2"}) {
    size_t P = Kernel.find(Tok);
    if (P != StringRef::npos &&
        (P + Tok.size() == Kernel.size() ||
         !llvm::isDigit(Kernel[P + Tok.size()])))
      return true;
  }
  return false;
}

/// "M=5185" for each of M, N, K that is not a multiple of 8 (tensor cores
/// need multiples of 8 for 16-bit types, 16 for 8-bit ones).
std::vector<std::string> oddDims(const RowView &V) {
  std::vector<std::string> Out;
  if (auto PP = parsePyDict(V.text("perf_params")))
    for (auto &[K, Val] : *PP)
      if ((K == "M" || K == "N" || K == "K") &&
          Val.kind() == PyValue::Kind::Int && Val.getInt() % 8 != 0)
        Out.push_back(K + "=" + std::to_string(Val.getInt()));
  return Out;
}

/// The op is one of the matrix products of a fusion candidate that holds a
/// softmax: an unfused attention (the kernel-fusion pass's pattern).
bool inAttentionFusion(const CategoryResult &R, const OpRecord &Op) {
  if (Op.FusionCandidate.empty())
    return false;
  return llvm::any_of(R.In->fusionMap(), [&](const auto &KV) {
    return KV.second == Op.FusionCandidate &&
           StringRef(KV.first).contains_insensitive("softmax");
  });
}

class GemmPass : public ComputePass<GemmPass> {
public:
  static constexpr llvm::StringLiteral Argument = "gemm";
  static constexpr llvm::StringLiteral Description =
      "GEMM and grouped GEMM: gap to roofline, quantization, layouts and "
      "missing perf models";
  static constexpr PipelineMembership Pipelines[] = {{"compute", 100}};
  static constexpr llvm::StringLiteral SkillName = "gemm-analyzer";
  static constexpr llvm::StringLiteral ClaimedCategories[] = {
      "gemm", "groupedgemm_fwd", "groupedgemm_bwd"};

  Option<double> memoryLikeFpb{
      *this, "memory-like-fpb",
      desc("FLOPS/byte below which GEMMs are small (batch them)"),
      init(100.0)};

  Option<double> keepFusedPct{
      *this, "keep-fused-pct",
      desc("GEMMs a fusion candidate flagged keep their own finding when "
           "they take at least this % of end-to-end time (negative: never)"),
      init(5.0)};

  AnalyzerHooks hooks() const {
    AnalyzerHooks H;
    H.KeepFusedPct = keepFusedPct;
    H.ExtraFields = {"Input Dims", "Input type", "has_perf_model"};
    H.Classify = [](const RowView &, const OpRecord &Op) {
      bool Q = isQuantized(Op.Name);
      return std::optional<PyValue>(PyValue::dict(
          {{"is_quantized", PyValue::boolean(Q)},
           {"gemm_type", PyValue::str(Q ? "quantized" : "regular")}}));
    };
    H.Specific = [](const CategoryResult &R, llvm::ArrayRef<RowView>) {
      int64_t Quant = 0, Missing = 0;
      for (const OpRecord &Op : R.Ops) {
        Quant += isQuantized(Op.Name);
        Missing += !R.row(Op).num("TFLOPS/s_mean").has_value();
      }
      std::vector<std::pair<std::string, PyValue>> S = {
          {"quantized_count", PyValue::integer(Quant)},
          {"missing_perf_model_count", PyValue::integer(Missing)}};
      for (auto &KV : peakItems(R.In->peaks(), /*WithMaf=*/true))
        S.push_back(std::move(KV));
      return S;
    };
    H.Extensions = [](const CategoryResult &R) {
      std::vector<PyValue> Shapes, Missing;
      for (const OpRecord &Op : R.Ops) {
        RowView V = R.row(Op);
        std::vector<std::pair<std::string, PyValue>> D = {
            {"name", PyValue::str(Op.Name)},
            {"time_ms", PyValue::real(Op.TimeMs)}};
        if (auto PP = parsePyDict(V.text("perf_params")))
          for (auto &[K, Val] : *PP)
            if (K == "M" || K == "N" || K == "K" || K == "B" ||
                K == "dtype_A_B")
              D.push_back({K, Val});
        std::vector<PyValue> Layouts;
        for (const std::string &K : kernelNamesOf(V.text("kernel_details_summary")))
          Layouts.push_back(PyValue::str(layoutOf(K)));
        D.push_back({"layouts", PyValue::list(std::move(Layouts))});
        Shapes.push_back(PyValue::dict(std::move(D)));
        if (!V.num("TFLOPS/s_mean"))
          Missing.push_back(PyValue::str(Op.Name));
      }
      return std::vector<std::pair<std::string, PyValue>>{
          {"gemm_shapes", PyValue::list(std::move(Shapes))},
          {"missing_perf_model_ops", PyValue::list(std::move(Missing))}};
    };
    double Fpb = memoryLikeFpb;
    H.Resolve = [Fpb](const CategoryResult &R, const CategoryFinding &F) {
      if (!F.Quantified)
        return defaultResolution(R, F);
      bool AllQuant = llvm::all_of(F.Members, [&](const ImpactEstimate &E) {
        return isQuantized(E.Operation);
      });
      bool Small = true, Transposed = false, Attention = false;
      bool Misaligned = false;
      std::vector<std::string> Odd;
      std::string Candidate;
      for (const ImpactEstimate &E : F.Members) {
        const OpRecord &Op = R.Ops[E.Op];
        if (inAttentionFusion(R, Op)) {
          Attention = true;
          Candidate = Op.FusionCandidate;
        }
        for (const std::string &K :
             kernelNamesOf(R.row(Op).text("kernel_details_summary")))
          Misaligned |= misalignedKernel(K);
        for (std::string &D : oddDims(R.row(Op)))
          if (!llvm::is_contained(Odd, D))
            Odd.push_back(std::move(D));
        if (!Op.Eff.FlopsPerByte || *Op.Eff.FlopsPerByte >= Fpb)
          Small = false;
        for (const std::string &K :
             kernelNamesOf(R.row(Op).text("kernel_details_summary"))) {
          std::string L = layoutOf(K);
          Transposed |= L == "TT" || L == "NT";
        }
      }
      std::string Pad;
      if (Misaligned || !Odd.empty())
        Pad = std::string(Misaligned ? "the kernels are align1/align2 "
                                       "variants (operands not 16-byte "
                                       "aligned)"
                                     : "the shapes are not tensor-core "
                                       "friendly") +
              (Odd.empty() ? std::string()
                           : " (" + llvm::join(Odd, ", ") +
                                 " not a multiple of 8)") +
              ": pad those dimensions to a multiple of 8 (16 for 8-bit "
              "types) so the library picks its aligned, vectorised kernels.";
      if (Attention)
        return Resolution{
            "These GEMMs are the Q·K^T and P·V products of an unfused "
            "attention (fusion candidate " + Candidate + "): replace the "
            "block with torch.nn.functional.scaled_dot_product_attention "
            "(flash / memory-efficient attention), which removes them "
            "together with the softmax." +
                (Pad.empty() ? "" : " Until then: " + Pad),
            "fused attention (SDPA / flash attention)",
            "one attention kernel instead of two GEMMs and a softmax"};
      if (!Pad.empty())
        return Resolution{(llvm::Twine(llvm::toUpper(Pad[0])) +
                           StringRef(Pad).drop_front())
                              .str(),
                          "pad to aligned shapes",
                          "aligned kernels, higher TFLOP/s"};
      if (F.BoundType == "memory" && Small)
        return Resolution{
            "These GEMMs are small (arithmetic intensity below " +
                llvm::formatv("{0}", Fpb).str() +
                " FLOPS/byte): batch them into grouped or batched GEMM calls, "
                "or fuse them with their neighbours, so each launch moves "
                "less data per FLOP.",
            "batched/grouped GEMM", "higher FLOPS/byte and TB/s"};
      if (F.BoundType == "memory" && Transposed)
        return Resolution{
            "The kernels read a transposed operand: store the weight in the "
            "layout the fast kernel expects (pre-transpose once) so the GEMM "
            "streams contiguous memory.",
            "layout change", "higher achieved TB/s"};
      if (F.BoundType == "compute" && !AllQuant)
        return Resolution{
            "Tune tile sizes and occupancy for these shapes (autotuned "
            "hipBLASLt/cuBLASLt solutions, or torch.compile max-autotune) "
            "and narrow the precision (FP8 GEMM) if the model tolerates it.",
            "tile/occupancy tuning, precision narrowing", "higher TFLOP/s"};
      return Resolution{
          "Tune tile sizes and occupancy for these shapes: pick the "
          "library's autotuned solution for each (M, N, K).",
          "tile/occupancy tuning", "higher TFLOP/s or TB/s"};
    };
    return H;
  }
};

} // namespace

void tl::registerGemmPass(PassRegistry &R) { R.registerPass<GemmPass>(); }
