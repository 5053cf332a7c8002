//===- IterationAnnotation.cpp - Serving runners' iteration names ---------===//
//
// std::regex with the reference's patterns (ECMAScript has \d, \b and
// (?:...)); match_continuous gives Python's re.match (a prefix match).
// libstdc++'s matcher recurses per character, so names longer than
// MaxNameLength are treated as matching nothing: iteration names are short.
//
//===----------------------------------------------------------------------===//
#include "tl/Support/IterationAnnotation.h"

#include <regex>
#include <string>

using namespace tl;

namespace {
constexpr size_t MaxNameLength = 4096;

int64_t toInt(const std::string &S) {
  int64_t V = 0;
  for (char C : S) {
    if (C < '0' || C > '9')
      break;
    if (V > (INT64_MAX - 9) / 10)
      return V; // absurd field; keep what fits
    V = V * 10 + (C - '0');
  }
  return V;
}

bool prefixMatch(const std::string &S, const std::regex &R,
                 std::smatch *M = nullptr) {
  std::smatch Local;
  return std::regex_search(S, M ? *M : Local, R,
                           std::regex_constants::match_continuous);
}
} // namespace

struct IterationAnnotationParser::Patterns {
  std::regex VllmDetailed{
      R"(execute_(\d+)_context_(\d+)\(sq(\d+)sk(\d+)sqsq(\d+)sqsk(\d+)\))"
      R"(_generation_(\d+)\(sq(\d+)sk(\d+)sqsq(\d+)sqsk(\d+)\))"};
  std::regex VllmNative{R"(execute_context_(\d+)\((\d+)\)_generation_(\d+)\((\d+)\))"};
  std::regex SglangDetailed{
      R"(step\[(?:EXTEND|DECODE|MIXED)\b[^\]]*sqsq=\d+[^\]]*\])"};
  std::regex SglangNative{R"(step\[(?:EXTEND|DECODE|MIXED)\b.*\])"};
  std::regex SglangNativeFull{R"(step\[(\w+)\s+bs=(\d+)(?:\s+toks=(\d+))?\])"};
  std::regex AtomDetailed{R"((prefill|decode)\[.*sqsq=\d+.*\])"};
  std::regex AtomNative{R"((prefill|decode)\[(.*)\])"};
  std::regex Diffusion{R"(execute_diffusion_(\d+)_(\d+x\d+))"};
  std::regex IntPair{R"((\w+)=(\d+))"};
  std::regex AnyPair{R"((\w+)=([^\s,\]]*))"};
};

IterationAnnotationParser::IterationAnnotationParser()
    : P(std::make_unique<Patterns>()) {}
IterationAnnotationParser::~IterationAnnotationParser() = default;

bool IterationAnnotationParser::matchesDetailed(llvm::StringRef Name) const {
  if (Name.size() > MaxNameLength)
    return false;
  std::string S = Name.str();
  return prefixMatch(S, P->VllmDetailed) || prefixMatch(S, P->AtomDetailed) ||
         prefixMatch(S, P->SglangDetailed);
}

bool IterationAnnotationParser::matchesNative(llvm::StringRef Name) const {
  if (Name.size() > MaxNameLength)
    return false;
  std::string S = Name.str();
  return prefixMatch(S, P->VllmNative) || prefixMatch(S, P->SglangNative) ||
         prefixMatch(S, P->AtomNative) || prefixMatch(S, P->Diffusion);
}

IterationAnnotation
IterationAnnotationParser::parse(llvm::StringRef Name) const {
  IterationAnnotation A;
  if (Name.size() > MaxNameLength)
    return A;
  std::string S = Name.str();
  std::smatch M;
  auto Found = [&](IterationFormat F, int64_t Batch) {
    A.Format = F;
    A.BatchSize = Batch;
    return A;
  };
  // execute_T_context_Cr(sq c_sq ...)_generation_Gr(sq g_sq ...): c_sq + g_sq.
  if (prefixMatch(S, P->VllmDetailed, &M))
    return Found(IterationFormat::VllmDetailed,
                 toInt(M[3].str()) + toInt(M[8].str()));
  // execute_context_Cr(Cs)_generation_Gr(Gs): Cs + Gs.
  if (prefixMatch(S, P->VllmNative, &M))
    return Found(IterationFormat::VllmNative,
                 toInt(M[2].str()) + toInt(M[4].str()));
  // step[... key=int ...]: c_sq + g_sq, else toks, else bs.
  if (prefixMatch(S, P->SglangDetailed, &M)) {
    std::string Inside = M[0].str();
    int64_t Bs = 0, Toks = 0, CSq = 0, GSq = 0;
    for (auto It = std::sregex_iterator(Inside.begin(), Inside.end(),
                                        P->IntPair);
         It != std::sregex_iterator(); ++It) {
      std::string K = (*It)[1].str();
      int64_t V = toInt((*It)[2].str());
      if (K == "bs")
        Bs = V;
      else if (K == "toks")
        Toks = V;
      else if (K == "c_sq")
        CSq = V;
      else if (K == "g_sq")
        GSq = V;
    }
    int64_t Batch = CSq + GSq ? CSq + GSq : Toks ? Toks : Bs;
    return Found(IterationFormat::SglangDetailed, Batch);
  }
  // step[MODE bs=N( toks=M)?] in full, else this format does not apply.
  if (prefixMatch(S, P->SglangNative) &&
      std::regex_match(S, M, P->SglangNativeFull)) {
    int64_t Bs = toInt(M[2].str());
    int64_t Toks = M[3].matched ? toInt(M[3].str()) : 0;
    int64_t Batch = M[1].str() == "DECODE" ? Bs : Toks ? Toks : Bs;
    return Found(IterationFormat::SglangNative, Batch);
  }
  // prefill[...] / decode[...]: key=value pairs, batch = tok.
  bool AtomD = prefixMatch(S, P->AtomDetailed, &M);
  if (AtomD || prefixMatch(S, P->AtomNative, &M)) {
    std::string Inside = M[0].str();
    int64_t Tok = 0;
    for (auto It = std::sregex_iterator(Inside.begin(), Inside.end(),
                                        P->AnyPair);
         It != std::sregex_iterator(); ++It)
      if ((*It)[1].str() == "tok")
        Tok = toInt((*It)[2].str());
    return Found(AtomD ? IterationFormat::AtomDetailed
                       : IterationFormat::AtomNative,
                 Tok);
  }
  if (prefixMatch(S, P->Diffusion, &M))
    return Found(IterationFormat::DiffusionNative, toInt(M[1].str()));
  return A;
}
