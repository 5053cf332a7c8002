//===- OpCategory.h - op name -> category registry ------------*- C++ -*-===//
//
// Spec perf-report §4: every op with a perf model has its model class's
// category and sheet category; a category-only map overrides it; names not
// in the registry fall back to name-prefix and first-kernel-name rules.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_OPCATEGORY_H
#define TL_ANALYSIS_OPCATEGORY_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

/// Registry of op names. Plugins copy the built-in table and add their own
/// names; there is no global mutable state.
class CategoryRegistry {
public:
  /// The built-in table of the reference (function-local static).
  static const CategoryRegistry &builtin();

  /// Register an op that has a perf model: its class's category (e.g.
  /// "SDPA_fwd") and sheet category (e.g. "SDPA"; empty = derive it from the
  /// category by stripping "_fwd"/"_bwd"). Re-adding a name replaces it.
  void addModelOp(llvm::StringRef Name, llvm::StringRef Category,
                  llvm::StringRef SheetCategory = "");
  /// Register a category without a model; overrides addModelOp's category.
  void addCategoryOnly(llvm::StringRef Name, llvm::StringRef Category);

  /// Registry category of Name (category-only map first), if registered.
  std::optional<llvm::StringRef> lookup(llvm::StringRef Name) const;
  /// True when Name is in the perf-model map.
  bool isModelOp(llvm::StringRef Name) const;
  /// Sheet category of a model op ("GEMM", "UnaryElementwise", ...).
  std::optional<llvm::StringRef> sheetCategory(llvm::StringRef Name) const;
  /// Sheet categories in first-appearance order of the perf-model map.
  std::vector<std::string> sheetOrder() const;
  /// Model ops of one sheet category, in registration order.
  std::vector<std::string> opsOfSheet(llvm::StringRef Sheet) const;
  /// Number of distinct model ops.
  size_t numModelOps() const { return ModelOrder.size(); }

  /// §4.1: registry, then ^triton / ^record_param_comms, then the first
  /// kernel's name ("void at::native..." + elementwise/reduce/
  /// multi_tensor_apply), else "other". FirstKernelName may be empty.
  std::string categorize(llvm::StringRef Name,
                         llvm::StringRef FirstKernelName) const;

private:
  struct ModelEntry {
    std::string Category;
    std::string Sheet;
  };
  llvm::StringMap<ModelEntry> Model;
  std::vector<std::string> ModelOrder;
  llvm::StringMap<std::string> CategoryOnly;
};

/// Sheet category derived from a class category: strip "_fwd" / "_bwd".
std::string sheetFromCategory(llvm::StringRef Category);

/// Communication kernel: case-insensitive substring nccl|rccl|
/// cross_device_reduce (§3.2).
bool isCommKernel(llvm::StringRef Name);
/// ROCm 7.1 legacy copy kernels, bucketed as memcpy (§3.2).
bool isLegacyCopyKernel(llvm::StringRef Name);
/// ROCm fill kernels, bucketed as computation (§3.2).
bool isFillKernel(llvm::StringRef Name);

} // namespace tl

#endif // TL_ANALYSIS_OPCATEGORY_H
