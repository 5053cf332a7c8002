//===- WorkloadInfo.h - What workload a trace shows ------------*- C++ -*-===//
//
// Inferred from the trace alone, for the top of the report: framework and
// mode (training/inference; eager, compiled, GPU-graph replay), model family
// from nn.Module frames, architecture facts from shapes (hidden size, heads,
// head dim, layers, vocabulary), precision from the dominant GEMM dtype,
// batch/sequence, and the distributed setup from `distributedInfo`. Every
// fact carries its evidence and a confidence. Rules: docs/TraceQuality.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_WORKLOADINFO_H
#define TL_ANALYSIS_WORKLOADINFO_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

enum class Confidence : uint8_t { Low, Medium, High };
llvm::StringRef confidenceName(Confidence C); // "low", "medium", "high"

/// One inferred fact. Keys are stable (see WorkloadInfo::Keys below).
struct WorkloadFact {
  std::string Key;
  std::string Value;
  std::string Evidence;
  Confidence Conf = Confidence::Low;
  /// Numeric value when the fact is a number (hidden_size, ...).
  std::optional<int64_t> Number;
};

class WorkloadInfo {
public:
  static constexpr llvm::StringLiteral Name = "workload-info";
  WorkloadInfo(const Trace &T, AnalysisManager &AM);
  explicit WorkloadInfo(const Trace &T);

  /// Facts in a fixed key order: framework, device, mode, optimizer,
  /// execution, model_family, model_class, hidden_size, num_heads,
  /// num_kv_heads, head_dim, num_layers, vocab_size, precision, batch_size,
  /// seq_len, distributed, rank, world_size, backend, process_groups,
  /// collectives. Facts that cannot be inferred are absent.
  llvm::ArrayRef<WorkloadFact> facts() const { return Facts; }
  const WorkloadFact *find(llvm::StringRef Key) const;
  /// Value of Key, or "" when unknown.
  llvm::StringRef value(llvm::StringRef Key) const;
  std::optional<int64_t> number(llvm::StringRef Key) const;

  /// Report title: the model family when known, else "Workload".
  std::string title() const;

private:
  std::vector<WorkloadFact> Facts;
};

/// Short dtype name of a profiler `Input type` string: "c10::BFloat16" ->
/// "bf16", "c10::Half" -> "fp16", "float" -> "fp32", "c10::Float8_e4m3fn"
/// -> "fp8"; other strings are returned as is.
std::string shortDtype(llvm::StringRef InputType);

} // namespace tl

#endif // TL_ANALYSIS_WORKLOADINFO_H
