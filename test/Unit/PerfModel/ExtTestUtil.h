//===- ExtTestUtil.h - checks shared by the extension-model tests -*- C++ -*-===//
#ifndef TL_TEST_UNIT_PERFMODEL_EXTTESTUTIL_H
#define TL_TEST_UNIT_PERFMODEL_EXTTESTUTIL_H

#include "TestUtil.h"

namespace tl::test {

/// The model of Op must have exactly these FLOPs, bytes and compute spec.
inline PerfModelResult expectModel(const OpDesc &Op, double Flops,
                                   double Bytes, const char *Spec) {
  PerfModelResult R = model(Op);
  EXPECT_DOUBLE_EQ(R.Flops, Flops) << Op.Name;
  EXPECT_TRUE(R.Bytes.has_value()) << Op.Name;
  if (R.Bytes) {
    EXPECT_DOUBLE_EQ(*R.Bytes, Bytes) << Op.Name;
  }
  EXPECT_EQ(R.ComputeSpec, Spec) << Op.Name;
  return R;
}

/// GFLOPS and Data Moved (MB) cells as the reference CSV prints them.
inline void expectCells(const PerfModelResult &R, const char *GFLOPS,
                        const char *MB) {
  PerfMetrics X = fwdMetrics(R);
  EXPECT_EQ(pyRepr(X.GFLOPS), GFLOPS);
  EXPECT_EQ(pyRepr(X.DataMovedMB), MB);
}

inline bool isNotImplemented(llvm::Error E) {
  bool NI = false;
  llvm::handleAllErrors(
      std::move(E), [&](const NotImplementedError &) { NI = true; },
      [](const llvm::ErrorInfoBase &) {});
  return NI;
}

} // namespace tl::test

#endif
