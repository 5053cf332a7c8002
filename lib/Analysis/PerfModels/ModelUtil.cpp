//===- ModelUtil.cpp - shared helpers of the perf models ------------------===//
#include "ModelUtil.h"

#include "tl/Analysis/DType.h"

#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace tl;
using namespace tl::pm;

char NotImplementedError::ID = 0;

void NotImplementedError::log(llvm::raw_ostream &OS) const {
  OS << "not implemented: " << Msg;
}
std::error_code NotImplementedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error pm::err(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}
llvm::Error pm::notImpl(const llvm::Twine &Msg) {
  return llvm::make_error<NotImplementedError>(Msg.str());
}

llvm::Expected<Shape> pm::shapeAt(const OpDesc &Op, size_t I) {
  if (I >= Op.InputDims.size())
    return err("Input Dims has no index " + llvm::Twine(I));
  const PyValue &V = Op.InputDims[I];
  if (V.kind() != PyValue::Kind::List && V.kind() != PyValue::Kind::Tuple)
    return err("Input Dims[" + llvm::Twine(I) + "] is not a list");
  Shape S;
  for (const PyValue &E : V.elems()) {
    if (E.kind() != PyValue::Kind::Int)
      return err("Input Dims[" + llvm::Twine(I) + "] is not a shape");
    S.push_back(E.getInt());
  }
  return S;
}

bool pm::dimsNonEmpty(const OpDesc &Op, size_t I) {
  return I < Op.InputDims.size() && Op.InputDims[I].truthy();
}

llvm::Expected<bool> pm::dimsPresent(const OpDesc &Op, size_t I) {
  if (I >= Op.InputDims.size())
    return err("Input Dims has no index " + llvm::Twine(I));
  return !Op.InputDims[I].isNone();
}

PyValue pm::strideAt(const OpDesc &Op, size_t I) {
  if (I >= Op.InputStrides.size())
    return PyValue::none();
  const PyValue &V = Op.InputStrides[I];
  if (V.kind() == PyValue::Kind::List)
    return PyValue::tuple(V.elems());
  return V;
}

llvm::Expected<std::string> pm::typeAt(const OpDesc &Op, size_t I) {
  if (I >= Op.InputTypes.size())
    return err("Input type has no index " + llvm::Twine(I));
  return Op.InputTypes[I];
}

llvm::Expected<std::string> pm::concreteAt(const OpDesc &Op, size_t I) {
  if (I >= Op.ConcreteInputs.size())
    return err("Concrete Inputs has no index " + llvm::Twine(I));
  return Op.ConcreteInputs[I];
}

int64_t pm::prod(const Shape &S) {
  int64_t P = 1;
  for (int64_t X : S)
    P *= X;
  return P;
}

PyValue pm::shapeValue(const Shape &S) { return PyValue::intTuple(S); }

std::optional<int64_t> pm::bpe(llvm::StringRef Type) {
  if (auto B = bytesPerElement(Type))
    return *B;
  return std::nullopt;
}

std::string pm::computeSpec(llvm::StringRef Maf, llvm::StringRef Dtype) {
  auto P = precisionOf(Dtype);
  if (!P)
    return "";
  return (Maf + "_" + *P).str();
}

std::optional<int64_t> pm::parsePyInt(llvm::StringRef S) {
  S = S.trim();
  S.consume_front("+");
  int64_t V;
  // Python int() also accepts '_' separators; the profiler never writes them.
  if (S.empty() || S.getAsInteger(10, V))
    return std::nullopt;
  return V;
}

std::optional<double> pm::parsePyFloat(llvm::StringRef S) {
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

llvm::Expected<PyValue> pm::parsePyLiteral(llvm::StringRef S) {
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
        return err("malformed literal '" + S + "'");
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
        return err("malformed literal '" + S + "'");
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
        return err("malformed literal '" + S + "'");
      Stack.back().SawComma = true;
      ++I;
      continue;
    }
    if (C == '\'' || C == '"') {
      std::string Str;
      size_t J = I + 1;
      for (; J < N && S[J] != C; ++J) {
        if (S[J] == '\\' && J + 1 < N) {
          ++J;
          char E = S[J];
          Str += E == 'n' ? '\n' : E == 't' ? '\t' : E == 'r' ? '\r' : E;
        } else {
          Str += S[J];
        }
      }
      if (J >= N)
        return err("malformed literal '" + S + "'");
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
      return err("malformed literal '" + S + "'");
    if (auto E = emit(std::move(V)))
      return E;
    I = J;
  }
  if (!Stack.empty() || !Result)
    return err("malformed literal '" + S + "'");
  return *Result;
}

llvm::Expected<Shape> pm::parseIntList(llvm::StringRef S) {
  S = S.trim();
  if (S.size() >= 2 && ((S.front() == '[' && S.back() == ']') ||
                        (S.front() == '(' && S.back() == ')')))
    S = S.drop_front().drop_back();
  Shape Out;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  S.split(Parts, ',');
  for (llvm::StringRef P : Parts) {
    if (P.trim().empty())
      continue;
    auto V = parsePyInt(P);
    if (!V)
      return err("invalid int list '" + S + "'");
    Out.push_back(*V);
  }
  return Out;
}
