//===- ConvHooks.cpp - Convolution specifics of the compute tier ----------===//
#include "tl/Compute/ConvHooks.h"

#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Compute/ComputeFindings.h"
#include "tl/Compute/ComputePass.h"
#include "tl/Support/PyFormat.h"

#include "llvm/Support/FormatVariadic.h"

namespace tl::compute {

TransposeFacts transposeOf(const CategoryResult &R) {
  TransposeFacts F;
  double Us = 0;
  for (const OpRecord &Op : R.Ops)
    if (containsAnyCI(Op.Name, {"transpose"})) {
      ++F.Count;
      Us += R.row(Op).num("Kernel Time (µs)_sum").value_or(0);
    }
  F.TimeMs = pyRound(Us / 1000, 3);
  F.OverheadPct =
      R.TotalTimeMs > 0 ? pyRound(F.TimeMs / R.TotalTimeMs * 100, 2) : 0;
  return F;
}

namespace {

/// A layout-conversion kernel a convolution runs around its main kernel
/// (cuDNN nchwToNhwcKernel / nhwcToNchwKernel, MIOpen transpose_NCHW2CNHW
/// and batched_transpose): the model's tensors are not in the layout the
/// convolution kernel reads.
bool layoutTransposeKernel(llvm::StringRef K) {
  return containsAnyCI(K, {"nchwtonhwc", "nhwctonchw", "nchw2", "nhwc2",
                           "cnhw2", "batched_transpose"});
}

/// Layout-transpose kernel time inside the group's own ops (µs) and the
/// ops' total kernel time; from the typed rows (none for hand tables).
std::pair<double, double> groupTransposeUs(const CategoryResult &R,
                                           const CategoryFinding &F) {
  double Tr = 0, All = 0;
  for (const ImpactEstimate &E : F.Members) {
    const UnifiedPerfRow *U = R.In->typedRow(R.Ops[E.Op].Row);
    if (!U)
      continue;
    for (const KernelStat &K : U->KernelDetails) {
      All += K.TotalUs;
      if (layoutTransposeKernel(K.Name))
        Tr += K.TotalUs;
    }
  }
  return {Tr, All};
}

} // namespace

AnalyzerHooks convHooks(double ChannelsLastPct) {
  AnalyzerHooks H;
  H.ExtraFields = {"Input Dims", "Input type"};
  H.Specific = [](const CategoryResult &R, llvm::ArrayRef<RowView>) {
    TransposeFacts T = transposeOf(R);
    std::vector<std::pair<std::string, PyValue>> S = {
        {"transpose_count", PyValue::integer(T.Count)},
        // The reference's 0 stays an int when no row is a transpose.
        {"transpose_time_ms",
         T.Count ? PyValue::real(T.TimeMs) : PyValue::integer(0)},
        {"transpose_overhead_percent", PyValue::real(T.OverheadPct)}};
    for (auto &KV : peakItems(R.In->peaks(), /*WithMaf=*/true))
      S.push_back(std::move(KV));
    return S;
  };
  H.Resolve = [ChannelsLastPct](const CategoryResult &R,
                                const CategoryFinding &F) {
    if (!F.Quantified)
      return defaultResolution(R, F);
    TransposeFacts T = transposeOf(R);
    // Whatever the bound: layout conversions inside the convolutions are
    // the evidence for channels-last (tl's report; the reference looks at
    // op names only).
    auto [TrUs, AllUs] = groupTransposeUs(R, F);
    double TrPct = AllUs > 0 ? TrUs / AllUs * 100 : 0;
    if (TrPct > ChannelsLastPct)
      return Resolution{
          "Layout-conversion kernels (NCHW <-> NHWC transposes) take " +
              llvm::formatv("{0:F2}", TrPct).str() +
              "% of these convolutions' kernel time: run the model "
              "channels-last (model.to(memory_format=torch.channels_last) "
              "and the inputs too) so the convolution kernels read NHWC "
              "directly.",
          "layout change (channels-last)", "no transpose kernels"};
    if (F.BoundType == "memory" && T.OverheadPct > ChannelsLastPct)
      return Resolution{
          "Layout transposes take " +
              llvm::formatv("{0:F2}", T.OverheadPct).str() +
              "% of convolution time: run the model channels-last "
              "(model.to(memory_format=torch.channels_last)) so the "
              "convolution kernels read NHWC directly.",
          "layout change (channels-last)", "no transpose kernels"};
    if (F.BoundType == "memory")
      return Resolution{
          "Memory-bound convolutions (typically 1x1 or depthwise): use "
          "channels-last "
          "and fuse the following bias/activation/normalization into the "
          "convolution epilogue.",
          "layout change, fused epilogue", "higher achieved TB/s"};
    return Resolution{
        "Tune the convolution algorithm for these shapes (cudnn.benchmark "
        "/ MIOpen find-mode tuning) and narrow the precision if the model "
        "tolerates it.",
        "algorithm/tile tuning", "higher TFLOP/s"};
  };
  return H;
}

} // namespace tl::compute
