//===- IterationAnnotation.cpp - serving iteration annotations ------------===//
//
// A hand-written matcher for the §A.1 grammar: the reference tries its
// formats in order with `re.match` (prefix) and stops at the first match.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/IterationAnnotation.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <string>

using namespace tl;

namespace {
/// A cursor over a name with the few regex pieces the formats use.
struct Cursor {
  llvm::StringRef S;
  bool lit(llvm::StringRef L) { return S.consume_front(L); }
  /// \d+ ; the value saturates instead of overflowing.
  bool num(int64_t &Out) {
    size_t N = 0;
    while (N < S.size() && llvm::isDigit(S[N]))
      ++N;
    if (N == 0)
      return false;
    Out = 0;
    for (char C : S.take_front(N))
      Out = Out > (INT64_MAX - 9) / 10 ? INT64_MAX : Out * 10 + (C - '0');
    S = S.drop_front(N);
    return true;
  }
  bool num() {
    int64_t Ignored;
    return num(Ignored);
  }
};

bool isWordChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// (sq\d+sk\d+sqsq\d+sqsk\d+)
bool chunk(Cursor &C, int64_t &Sq, int64_t &Sk, int64_t &SqSq, int64_t &SqSk) {
  return C.lit("(sq") && C.num(Sq) && C.lit("sk") && C.num(Sk) &&
         C.lit("sqsq") && C.num(SqSq) && C.lit("sqsk") && C.num(SqSk) &&
         C.lit(")");
}

std::optional<ChunkStats> vllmDetailed(llvm::StringRef Name) {
  Cursor C{Name};
  ChunkStats S;
  if (C.lit("execute_") && C.num() && C.lit("_context_") && C.num() &&
      chunk(C, S.CSq, S.CSk, S.CSqSq, S.CSqSk) && C.lit("_generation_") &&
      C.num() && chunk(C, S.GSq, S.GSk, S.GSqSq, S.GSqSk))
    return S;
  return std::nullopt;
}

bool vllmNative(llvm::StringRef Name) {
  Cursor C{Name};
  return C.lit("execute_context_") && C.num() && C.lit("(") && C.num() &&
         C.lit(")_generation_") && C.num() && C.lit("(") && C.num() &&
         C.lit(")");
}

/// key=<int> pairs of a bracket body; a value keeps its leading digits
/// (`bs=117/128` -> 117). The first occurrence of a key wins.
std::map<std::string, int64_t> intPairs(llvm::StringRef Body) {
  std::map<std::string, int64_t> Out;
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] != '=')
      continue;
    size_t B = I;
    while (B > 0 && isWordChar(Body[B - 1]))
      --B;
    if (B == I)
      continue;
    Cursor V{Body.drop_front(I + 1)};
    int64_t X;
    if (V.num(X))
      Out.emplace(Body.slice(B, I).str(), X);
  }
  return Out;
}

int64_t get(const std::map<std::string, int64_t> &M, const char *K) {
  auto It = M.find(K);
  return It == M.end() ? 0 : It->second;
}

/// step\[(?:EXTEND|DECODE|MIXED)\b[^\]]*sqsq=\d+[^\]]*\]
std::optional<ChunkStats> sglangDetailed(llvm::StringRef Name) {
  Cursor C{Name};
  if (!C.lit("step["))
    return std::nullopt;
  if (!C.lit("EXTEND") && !C.lit("DECODE") && !C.lit("MIXED"))
    return std::nullopt;
  if (!C.S.empty() && isWordChar(C.S.front()))
    return std::nullopt;
  size_t Close = C.S.find(']');
  if (Close == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Body = C.S.take_front(Close);
  bool HasSqSq = false;
  for (size_t P = Body.find("sqsq="); P != llvm::StringRef::npos;
       P = Body.find("sqsq=", P + 1))
    if (P + 5 < Body.size() && llvm::isDigit(Body[P + 5]))
      HasSqSq = true;
  if (!HasSqSq)
    return std::nullopt;
  auto KV = intPairs(Body);
  ChunkStats S;
  S.CSq = get(KV, "c_sq");
  S.CSk = get(KV, "c_sk");
  S.CSqSq = get(KV, "c_sqsq");
  S.CSqSk = get(KV, "c_sqsk");
  S.GSq = get(KV, "g_sq");
  S.GSk = get(KV, "g_sk");
  S.GSqSq = get(KV, "g_sqsq");
  S.GSqSk = get(KV, "g_sqsk");
  return S;
}

/// ^(prefill|decode)\[.*sqsq=\d+.*\] ; nullopt also when sqsk is missing.
std::optional<ChunkStats> atomDetailed(llvm::StringRef Name) {
  Cursor C{Name};
  bool Prefill = C.lit("prefill[");
  if (!Prefill && !C.lit("decode["))
    return std::nullopt;
  size_t Close = C.S.rfind(']');
  if (Close == llvm::StringRef::npos)
    return std::nullopt;
  auto KV = intPairs(C.S.take_front(Close));
  if (!KV.count("sqsq") || !KV.count("sqsk"))
    return std::nullopt;
  ChunkStats S;
  int64_t Tok = get(KV, "tok"), Sk = get(KV, "sk"), SqSq = get(KV, "sqsq"),
          SqSk = get(KV, "sqsk");
  if (Prefill) {
    S.CSq = Tok;
    S.CSk = Sk;
    S.CSqSq = SqSq;
    S.CSqSk = SqSk;
  } else {
    S.GSq = Tok;
    S.GSk = Sk;
    S.GSqSq = SqSq;
    S.GSqSk = SqSk;
  }
  return S;
}
} // namespace

std::optional<ChunkStats> tl::parseChunkStats(llvm::StringRef Name) {
  if (auto S = vllmDetailed(Name))
    return S;
  if (vllmNative(Name))
    return std::nullopt;
  if (auto S = sglangDetailed(Name))
    return S;
  // sglang_native, atom_native, diffusion_native and unmatched names have
  // no sq/sk: chunk_stats raises.
  return atomDetailed(Name);
}

bool tl::isAnnotationTarget(llvm::StringRef OpName) {
  static constexpr llvm::StringLiteral Prefixes[] = {
      "vllm::unified_attention_with_output",
      "aiter::mha_varlen_fwd",
      "pseudo_mla_decode_fwd",
      "pseudo_mla_prefill_fwd",
      "vllm::gdn_attention_core",
      "aiter::fmha_v3_varlen_fwd",
      "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
      "sglang_profiler::attention_paged_attention_ragged",
      "aiter::mha_batch_prefill",
      "aiter::pa_decode_gluon",
      "aiter::v4_attention_with_output",
      "pseudo_v4_paged_decode_swa",
      "pseudo_v4_paged_decode_csa",
      "pseudo_v4_paged_decode_hca",
  };
  for (llvm::StringRef P : Prefixes)
    if (OpName.starts_with(P))
      return true;
  return false;
}

AnnotationIndex::AnnotationIndex(const Trace &T) : T(T) {
  for (EventId E = 0, N = T.size(); E < N; ++E)
    if (T.cat(E).contains("user_annotation"))
      Sorted.push_back(E);
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
}

EventId AnnotationIndex::annotationOf(double Ts, double Dur) const {
  for (EventId A : Sorted) {
    if (T.ts(A) > Ts)
      break;
    if (Ts + Dur < T.ts(A) + T.dur(A))
      return A;
  }
  return NoEvent;
}

std::string AnnotationIndex::annotationNameOf(EventId E) const {
  EventId A = annotationOf(T.ts(E), T.dur(E));
  return A == NoEvent ? std::string("NA") : T.name(A).str();
}
