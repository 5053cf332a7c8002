//===- ArchSpec.h - GPU peak numbers for roofline -------------*- C++ -*-===//
#ifndef TL_ANALYSIS_ARCHSPEC_H
#define TL_ANALYSIS_ARCHSPEC_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace tl {

/// One GPU's peaks, as in data/arch/<NAME>.yaml (schema of the reference's
/// arch JSON: name, mem_bw_gbps, memory_gb, max_achievable_tflops).
struct ArchSpec {
  std::string Name;          // "MI300X"
  std::string Source;        // "measured" or "datasheet"
  double MemBwGBps = 0;      // HBM bandwidth, GB/s
  double MemoryGB = 0;
  /// Peak TFLOP/s keyed by compute spec: "matrix_bf16", "vector_fp32", ...
  llvm::StringMap<double> MaxTflops;
  /// The links copies cross, one direction's rate in GB/s (0 = not in the
  /// file): host <-> device (PCIe) and device <-> device (NVLink, xGMI).
  /// Not in the reference's schema; only tl's own report reads them.
  std::string HostLink, PeerLink; // "PCIe gen5 x16", "NVLink 4"
  double HostLinkGBps = 0, PeerLinkGBps = 0;
  /// A collective's achievable bus bandwidth (nccl-tests busbw, GB/s)
  /// inside a node and across nodes (0 = not in the file): user-provided
  /// link peaks for the job finding MR-COLL-BW (spec multi-rank.md §5.4).
  double IntraNodeBusbwGBps = 0, InterNodeBusbwGBps = 0;

  /// Peak for a compute spec, nullopt when the file has none.
  std::optional<double> peakTflops(llvm::StringRef ComputeSpec) const;
};

/// Parse an arch file (YAML, or the reference's JSON which is YAML too).
llvm::Expected<ArchSpec> loadArchSpec(llvm::StringRef Path);
/// The same from an arch file's text; Path only names it in errors.
llvm::Expected<ArchSpec> parseArchSpec(llvm::StringRef Path,
                                       llvm::StringRef Text);

/// Resolve --arch: a NAME among the shipped files (case-insensitive), a path
/// to a .yaml/.json file. DataDir is <tool>/../share/tl.
llvm::Expected<ArchSpec> resolveArchSpec(llvm::StringRef NameOrPath,
                                         llvm::StringRef DataDir);

/// Pick the shipped arch for a deviceProperties name ("NVIDIA H100 80GB HBM3",
/// "AMD Instinct MI300X VF"); nullopt when nothing matches.
std::optional<std::string> archNameForDevice(llvm::StringRef DeviceName);

class Trace;

/// The GPU name recorded in the trace (first `deviceProperties[].name`).
std::optional<std::string> traceDeviceName(const Trace &T);

/// --arch=auto: the shipped arch for the trace's device. Note says what was
/// chosen and why ("H100 (from device 'NVIDIA H100 80GB HBM3')"), or why
/// none was (unknown device, no deviceProperties): the caller prints it, so
/// the choice is never silent. nullopt = no roofline numbers.
llvm::Expected<std::optional<ArchSpec>>
autoArchSpec(const Trace &T, llvm::StringRef DataDir, std::string &Note);

} // namespace tl

#endif // TL_ANALYSIS_ARCHSPEC_H
