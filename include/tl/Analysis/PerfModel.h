//===- PerfModel.h - FLOPs/bytes models of profiled ops -------*- C++ -*-===//
//
// Pure functions over a plain op description (spec perf-report §5): no Trace
// needed. A model yields FLOPs, bytes (optional), backward variants, the
// ordered `param_details` (CSV "param: <key>" columns) and a compute spec.
// metrics() turns a model and a kernel time into the sheet columns (§5.1).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_PERFMODEL_H
#define TL_ANALYSIS_PERFMODEL_H

#include "tl/Support/PyValue.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl {

struct ArchSpec;

/// The args of one cpu_op as the profiler records them.
struct OpDesc {
  std::string Name;
  /// "Input Dims": each entry a list of ints (a shape, [] for non-tensors)
  /// or a list of lists (tensor lists).
  std::vector<PyValue> InputDims;
  std::vector<std::string> InputTypes;
  /// "Input Strides"; empty when the trace has none.
  std::vector<PyValue> InputStrides;
  /// "Concrete Inputs" (PyTorch writes every entry as a string).
  std::vector<std::string> ConcreteInputs;
  /// args["Output type"] when present (reduce).
  std::optional<std::vector<std::string>> OutputTypes;
  /// Name of the iteration annotation around the op (spec inference §A.1),
  /// "NA" when none; set only for the ops the InferenceAttention models
  /// read it from (isAnnotationTarget).
  std::string Annotation = "NA";
  /// Kernel names in kernel_details order (GEMM transpose parsing; the
  /// MoE pseudo ops' weight dtype).
  std::vector<std::string> KernelNames;
  /// The MoE pseudo ops' args `MoE topk` and `MoE GEMM gated` (§B.3).
  std::optional<int64_t> MoeTopK;
  std::optional<bool> MoeGated;
};

using ParamList = std::vector<std::pair<std::string, PyValue>>;

/// What a model computes for one op.
struct PerfModelResult {
  std::string ModelClass; // e.g. "aten_mm", "aten_conv"
  std::string Category;   // class category: "GEMM", "CONV_fwd", ...
  /// maf ("matrix" / "vector") and precision; ComputeSpec is
  /// "<maf>_<precision>" or "" when the precision is unknown.
  std::string ComputeSpec;
  double Flops = 0;
  std::optional<double> Bytes; // None in the reference when a bpe is unknown
  /// Backward FLOPs/bytes; HasBwd false = NotImplementedError.
  bool HasBwd = false;
  double FlopsBwd = 0;
  std::optional<double> BytesBwd;
  ParamList Params;
};

/// Python's NotImplementedError: sheets skip the row silently and the
/// unified table drops it; other errors are warnings.
class NotImplementedError : public llvm::ErrorInfo<NotImplementedError> {
public:
  static char ID;
  explicit NotImplementedError(std::string Msg) : Msg(std::move(Msg)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string Msg;
};

/// True when Name has a model here (exact-name map).
bool hasPerfModel(llvm::StringRef Name);
/// Names of all exact-name models, in registration order.
std::vector<std::string> perfModelOpNames();
/// §5.10 name matcher: triton_poi_ / triton_red_ / triton_per_.
bool isTritonKernelName(llvm::StringRef Name);
/// §5.10 "modelable": Concrete Inputs, Input Dims and Input type non-empty
/// and at least one Concrete Input parses as an integer.
bool isTritonModelable(const OpDesc &Op);

/// Build the model of Op (exact name, else the triton matcher). Errors when
/// the op has no model or its parameters cannot be extracted.
llvm::Expected<PerfModelResult> buildPerfModel(const OpDesc &Op);

/// The §5.1 columns.
struct PerfMetrics {
  double GFLOPS = 0;
  double TFLOPSs = 0;      // NaN when the kernel time is 0
  double DataMovedMB = 0;  // NaN when bytes is None
  double FlopsPerByte = 0; // NaN when bytes is None or 0
  double TBs = 0;          // NaN when bytes is None or time is 0
  std::string ComputeSpec;
  // Only with an arch: roofline columns (NaN/empty when the arch has no
  // peak for the compute spec or bytes is None).
  bool HasRoofline = false;
  double RooflineTimeUs = 0;
  std::string RooflineBound; // "COMPUTE_BOUND" / "MEMORY_BOUND"
  double PctRoofline = 0;
};

/// §5.1 steps 5-10. Bwd selects flops_bwd/bytes_bwd (NotImplementedError
/// when the model has none).
llvm::Expected<PerfMetrics> computeMetrics(const PerfModelResult &M,
                                           double KernelTimeUs, bool Bwd,
                                           const ArchSpec *Arch = nullptr);
/// computeMetrics with Arch's peak for M.ComputeSpec already looked up
/// (Arch->peakTflops(M.ComputeSpec); callers with many events per model
/// look it up once).
llvm::Expected<PerfMetrics> computeMetrics(const PerfModelResult &M,
                                           double KernelTimeUs, bool Bwd,
                                           const ArchSpec *Arch,
                                           std::optional<double> Peak);

/// §5.4: transpose flags from a GEMM kernel name; nullopt when the name is
/// not a Tensile (C???_A???_B???) or nvjet kernel. Each flag may be None.
std::optional<PyValue> parseGemmTranspose(llvm::StringRef KernelName);

} // namespace tl

#endif // TL_ANALYSIS_PERFMODEL_H
