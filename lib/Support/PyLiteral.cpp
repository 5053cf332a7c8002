//===- PyLiteral.cpp - Python literal parsing (ast.literal_eval subset) ---===//
#include "tl/Support/PyLiteral.h"

#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

using namespace tl;

static llvm::Error litErr(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

std::optional<int64_t> tl::parsePyInt(llvm::StringRef S) {
  S = S.trim();
  S.consume_front("+");
  int64_t V;
  // Python int() also accepts '_' separators; the profiler never writes them.
  if (S.empty() || S.getAsInteger(10, V))
    return std::nullopt;
  return V;
}

std::optional<double> tl::parsePyFloat(llvm::StringRef S) {
  std::string T = S.trim().str();
  if (T.empty())
    return std::nullopt;
  std::string L = llvm::StringRef(T).lower();
  llvm::StringRef LS(L);
  bool Neg = LS.consume_front("-");
  if (!Neg)
    LS.consume_front("+");
  if (LS == "inf" || LS == "infinity")
    return Neg ? -INFINITY : INFINITY;
  if (LS == "nan")
    return NAN;
  char *End = nullptr;
  errno = 0;
  double D = std::strtod(T.c_str(), &End);
  if (End != T.c_str() + T.size() || LS.starts_with("0x") ||
      LS.contains_insensitive("inf") || LS.contains_insensitive("nan"))
    return std::nullopt;
  return D;
}

llvm::Expected<PyValue> tl::parsePyLiteral(llvm::StringRef S) {
  // Iterative parser: a stack of open containers.
  struct Open {
    bool Tuple;
    std::vector<PyValue> Elems;
    bool SawComma = false;
  };
  std::vector<Open> Stack;
  std::optional<PyValue> Result;
  size_t I = 0, N = S.size();
  auto emit = [&](PyValue V) -> llvm::Error {
    if (Stack.empty()) {
      if (Result)
        return litErr("malformed literal '" + S + "'");
      Result = std::move(V);
    } else {
      Stack.back().Elems.push_back(std::move(V));
    }
    return llvm::Error::success();
  };
  while (I < N) {
    char C = S[I];
    if (C == ' ' || C == '\t' || C == '\n') {
      ++I;
      continue;
    }
    if (C == '[' || C == '(') {
      Stack.push_back({C == '(', {}});
      ++I;
      continue;
    }
    if (C == ']' || C == ')') {
      if (Stack.empty() || Stack.back().Tuple != (C == ')'))
        return litErr("malformed literal '" + S + "'");
      Open O = std::move(Stack.back());
      Stack.pop_back();
      PyValue V = O.Tuple && !(O.Elems.size() == 1 && !O.SawComma)
                      ? PyValue::tuple(std::move(O.Elems))
                      : (O.Tuple ? O.Elems[0] : PyValue::list(std::move(O.Elems)));
      if (auto E = emit(std::move(V)))
        return E;
      ++I;
      continue;
    }
    if (C == ',') {
      if (Stack.empty())
        return litErr("malformed literal '" + S + "'");
      Stack.back().SawComma = true;
      ++I;
      continue;
    }
    if (C == '\'' || C == '"') {
      std::string Str;
      size_t J = I + 1;
      for (;;) {
        // Runs without escapes are copied at once (call stacks are long).
        size_t K = J;
        while (K < N && S[K] != C && S[K] != '\\')
          ++K;
        Str.append(S.data() + J, K - J);
        J = K;
        if (J >= N || S[J] == C)
          break;
        if (J + 1 < N) {
          char E = S[++J];
          Str += E == 'n' ? '\n' : E == 't' ? '\t' : E == 'r' ? '\r' : E;
        } else {
          Str += S[J];
        }
        ++J;
      }
      if (J >= N)
        return litErr("malformed literal '" + S + "'");
      if (auto E = emit(PyValue::str(Str)))
        return E;
      I = J + 1;
      continue;
    }
    size_t J = I;
    while (J < N && !llvm::StringRef(",)] \t\n").contains(S[J]))
      ++J;
    llvm::StringRef Tok = S.slice(I, J);
    PyValue V;
    if (Tok == "True")
      V = PyValue::boolean(true);
    else if (Tok == "False")
      V = PyValue::boolean(false);
    else if (Tok == "None")
      V = PyValue::none();
    else if (auto Int = parsePyInt(Tok))
      V = PyValue::integer(*Int);
    else if (auto F = parsePyFloat(Tok); F && !Tok.contains_insensitive("n"))
      V = PyValue::real(*F);
    else
      return litErr("malformed literal '" + S + "'");
    if (auto E = emit(std::move(V)))
      return E;
    I = J;
  }
  if (!Stack.empty() || !Result)
    return litErr("malformed literal '" + S + "'");
  return *Result;
}

