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

llvm::Expected<PyValue> pm::strideRequired(const OpDesc &Op, size_t I) {
  if (I >= Op.InputStrides.size())
    return err("Input Strides has no index " + llvm::Twine(I));
  return strideAt(Op, I);
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

std::string pm::typeOr(const OpDesc &Op, size_t I, llvm::StringRef Default) {
  if (I < Op.InputTypes.size() && !Op.InputTypes[I].empty())
    return Op.InputTypes[I];
  return Default.str();
}

std::optional<Shape> pm::shapeIfNonEmpty(const OpDesc &Op, size_t I) {
  if (!dimsNonEmpty(Op, I))
    return std::nullopt;
  auto S = shapeAt(Op, I);
  if (!S) {
    llvm::consumeError(S.takeError());
    return std::nullopt;
  }
  return *S;
}

int64_t pm::ceilDiv(int64_t A, int64_t B) { return -floorDiv(-A, B); }

int64_t pm::floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}
