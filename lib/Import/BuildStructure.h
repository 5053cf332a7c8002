//===- BuildStructure.h - IR structure after the parse ----------*- C++ -*-===//
#ifndef TL_LIB_IMPORT_BUILDSTRUCTURE_H
#define TL_LIB_IMPORT_BUILDSTRUCTURE_H

#include "ImportState.h"

namespace tl {

/// Build tracks' names, the linking key, the host call tree, runtime->GPU
/// links, subtree GPU ranges and fwd->bwd links (spec sections 1.5, 2).
/// TwoThreads: the host tree is built on a second thread meanwhile.
void buildStructure(Trace::Storage &S, ImportState &State, bool TwoThreads);

/// Subtree GPU ranges (GpuOrder, GpuBegin, GpuEnd) from Parent and the
/// children CSR; the capture merge calls it again after re-parenting.
void buildGpuRanges(Trace::Storage &S);

} // namespace tl

#endif // TL_LIB_IMPORT_BUILDSTRUCTURE_H
