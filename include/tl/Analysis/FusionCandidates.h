//===- FusionCandidates.h - Kernel-fusion candidate extraction -*- C++ -*-===//
//
// tracelens-analysis §3.5 (standalone): groups of kernels launched under one
// module / python frame (module pass) or by sibling leaf ops (sibling
// sequences), narrowed to the QK..PV slice around a softmax, deduplicated by
// kernel set and enriched with data in/out from the unified perf table. The
// reference writes them to category_data/fusion_candidates.json.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_FUSIONCANDIDATES_H
#define TL_ANALYSIS_FUSIONCANDIDATES_H

#include "tl/IR/Trace.h"
#include "tl/Support/PyValue.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl {

class AnalysisManager;

struct FusionKernel {
  /// The kernel's name in its trace's string pool (not copied: candidates
  /// hold every kernel of every module; they live as long as the trace).
  llvm::StringRef Name;
  /// Static storage (classifyKernelType) or a string that outlives the
  /// candidate: copied once per kernel of every candidate.
  llvm::StringRef Type;
  std::string Op; // sibling sequences: the launching CPU op
  double DurUs = 0;
  bool Eligible = true;
  uint64_t GpuUid = 0;
  StrId NameId = 0; // Name in the trace's string pool
  std::optional<double> DataInMB, DataOutMB;
};

struct FusionCandidate {
  std::string ModuleName, BaseName;
  std::vector<std::string> ParentChain;
  uint64_t InstanceCount = 1;
  size_t KernelCount = 0, EligibleCount = 0;
  std::vector<FusionKernel> Kernels;
  std::vector<llvm::StringRef> TypeSignature; // FusionKernel::Type's
  /// Type -> count in first-seen order (empty for sibling sequences).
  std::vector<std::pair<llvm::StringRef, int64_t>> TypeSummary;
  bool HasFusedKernel = false;
  double TotalKernelTimeUs = 0;
  bool Sibling = false;
  /// args["Input Dims"] as JSON text ("" = null) and its first shape.
  std::string InputDimsJson;
  std::optional<std::vector<int64_t>> FirstShape;
  /// Every event counted in InstanceCount: the module events (module pass)
  /// or the parents whose leaf children form the sequence (sibling
  /// sequences). The reference multiplies the first instance by the count;
  /// tl's own estimate measures each (FusionInstances.h).
  std::vector<EventId> Instances;
  /// Sibling sequences: each instance's kernels (one per leaf child).
  std::vector<std::vector<EventId>> SiblingKernels;
};

/// Perf data of one (kernel name, first input shape) from the unified perf
/// table; first row wins.
struct KernelPerfEntry {
  std::string OpCategory;
  std::optional<double> DataInMB, DataOutMB;
  std::optional<double> DataMovedMB, Gflops, FlopsPerByte;
  std::string ComputeSpec;
};

/// kernel name -> [(first input shape or none, entry)] in first-seen order.
class KernelPerfLookup {
public:
  using Shape = std::optional<std::vector<int64_t>>;
  void add(llvm::StringRef Kernel, const Shape &S, KernelPerfEntry E);
  /// Exact name, else the first name where either is a prefix of the other;
  /// then the shape's entry, else the kernel's first entry.
  const KernelPerfEntry *find(llvm::StringRef Kernel, const Shape &S) const;
  /// Every entry of a name (same name resolution).
  const std::vector<std::pair<Shape, KernelPerfEntry>> *
  entries(llvm::StringRef Kernel) const;

private:
  std::vector<std::string> Names;
  std::vector<std::vector<std::pair<Shape, KernelPerfEntry>>> Entries;
  llvm::StringMap<size_t> Index; // name -> position in Names
};

class FusionCandidates {
public:
  static constexpr llvm::StringLiteral Name = "fusion-candidates";
  FusionCandidates(const Trace &T, AnalysisManager &AM);

  /// Sorted by total kernel time desc.
  llvm::ArrayRef<FusionCandidate> candidates() const { return Cands; }
  const KernelPerfLookup &perfLookup() const { return Lookup; }
  /// Each candidate's fusion_candidates.json members in the reference
  /// schema, up to input_dims (the last member: FusionCandidate::
  /// InputDimsJson, the trace's text).
  std::vector<PyValue> toDocs() const;

private:
  std::vector<FusionCandidate> Cands;
  KernelPerfLookup Lookup;
};

/// Fills KernelCount, EligibleCount, TypeSignature and TypeSummary (types in
/// first-seen order) from C.Kernels.
void tallyFusionKernels(FusionCandidate &C);

/// A fusion_candidates.json candidate's members, in file order.
using FusionDocItems = std::vector<std::pair<std::string, PyValue>>;

/// The first fusion_candidates.json members of both files: module_name,
/// base_name, parent_chain, instance_count.
void addFusionIdentity(FusionDocItems &Out, const FusionCandidate &C);

/// fusion_candidates.json members shared by the standalone and comparative
/// files, before input_dims: kernel_type_signature, kernel_type_summary,
/// has_fused_kernel.
void addFusionComposition(FusionDocItems &Out, const FusionCandidate &C);

/// The first shape of an "Input Dims" argument ([[d0, d1, ...], ...]).
std::optional<std::vector<int64_t>> fusionFirstShape(const ArgValue &Dims);

/// `nn.Module: X_3` -> `X`; `f.py(1): g` unchanged (trailing _<digits> cut).
std::string fusionBaseName(llvm::StringRef Name);

} // namespace tl

#endif // TL_ANALYSIS_FUSIONCANDIDATES_H
