//===- ModelUtil.h - shared helpers of the perf models ---------*- C++ -*-===//
#ifndef TL_LIB_ANALYSIS_PERFMODELS_MODELUTIL_H
#define TL_LIB_ANALYSIS_PERFMODELS_MODELUTIL_H

#include "tl/Analysis/PerfModel.h"
#include "tl/Support/PyLiteral.h"

#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl::pm {

using Shape = std::vector<int64_t>;

llvm::Error err(const llvm::Twine &Msg);
llvm::Error notImpl(const llvm::Twine &Msg);

/// Dims[I] as a shape (list of ints); error when missing or not a shape.
llvm::Expected<Shape> shapeAt(const OpDesc &Op, size_t I);
/// Dims[I] exists and is a non-empty list.
bool dimsNonEmpty(const OpDesc &Op, size_t I);
/// Dims[I] exists (Python `Dims[I] is not None`; absent tensors are []).
llvm::Expected<bool> dimsPresent(const OpDesc &Op, size_t I);
/// tuple(Strides[I]), or None when the trace has no such entry.
PyValue strideAt(const OpDesc &Op, size_t I);
/// Input Strides[I] read as the elementwise models do (`args['Input
/// Strides'][i]`): an error, not None, when the trace has no such entry.
llvm::Expected<PyValue> strideRequired(const OpDesc &Op, size_t I);
llvm::Expected<std::string> typeAt(const OpDesc &Op, size_t I);
llvm::Expected<std::string> concreteAt(const OpDesc &Op, size_t I);

/// Python prod over a shape; prod(()) == 1. Computed in int64.
int64_t prod(const Shape &S);
PyValue shapeValue(const Shape &S);
std::optional<int64_t> bpe(llvm::StringRef Type);
/// "<maf>_<precision of Dtype>", "" when unknown.
std::string computeSpec(llvm::StringRef Maf, llvm::StringRef Dtype);

using tl::parsePyFloat;
using tl::parsePyInt;
using tl::parsePyLiteral;
/// "[1, 1]" -> {1, 1}: strip the outer brackets, split on commas.
llvm::Expected<Shape> parseIntList(llvm::StringRef S);

// Model families; each returns the model of Op or an error.
llvm::Expected<PerfModelResult> buildGemm(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildConv(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildSdpa(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildElementwise(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildNorm(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildReduce(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildTriton(const OpDesc &Op);
// Extension families (spec tracelens-inference.md §D), one file each.
llvm::Expected<PerfModelResult> buildExtGemm(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildInferenceAttention(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildRmsNorm(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildRope(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildMoe(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildGroupQuant(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildActivation(const OpDesc &Op);
llvm::Expected<PerfModelResult> buildCustomCollective(const OpDesc &Op);

/// Input type[I] when present and non-empty, else Default (Python
/// `T[i] or default` on a list long enough, and the length guard).
std::string typeOr(const OpDesc &Op, size_t I, llvm::StringRef Default);
/// Dims[I] as a shape, or nullopt when missing, empty or not a shape.
std::optional<Shape> shapeIfNonEmpty(const OpDesc &Op, size_t I);
/// Python ceil division of non-negative ints (-(-a // b)); B must be > 0.
int64_t ceilDiv(int64_t A, int64_t B);
/// Python floor division (rounds toward negative infinity); B != 0.
int64_t floorDiv(int64_t A, int64_t B);

} // namespace tl::pm

#endif
