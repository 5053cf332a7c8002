//===- TestUtil.h - build OpDescs from reference CSV cell text --*- C++ -*-===//
#ifndef TL_TEST_UNIT_PERFMODEL_TESTUTIL_H
#define TL_TEST_UNIT_PERFMODEL_TESTUTIL_H

#include "tl/Analysis/PerfModel.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/PyLiteral.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace tl::test {

/// Build an OpDesc from the text of the reference CSV cells
/// `Input Dims_first`, `Input type_first`, `Input Strides_first` and
/// `Concrete Inputs_first` (Python literals).
inline OpDesc makeOp(std::string Name, llvm::StringRef Dims,
                     llvm::StringRef Types, llvm::StringRef Strides,
                     llvm::StringRef Concrete,
                     std::vector<std::string> Kernels = {}) {
  OpDesc Op;
  Op.Name = std::move(Name);
  auto D = parsePyLiteral(Dims);
  EXPECT_TRUE(!!D) << llvm::toString(D.takeError());
  Op.InputDims = D->elems();
  auto T = parsePyLiteral(Types);
  EXPECT_TRUE(!!T) << llvm::toString(T.takeError());
  for (const PyValue &V : T->elems())
    Op.InputTypes.push_back(V.getStr());
  if (!Strides.empty()) {
    auto S = parsePyLiteral(Strides);
    EXPECT_TRUE(!!S) << llvm::toString(S.takeError());
    Op.InputStrides = S->elems();
  }
  auto C = parsePyLiteral(Concrete);
  EXPECT_TRUE(!!C) << llvm::toString(C.takeError());
  for (const PyValue &V : C->elems())
    Op.ConcreteInputs.push_back(V.getStr());
  Op.KernelNames = std::move(Kernels);
  return Op;
}

/// "key=str(value)" for every param, joined by "; " — compared with the
/// reference's `param: <key>` cells.
inline std::string paramsText(const PerfModelResult &R) {
  std::string S;
  for (const auto &[K, V] : R.Params) {
    if (!S.empty())
      S += "; ";
    S += K + "=" + pyStr(V);
  }
  return S;
}

/// Model + forward metrics with a zero kernel time (GFLOPS, MB, FLOPS/Byte
/// do not depend on it).
inline PerfModelResult model(const OpDesc &Op) {
  auto R = buildPerfModel(Op);
  EXPECT_TRUE(!!R) << llvm::toString(R.takeError());
  return *R;
}

inline PerfMetrics fwdMetrics(const PerfModelResult &R) {
  auto M = computeMetrics(R, 0, false);
  EXPECT_TRUE(!!M) << llvm::toString(M.takeError());
  return *M;
}

} // namespace tl::test

#endif
