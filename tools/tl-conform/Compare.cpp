//===- Compare.cpp - Table comparison for tl-conform ---------------------===//
//
// Cells are compared as Python literals at the token level: a tokenizer
// turns "[{'name': 'x', 'total': np.float64(1.5)}]" into punctuation,
// strings (unescaped), numbers and identifiers; np.float64(...) wrappers are
// dropped. Two cells match when their token lists match, numbers within the
// tolerance.
//
//===----------------------------------------------------------------------===//
#include "Compare.h"

#include "tl/Support/PyFormat.h"
#include "tl/Support/PyLiteral.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace tl;
using namespace tl::conform;

bool tl::conform::isNA(llvm::StringRef C) {
  C = C.trim();
  return C.empty() || C == "nan" || C == "NaN" || C == "None" || C == "<NA>";
}

namespace {
struct Token {
  enum Kind { Punct, Str, Number, Ident } K;
  std::string Text; // punct char, unescaped string, identifier
  double Num = 0;
};

bool isIdentChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.';
}

/// Tokenize a Python literal; nullopt when the text is not one.
std::optional<std::vector<Token>> tokenize(llvm::StringRef S) {
  std::vector<Token> Out;
  size_t I = 0, N = S.size();
  while (I < N) {
    char C = S[I];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      ++I;
      continue;
    }
    if (llvm::StringRef("[](){},:").contains(C)) {
      Out.push_back({Token::Punct, std::string(1, C)});
      ++I;
      continue;
    }
    if (C == '\'' || C == '"') {
      char Q = C;
      std::string Text;
      ++I;
      bool Closed = false;
      while (I < N) {
        char D = S[I];
        if (D == '\\' && I + 1 < N) {
          char E = S[I + 1];
          switch (E) {
          case 'n': Text += '\n'; break;
          case 't': Text += '\t'; break;
          case 'r': Text += '\r'; break;
          default: Text += E;
          }
          I += 2;
          continue;
        }
        if (D == Q) {
          Closed = true;
          ++I;
          break;
        }
        Text += D;
        ++I;
      }
      if (!Closed)
        return std::nullopt;
      Out.push_back({Token::Str, std::move(Text)});
      continue;
    }
    if (C == '-' || C == '+' || C == '.' ||
        std::isdigit(static_cast<unsigned char>(C))) {
      size_t J = I + 1;
      while (J < N && (std::isalnum(static_cast<unsigned char>(S[J])) ||
                       S[J] == '.' || ((S[J] == '-' || S[J] == '+') &&
                                       (S[J - 1] == 'e' || S[J - 1] == 'E'))))
        ++J;
      auto V = parsePyFloat(S.slice(I, J));
      if (!V)
        return std::nullopt;
      Token T{Token::Number, ""};
      T.Num = *V;
      Out.push_back(T);
      I = J;
      continue;
    }
    if (isIdentChar(C)) {
      size_t J = I;
      while (J < N && isIdentChar(S[J]))
        ++J;
      llvm::StringRef Id = S.slice(I, J);
      I = J;
      // np.float64(x) / np.int64(x) -> x.
      if (Id.starts_with("np.") && I < N && S[I] == '(') {
        size_t Depth = 0, K = I;
        for (; K < N; ++K) {
          if (S[K] == '(')
            ++Depth;
          else if (S[K] == ')' && --Depth == 0)
            break;
        }
        if (K >= N)
          return std::nullopt;
        auto Inner = tokenize(S.slice(I + 1, K));
        if (!Inner)
          return std::nullopt;
        Out.insert(Out.end(), Inner->begin(), Inner->end());
        I = K + 1;
        continue;
      }
      if (Id == "nan" || Id == "inf") {
        Token T{Token::Number, ""};
        T.Num = Id == "nan" ? NAN : INFINITY;
        Out.push_back(T);
        continue;
      }
      Out.push_back({Token::Ident, Id.str()});
      continue;
    }
    return std::nullopt;
  }
  return Out;
}

bool numbersEqual(double A, double B, const Tolerance &Tol, double &MaxRel) {
  if (std::isnan(A) || std::isnan(B))
    return std::isnan(A) && std::isnan(B);
  if (A == B)
    return true;
  double D = std::fabs(A - B);
  double Scale = std::max(std::fabs(A), std::fabs(B));
  double Rel = Scale > 0 ? D / Scale : 0;
  if (D > Tol.Abs)
    MaxRel = std::max(MaxRel, Rel);
  return D <= Tol.Abs || Rel <= Tol.Rel;
}
} // namespace

