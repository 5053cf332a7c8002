//===- KernelName.cpp - Short kernel names for titles ---------------------===//
//
// The rule is in KernelName.h. Brackets are matched with counters over one
// loop (no recursion); `->` is not an angle bracket.
//
//===----------------------------------------------------------------------===//
#include "tl/Support/KernelName.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

using namespace llvm;

namespace tl {

size_t displayWidth(StringRef S) {
  size_t N = 0;
  for (char C : S)
    N += (static_cast<unsigned char>(C) & 0xC0) != 0x80;
  return N;
}

namespace {

constexpr StringLiteral Ellipsis = "\xE2\x80\xA6"; // U+2026

bool isIdent(char C) { return isAlnum(C) || C == '_'; }

bool isArrow(StringRef S, size_t I) { return I > 0 && S[I - 1] == '-'; }

/// Index of the '(' or '<' that opens the bracket closed at S[End].
size_t openerOf(StringRef S, size_t End) {
  char Close = S[End], Open = Close == ')' ? '(' : '<';
  int Depth = 0;
  for (size_t I = End + 1; I-- > 0;) {
    if (S[I] == Close && !(Close == '>' && isArrow(S, I)))
      ++Depth;
    else if (S[I] == Open && --Depth == 0)
      return I;
  }
  return StringRef::npos;
}

/// Bracket depth change of S[I] for <>, (), {}, [].
int depthStep(StringRef S, size_t I) {
  switch (S[I]) {
  case '<': case '(': case '{': case '[':
    return 1;
  case '>':
    return isArrow(S, I) ? 0 : -1;
  case ')': case '}': case ']':
    return -1;
  default:
    return 0;
  }
}

/// Top-level comma-separated items of S, trimmed.
SmallVector<StringRef, 8> splitTopLevel(StringRef S) {
  SmallVector<StringRef, 8> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    Depth += depthStep(S, I);
    if (S[I] == ',' && Depth == 0) {
      Out.push_back(S.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  if (!S.trim().empty())
    Out.push_back(S.drop_front(Start).trim());
  return Out;
}

/// One template argument without namespace qualifiers, parameter lists as
/// "(…)" and "> >" as ">>".
std::string summarizeArg(StringRef A) {
  std::string Out;
  for (size_t I = 0; I < A.size(); ++I) {
    if (A.substr(I).starts_with("(anonymous namespace)::")) {
      I += StringRef("(anonymous namespace)::").size() - 1;
      continue;
    }
    if (A.substr(I).starts_with("::")) {
      // A qualifier: drop the identifier before it (or a leading "::").
      size_t K = Out.size();
      while (K > 0 && isIdent(Out[K - 1]))
        --K;
      if (K < Out.size() || Out.empty() || Out.back() == ' ' ||
          Out.back() == '<' || Out.back() == ',' || Out.back() == '(') {
        Out.resize(K);
        ++I;
        continue;
      }
    }
    char C = A[I];
    if (C == '(' && !Out.empty() && (isIdent(Out.back()) || Out.back() == '>')) {
      int Depth = 0;
      size_t J = I;
      for (; J < A.size(); ++J) {
        if (A[J] == '(')
          ++Depth;
        else if (A[J] == ')' && --Depth == 0)
          break;
      }
      if (J > I + 1 && J < A.size()) {
        Out += "(";
        Out += Ellipsis;
        Out += ")";
        I = J;
        continue;
      }
    }
    if (C == '>' && !Out.empty() && Out.back() == ' ' && !isArrow(A, I))
      Out.pop_back();
    Out += C;
  }
  return Out;
}

std::string cut(StringRef S, size_t MaxLen) {
  std::string Out;
  size_t W = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    bool Lead = (static_cast<unsigned char>(S[I]) & 0xC0) != 0x80;
    if (Lead && ++W > (MaxLen ? MaxLen - 1 : 0))
      break;
    Out += S[I];
  }
  return StringRef(Out).rtrim().str() + Ellipsis.str();
}

} // namespace

std::string shortKernelName(StringRef Name, size_t MaxLen) {
  if (displayWidth(Name) <= MaxLen)
    return Name.str();
  std::string Demangled =
      Name.starts_with("_Z") ? llvm::demangle(Name.str()) : Name.str();
  StringRef S = StringRef(Demangled).trim();
  if (displayWidth(S) <= MaxLen)
    return S.str();
  if (!S.contains('<') && !S.contains("::"))
    return cut(S, MaxLen);
  // Drop trailing cv-qualifiers and the parameter list.
  for (StringRef Q : {" const", " volatile", " &&", " &"})
    S.consume_back(Q);
  if (S.ends_with(")")) {
    size_t Open = openerOf(S, S.size() - 1);
    if (Open != StringRef::npos && Open > 0)
      S = S.take_front(Open).rtrim();
  }
  StringRef Head = S, Args;
  bool Template = false;
  if (S.ends_with(">") && !isArrow(S, S.size() - 1)) {
    size_t Open = openerOf(S, S.size() - 1);
    if (Open != StringRef::npos && Open > 0) {
      Head = S.take_front(Open);
      Args = S.slice(Open + 1, S.size() - 1);
      Template = true;
    }
  }
  // Base name: after the return type (last top-level space) and the
  // qualifiers (last top-level "::").
  int Depth = 0;
  size_t BaseStart = 0;
  for (size_t I = 0; I < Head.size(); ++I) {
    Depth += depthStep(Head, I);
    if (Depth != 0)
      continue;
    if (Head[I] == ' ')
      BaseStart = I + 1;
    else if (Head[I] == ':' && I + 1 < Head.size() && Head[I + 1] == ':')
      BaseStart = I + 2;
  }
  StringRef Base = Head.drop_front(BaseStart).trim();
  if (Base.empty())
    return cut(S, MaxLen);
  std::string Out = Base.str();
  if (!Template)
    return displayWidth(Out) <= MaxLen ? Out : cut(Out, MaxLen);
  // "base<" + args + ">", leaving room for ", …>".
  if (displayWidth(Out) + 3 > MaxLen)
    return cut(Out, MaxLen);
  Out += "<";
  SmallVector<StringRef, 8> Items = splitTopLevel(Args);
  for (size_t I = 0; I < Items.size(); ++I) {
    std::string A = summarizeArg(Items[I]);
    std::string Sep = I ? ", " : "";
    bool Last = I + 1 == Items.size();
    // Room for this argument, and for ", …>" unless it is the last one.
    size_t Need = displayWidth(Out) + displayWidth(Sep) + displayWidth(A) +
                  (Last ? 1 : 4);
    if (Need > MaxLen) {
      Out += Sep + Ellipsis.str();
      break;
    }
    Out += Sep + A;
  }
  return Out + ">";
}

} // namespace tl
