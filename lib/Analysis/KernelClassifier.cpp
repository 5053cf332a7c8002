//===- KernelClassifier.cpp - Kernel name -> kernel type -----------------===//
//
// Rule table of tracelens-analysis §4, in the reference's order. Patterns
// are ECMAScript regexes searched case-insensitively.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/KernelClassifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>
#include <optional>
#include <bitset>
#include <regex>
#include <string_view>
#include <vector>

using namespace tl;

namespace {

struct Rule {
  const char *Pattern;
  const char *Type;
  int Priority;
};

// clang-format off
const Rule Rules[] = {
    // Block A: fine-grained types.
    {"Rmsnorm|rmsnorm2d", "RMSNorm", 20},
    {"layer_norm|layernorm", "LayerNorm", 20},
    {"l2norm_fwd|l2norm_kernel", "L2Norm", 20},
    {"rsqrt.*mean.*pow|mean.*mul.*pow.*rsqrt", "RMSNorm (fused triton)", 20},
    {"_to_copy_add.*mean.*rsqrt", "RMSNorm (fused triton)", 20},
    {"fused__to_copy_abs.*mean.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    {"fused__to_copy_add.*mean.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    {"fused_add_copy__mean.*pow", "RMSNorm (fused triton residual)", 18},
    {"fused__to_copy_add_copy__mean.*pow", "RMSNorm (fused triton residual)", 18},
    {"fused__to_copy_add_mean_moe_forward_shared.*pow.*rsqrt", "RMSNorm (shared expert + norm)", 20},
    {"fused__to_copy_add_mean.*mul.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    {"attention_[23]d|unified_attention", "Attention (AMD unified)", 20},
    {"fmha[Ss]m\\d+|fmhaSm100f", "Attention (NVIDIA fmha)", 20},
    {"paged_attention|PagedAttention", "Attention (paged)", 20},
    {"flash_attn|flash_fwd", "Attention (flash)", 20},
    {"reduce_segments", "Attention Reduce", 20},
    {"reshape_and_cache_flash|reshape_and_cache", "KV Cache Store", 20},
    {"chunk_gated_delta_rule_fwd", "Linear Attention (chunk_gated_delta_rule_fwd)", 20},
    {"chunk_fwd_kernel_o", "Linear Attention (chunk_fwd_kernel_o)", 20},
    {"chunk_scaled_dot_kkt", "Linear Attention (chunk_scaled_dot_kkt)", 20},
    {"chunk_local_cumsum", "Linear Attention (chunk_local_cumsum)", 20},
    {"fused_recurrent_gated_delta_rule", "Linear Attention (fused_recurrent_gated_delta_rule)", 20},
    {"recompute_w_u_fwd", "Linear Attention (recompute_w_u_fwd)", 20},
    {"merge_\\d+x\\d+_to_\\d+x\\d+_inverse", "Linear Attention (merge_inverse)", 20},
    {"_causal_conv1d_fwd|_causal_conv1d_update", "Causal Conv1D", 20},
    {"fused_gdn_gating", "GDN Gating", 20},
    {"swiglu|swiGlu", "MoE GateUp+SwiGLU GEMM", 25},
    {"fmoe.*g1u1.*silu|fmoe.*silu", "MoE GEMM+SiLU (aiter)", 25},
    {"kernel_moe_gemm|MoeGemmBlockScale", "MoE GEMM (CK)", 22},
    {"finalize.*scatter|_finalize_matmul|finalizeKernel", "MoE Finalize", 20},
    {"topk_forward", "MoE TopK", 20},
    {"topkGatingSoftmax", "MoE TopK Gating", 20},
    {"bitmatrix|_sum_bitmatrix", "MoE BitMatrix", 20},
    {"combined_routing_memset", "MoE Routing Memset", 20},
    {"combined_routing_compute", "MoE Routing Compute", 20},
    {"routingIndicesCluster|routingRenormalize", "MoE Routing (fused)", 20},
    {"MoeSorting", "MoE Sorting", 20},
    {"constant_pad.*moe|moe_forward", "MoE Pad", 20},
    {"quantize_with_block_size", "MoE Quantize", 20},
    {"per_token_group_quant|dynamic_per_group_scaled_quant", "Quantize (per-group)", 18},
    {"act_and_mul_kernel.*silu_kernel", "Activation (SiLU+Mul)", 20},
    {"silu_and_mul|silu_mul|SiluAndMul", "Activation (SiLU+Mul)", 18},
    {"activationDeepSeekKernel", "Activation (DeepSeek fused)", 18},
    {"fused_mul_sigmoid", "Activation (SiLU)", 18},
    {"\\bsilu\\b|swish", "Activation (SiLU)", 15},
    {"\\bgelu\\b", "Activation (GELU)", 15},
    {"memcpy", "MemCpy", 30},
    // Block B: canonical types.
    {"swiglu|swiGlu", "MoE GEMM", 25},
    {"fmoe.*g1u1.*silu|fmoe.*silu", "MoE GEMM", 25},
    {"kernel_moe_gemm|MoeGemmBlockScale", "MoE GEMM", 22},
    {"finalize.*scatter|_finalize_matmul|finalizeKernel", "MoE Finalize", 20},
    {"topk_forward", "MoE Routing", 20},
    {"topkGatingSoftmax", "MoE Routing", 20},
    {"bitmatrix|_sum_bitmatrix", "MoE Routing", 20},
    {"combined_routing_memset", "MoE Routing", 20},
    {"combined_routing_compute", "MoE Routing", 20},
    {"routingIndicesCluster|routingRenormalize", "MoE Routing", 20},
    {"MoeSorting", "MoE Routing", 20},
    {"constant_pad.*moe|moe_forward", "MoE Routing", 20},
    {"quantize_with_block_size", "MoE Quantize", 20},
    {"Rmsnorm|rmsnorm2d", "Normalization", 20},
    {"layer_norm|layernorm", "Normalization", 20},
    {"l2norm_fwd|l2norm_kernel", "Normalization", 20},
    {"rsqrt.*mean.*pow|mean.*mul.*pow.*rsqrt", "Normalization", 20},
    {"_to_copy_add.*mean.*rsqrt", "Normalization", 20},
    {"fused__to_copy_abs.*mean.*pow.*rsqrt", "Normalization", 18},
    {"fused__to_copy_add.*mean.*pow.*rsqrt", "Normalization", 18},
    {"fused_add_copy__mean.*pow", "Normalization", 18},
    {"fused__to_copy_add_copy__mean.*pow", "Normalization", 18},
    {"fused__to_copy_add_mean_moe_forward_shared.*pow.*rsqrt", "Normalization", 20},
    {"fused__to_copy_add_mean.*mul.*pow.*rsqrt", "Normalization", 18},
    {"attention_[23]d|unified_attention", "Attention", 20},
    {"fmha[Ss]m\\d+|fmhaSm100f", "Attention", 20},
    {"paged_attention|PagedAttention", "Attention", 20},
    {"flash_attn|flash_fwd", "Attention", 20},
    {"reduce_segments", "Attention", 20},
    {"reshape_and_cache_flash|reshape_and_cache", "KV Cache Store", 20},
    {"chunk_gated_delta_rule_fwd", "Linear Attention", 20},
    {"chunk_fwd_kernel_o", "Linear Attention", 20},
    {"chunk_scaled_dot_kkt", "Linear Attention", 20},
    {"chunk_local_cumsum", "Linear Attention", 20},
    {"fused_recurrent_gated_delta_rule", "Linear Attention", 20},
    {"recompute_w_u_fwd", "Linear Attention", 20},
    {"merge_\\d+x\\d+_to_\\d+x\\d+_inverse", "Linear Attention", 20},
    {"_causal_conv1d_fwd|_causal_conv1d_update", "Linear Attention", 20},
    {"fused_gdn_gating", "GDN Gating", 20},
    {"rotary|rope", "Rotary Embedding", 18},
    {"activationDeepSeekKernel", "Activation (DeepSeek fused)", 18},
    {"act_and_mul_kernel.*silu_kernel", "Elementwise", 20},
    {"embedding", "Elementwise", 20},
    {"gather_kernel|vectorized_gather", "Elementwise", 20},
    {"per_token_group_quant|dynamic_per_group_scaled_quant", "Quantization", 18},
    {"silu_and_mul|silu_mul|SiluAndMul", "Elementwise", 18},
    {"fused_mul_sigmoid", "Elementwise", 18},
    {"\\bsilu\\b|swish", "Elementwise", 15},
    {"\\bgelu\\b", "Elementwise", 15},
    {"splitKreduce|splitkreduce", "GEMM", 15},
    {"top_k|top_p|sampling|topk_topp", "Elementwise", 15},
    {"CUDAFunctorOnSelf_add<int>", "Elementwise", 15},
    {"__amd_rocclr_copyBuffer", "Elementwise", 12},
    {"memcpy32_post", "Elementwise", 12},
    {"copy_page_indices", "Elementwise", 12},
    {"vectorized_elementwise_kernel.*FillFunctor", "Elementwise", 10},
    {"direct_copy_kernel|_to_copy\\b", "Elementwise", 10},
    {"CatArrayBatchedCopy", "Elementwise", 10},
    {"elementwise.*add|FunctorOnSelf_add", "Elementwise", 8},
    {"elementwise.*mul", "Elementwise", 8},
    {"elementwise", "Elementwise", 5},
    {"_matmul_ogs.*mxfp4", "GEMM", 12},
    {"_gemm_a16_w16", "GEMM", 12},
    {"nvjet_tst", "GEMM", 12},
    {"wvSplitK", "GEMM", 12},
    {"Cijk_", "GEMM", 12},
    {"kernel_gemm_xdl_cshuffle", "GEMM", 12},
    {"_gemm_a\\d+w\\d+", "GEMM", 10},
    {"bmm_MxE4m3.*MxE2m1", "GEMM", 10},
    {"bmm_Bfloat16.*MxE2m1", "GEMM", 10},
    {"cublasLt|cublas", "GEMM", 10},
    {"rocm_aiter_gemm_a8w8", "GEMM", 10},
    {"triton_poi_fused.*clamp.*div.*rocm_aiter_gemm", "GEMM", 8},
    {"triton_per_fused.*abs.*clamp.*div.*max.*rocm_aiter_gemm", "GEMM", 8},
    {"gemm|matmul|bmm", "GEMM", 5},
    {"quant", "Quantization", 4},
    {"triton_poi_fused|triton_red_fused|triton_per_fused", "Elementwise", 3},
    {"\\bnorm\\b", "Normalization", 1},
    {"rocprim|hipcub", "Elementwise", 1},
    {"cub::DeviceScan|DeviceRadixSort|DeviceReduce", "Elementwise", 1},
};
// clang-format on

const char *perfCategoryOf(llvm::StringRef Type) {
  static const std::pair<const char *, const char *> Map[] = {
      {"Normalization", "Normalization"},
      {"Attention", "SDPA"},
      {"Linear Attention", "SDPA"},
      {"GDN Gating", "SDPA-GDN"},
      {"KV Cache Store", "Elementwise"},
      {"Rotary Embedding", "Elementwise"},
      {"MoE GEMM", "GEMM-MoE"},
      {"MoE Routing", "Elementwise-MoE"},
      {"MoE Finalize", "Elementwise-MoE"},
      {"MoE Quantize", "Elementwise-MoE"},
      {"Activation (DeepSeek fused)", "Elementwise-MoE"},
      {"GEMM", "GEMM"},
      {"Quantization", "Quantization"},
      {"Elementwise", "Elementwise"},
      {"MemCpy", "MemCpy"},
  };
  for (auto &[T, P] : Map)
    if (Type == T)
      return P;
  return "Others";
}

/// Literals one of which every match of a pattern contains, lower-cased:
/// per top-level branch, its longest run of unquantified literal atoms.
/// Empty when some branch has no such run (then the regex always runs).
/// The patterns have no groups; anything unusual ends a run.
std::vector<std::string> requiredLiterals(llvm::StringRef Pattern) {
  llvm::SmallVector<llvm::StringRef, 4> Branches;
  Pattern.split(Branches, '|');
  std::vector<std::string> Out;
  for (llvm::StringRef B : Branches) {
    std::string Best, Run;
    auto Flush = [&] {
      if (Run.size() > Best.size())
        Best = Run;
      Run.clear();
    };
    for (size_t I = 0; I < B.size(); ++I) {
      char C = B[I];
      bool Quantified =
          I + 1 < B.size() && llvm::StringRef("*?{+").contains(B[I + 1]);
      if (llvm::isAlnum(C) || llvm::StringRef("_<>:-").contains(C)) {
        if (Quantified) {
          Flush();
          continue;
        }
        Run += llvm::toLower(C);
        continue;
      }
      Flush();
      if (C == '\\')
        ++I; // \d, \b, ...: not a literal
      else if (C == '[' && (I = B.find(']', I)) == llvm::StringRef::npos)
        break; // a class
    }
    Flush();
    if (Best.empty())
      return {};
    Out.push_back(std::move(Best));
  }
  return Out;
}

/// The rule patterns use a small ECMAScript subset: literal characters,
/// `.` and `.*`, `\d` and `\d+`, `\b`, classes of single characters
/// (`[23]`) and top-level `|`. A pattern in that subset is matched here
/// directly, with std::regex's icase semantics (ASCII tolower; `.` is any
/// character but \n and \r; word characters are ASCII alnum and `_`):
/// std::regex costs about a million instructions per kernel name, which
/// made the classifier the longest step after the import on small traces.
/// A pattern outside the subset keeps std::regex.
class RuleMatcher {
public:
  /// False when Pattern is outside the subset.
  bool parse(llvm::StringRef Pattern) {
    Branches.assign(1, {});
    for (size_t I = 0; I < Pattern.size(); ++I) {
      char C = Pattern[I];
      char Next = I + 1 < Pattern.size() ? Pattern[I + 1] : '\0';
      Atom A;
      if (C == '|') {
        Branches.emplace_back();
        continue;
      }
      if (C == '.') {
        A.K = Next == '*' ? AnyStar : Any;
        I += Next == '*';
      } else if (C == '\\') {
        char Esc = Next;
        ++I;
        char After = I + 1 < Pattern.size() ? Pattern[I + 1] : '\0';
        if (Esc == 'd') {
          A.K = After == '+' ? DigitPlus : Digit;
          I += After == '+';
        } else if (Esc == 'b') {
          A.K = WordBoundary;
        } else {
          return false;
        }
      } else if (C == '[') {
        size_t End = Pattern.find(']', I + 1);
        if (End == llvm::StringRef::npos || End == I + 1)
          return false;
        A.K = Set;
        for (char M : Pattern.slice(I + 1, End)) {
          if (!llvm::isAlnum(M) && !llvm::StringRef("_<>:").contains(M))
            return false;
          A.Members += llvm::toLower(M);
        }
        I = End;
      } else if (llvm::isAlnum(C) || llvm::StringRef("_<>:-").contains(C)) {
        A.K = Char;
        A.C = llvm::toLower(C);
      } else {
        return false;
      }
      // A quantifier on anything but `.` and `\d` is outside the subset.
      char Q = I + 1 < Pattern.size() ? Pattern[I + 1] : '\0';
      if (Q == '*' || Q == '+' || Q == '?' || Q == '{')
        return false;
      Branches.back().push_back(std::move(A));
    }
    return true;
  }

  /// regex_search of the pattern in Name.
  bool search(llvm::StringRef Name) const {
    std::vector<uint8_t> Failed;
    for (const Branch &B : Branches) {
      // Failed[I * (N + 1) + P]: atoms I.. do not match at P (whatever the
      // start), so each (atom, position) is tried once. Only `.*` and
      // `\d+` read it: branches without them need none.
      bool Backtracks = llvm::any_of(
          B, [](const Atom &A) { return A.K == AnyStar || A.K == DigitPlus; });
      Failed.assign(Backtracks ? (B.size() + 1) * (Name.size() + 1) : 0, 0);
      // A branch starting with a character can only match where it occurs.
      bool FirstChar = !B.empty() && B[0].K == Char;
      for (size_t P = 0; P <= Name.size(); ++P) {
        if (FirstChar && (P == Name.size() || llvm::toLower(Name[P]) != B[0].C))
          continue;
        if (matchAt(B, 0, P, Name, Failed))
          return true;
      }
    }
    return false;
  }

private:
  enum Kind : uint8_t {
    Char,
    Set,
    Any,
    AnyStar,
    Digit,
    DigitPlus,
    WordBoundary
  };
  struct Atom {
    Kind K = Char;
    char C = 0;
    std::string Members; // Set: lower-cased members
  };
  using Branch = std::vector<Atom>;

  static bool isWord(char C) { return llvm::isAlnum(C) || C == '_'; }
  static bool isAny(char C) { return C != '\n' && C != '\r'; }

  /// Atoms I.. of B match at position P. Recursion only at `.*` and `\d+`
  /// (at most a few per pattern).
  static bool matchAt(const Branch &B, size_t I, size_t P, llvm::StringRef S,
                      std::vector<uint8_t> &Failed) {
    const size_t N = S.size();
    auto Tried = [&](size_t J, size_t Q) -> uint8_t & {
      return Failed[J * (N + 1) + Q];
    };
    for (; I < B.size(); ++I) {
      const Atom &A = B[I];
      switch (A.K) {
      case Char:
        if (P == N || llvm::toLower(S[P]) != A.C)
          return false;
        ++P;
        break;
      case Set:
        if (P == N || llvm::StringRef(A.Members).find(llvm::toLower(S[P])) ==
                          llvm::StringRef::npos)
          return false;
        ++P;
        break;
      case Any:
        if (P == N || !isAny(S[P]))
          return false;
        ++P;
        break;
      case Digit:
        if (P == N || !llvm::isDigit(S[P]))
          return false;
        ++P;
        break;
      case WordBoundary: {
        bool Left = P > 0 && isWord(S[P - 1]);
        bool Right = P < N && isWord(S[P]);
        if (Left == Right)
          return false;
        break;
      }
      case AnyStar:
      case DigitPlus: {
        size_t Q = P;
        if (A.K == DigitPlus) {
          if (P == N || !llvm::isDigit(S[P]))
            return false;
          Q = P + 1;
        }
        for (;;) {
          if (!Tried(I + 1, Q)) {
            if (matchAt(B, I + 1, Q, S, Failed))
              return true;
            Tried(I + 1, Q) = 1;
          }
          bool More =
              Q < N && (A.K == AnyStar ? isAny(S[Q]) : llvm::isDigit(S[Q]));
          if (!More)
            return false;
          ++Q;
        }
      }
      }
    }
    return true;
  }

  std::vector<Branch> Branches;
};

struct CompiledRule {
  bool Direct = false;
  RuleMatcher Matcher;
  /// Only for patterns outside the matcher's subset (none today).
  std::optional<std::regex> Re;
  std::vector<std::string> Literals;
};

const std::vector<CompiledRule> &compiled() {
  static const std::vector<CompiledRule> R = [] {
    std::vector<CompiledRule> V;
    for (const Rule &X : Rules) {
      CompiledRule C;
      C.Direct = C.Matcher.parse(X.Pattern);
      if (!C.Direct)
        C.Re.emplace(X.Pattern, std::regex::ECMAScript | std::regex::icase);
      C.Literals = requiredLiterals(X.Pattern);
      V.push_back(std::move(C));
    }
    return V;
  }();
  return R;
}

bool ruleSearch(const CompiledRule &R, llvm::StringRef Name) {
  if (R.Direct)
    return R.Matcher.search(Name);
  return std::regex_search(Name.begin(), Name.end(), *R.Re);
}

} // namespace

llvm::StringRef tl::classifyKernelType(llvm::StringRef Name) {
  KernelClass C = classifyKernel(Name);
  for (const Rule &R : Rules)
    if (C.KernelType == R.Type)
      return R.Type;
  return "Unknown";
}

size_t tl::detail::numKernelRules() { return std::size(Rules); }

const char *tl::detail::kernelRulePattern(size_t Rule) {
  return Rules[Rule].Pattern;
}

bool tl::detail::kernelRuleSearch(size_t Rule, llvm::StringRef Name) {
  return ruleSearch(compiled()[Rule], Name);
}

bool tl::detail::kernelRuleIsDirect(size_t Rule) {
  return compiled()[Rule].Direct;
}

bool tl::detail::kernelRuleRegexSearch(size_t Index, llvm::StringRef Name) {
  static const std::vector<std::regex> Re = [] {
    std::vector<std::regex> V;
    for (const Rule &X : Rules)
      V.emplace_back(X.Pattern, std::regex::ECMAScript | std::regex::icase);
    return V;
  }();
  return std::regex_search(Name.begin(), Name.end(), Re[Index]);
}

KernelClass tl::classifyKernel(llvm::StringRef Name) {
  // Names repeat a lot; memoize (thread-safe).
  static std::mutex M;
  static llvm::StringMap<KernelClass> Cache;
  {
    std::lock_guard<std::mutex> L(M);
    auto It = Cache.find(Name);
    if (It != Cache.end())
      return It->second;
  }
  const std::vector<CompiledRule> &Re = compiled();
  // std::regex is slow; a rule none of whose required literals occur in
  // the name cannot match, so most rules are skipped without it.
  std::string Lower = Name.lower();
  // Hundreds of literals are looked for in each name: a literal one of
  // whose character pairs is absent from the name (a hashed set of them)
  // is not searched for.
  auto PairHash = [](char A, char B) {
    return ((static_cast<unsigned char>(A) << 5) ^ static_cast<unsigned char>(B)) & 4095u;
  };
  std::bitset<4096> Pairs;
  for (size_t I = 1; I < Lower.size(); ++I)
    Pairs.set(PairHash(Lower[I - 1], Lower[I]));
  std::string_view LowerView(Lower);
  auto Occurs = [&](const std::string &L) {
    for (size_t I = 1; I < L.size(); ++I)
      if (!Pairs.test(PairHash(L[I - 1], L[I])))
        return false;
    return LowerView.find(L) != std::string_view::npos;
  };
  auto MayMatch = [&](const CompiledRule &R) {
    return R.Literals.empty() || llvm::any_of(R.Literals, Occurs);
  };
  int Best = -1;
  size_t BestIdx = 0;
  for (size_t I = 0; I < Re.size(); ++I) {
    // Stable sort by priority desc == first rule with the highest priority.
    if (Rules[I].Priority > Best && MayMatch(Re[I]) &&
        ruleSearch(Re[I], Name)) {
      Best = Rules[I].Priority;
      BestIdx = I;
    }
  }
  KernelClass C;
  if (Best >= 5) {
    C.KernelType = Rules[BestIdx].Type;
    C.PerfCategory = perfCategoryOf(C.KernelType);
    C.Confidence = Best;
  }
  std::lock_guard<std::mutex> L(M);
  Cache.try_emplace(Name, C);
  return C;
}