bool tl::conform::cellsEqual(llvm::StringRef Ours, llvm::StringRef Ref,
                             const Tolerance &Tol, double &MaxRel) {
  bool NA1 = isNA(Ours), NA2 = isNA(Ref);
  if (NA1 || NA2)
    return NA1 && NA2 && (!Tol.Strict || Ours.trim() == Ref.trim());
  if (Ours == Ref)
    return true;
  auto A = parsePyFloat(Ours), B = parsePyFloat(Ref);
  if (A && B)
    return numbersEqual(*A, *B, Tol, MaxRel) &&
           (!Tol.Strict || std::isnan(*A) || std::fabs(*A - *B) < 1e-6);
  auto TA = tokenize(Ours), TB = tokenize(Ref);
  if (!TA || !TB || TA->size() != TB->size())
    return false;
  for (size_t I = 0; I < TA->size(); ++I) {
    const Token &X = (*TA)[I], &Y = (*TB)[I];
    if (X.K != Y.K)
      return false;
    if (X.K == Token::Number) {
      // ast.literal_eval equality: numbers inside literals are exact.
      if (Tol.Strict ? !(X.Num == Y.Num || (std::isnan(X.Num) &&
                                            std::isnan(Y.Num)))
                     : !numbersEqual(X.Num, Y.Num, Tol, MaxRel))
        return false;
    } else if (X.Text != Y.Text) {
      return false;
    }
  }
  return true;
}

std::string tl::conform::canonicalKey(llvm::StringRef Cell) {
  if (isNA(Cell))
    return "<NA>";
  if (auto V = parsePyFloat(Cell))
    return pyRepr(*V);
  // Only containers and quoted strings are normalized; plain text (op and
  // kernel names) is kept as is.
  llvm::StringRef Trim = Cell.trim();
  if (!llvm::StringRef("([{'\"").contains(Trim.front()))
    return Trim.str();
  auto T = tokenize(Cell);
  if (!T)
    return Cell.str();
  std::string Out;
  for (const Token &X : *T) {
    switch (X.K) {
    case Token::Number:
      Out += pyRepr(X.Num);
      break;
    case Token::Str:
      Out += pyReprString(X.Text);
      break;
    default:
      Out += X.Text;
    }
    Out += ' ';
  }
  return Out;
}

std::vector<std::string>
tl::conform::keyColumns(llvm::StringRef Table,
                        const std::vector<std::string> &Header) {
  auto Has = [&](llvm::StringRef C) {
    return std::find(Header.begin(), Header.end(), C) != Header.end();
  };
  std::vector<std::string> Keys;
  auto AddIf = [&](std::initializer_list<const char *> Cols) {
    for (const char *C : Cols)
      if (Has(C))
        Keys.push_back(C);
  };
  // parent_module and num_kernels are keys of the inference layout
  // (spec/tracelens-inference.md §A.3-§A.5), absent from the others.
  static const std::initializer_list<const char *> Signature = {
      "name",        "op category",   "parent_module",
      "process_name", "process_label", "thread_name",
      "Input Dims",  "Input type",    "Input Strides",
      "Concrete Inputs"};
  if (Table == "gpu_timeline")
    AddIf({"type"});
  else if (Table == "ops_summary_by_category")
    AddIf({"op category", "parent_module"});
  else if (Table == "ops_summary")
    AddIf({"name", "parent_module"});
  else if (Table == "ops_unique_args")
    AddIf(Signature), AddIf({"num_kernels"});
  else if (Table == "unified_perf_summary")
    AddIf(Signature);
  else if (Table == "kernel_summary")
    AddIf({"Parent op category", "Parent cpu_op", "Kernel name",
           "Kernel stream"});
  else if (Table == "short_kernels_summary")
    AddIf({"Parent cpu_op", "Input dims", "Input strides", "Concrete Inputs",
           "Kernel name"});
  else if (Table == "coll_analysis")
    AddIf({"rank", "Process Group Name", "Process Group Ranks",
           "Collective name", "Group size", "dtype", "In msg nelems",
           "Out msg nelems", "In split size", "Out split size", "stream"});
  else if (Table == "short_kernel_histogram")
    return {}; // bins: by position
  else {
    // Perf-metric sheets: name + every param: column.
    AddIf({"name"});
    for (const std::string &C : Header)
      if (llvm::StringRef(C).starts_with("param:"))
        Keys.push_back(C);
  }
  if (Has("is_recompute"))
    Keys.push_back("is_recompute");
  return Keys;
}

std::string tl::conform::tieColumn(llvm::StringRef Table) {
  // Sorted on this one float column by pandas' unstable quicksort: the
  // order of equal values is not the reference's to pin (traces/README.md).
  if (Table == "ops_summary")
    return "total_direct_kernel_time_sum";
  if (Table == "ops_summary_by_category")
    return "total_direct_kernel_time_ms";
  return "";
}
