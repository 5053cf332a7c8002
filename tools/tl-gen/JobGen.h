//===- JobGen.h - tl-gen: a multi-rank job with known stragglers -*- C++ -*-===//
//
// tl-gen --ranks=N -o DIR/: one Kineto trace per rank (DIR/rank<R>.json),
// with the c10d metadata PyTorch records on record_param_comms and on the
// NCCL kernel (Collective name, In/Out msg nelems, Group size, dtype,
// Process Group Name/Description/Ranks, Rank, Seq) and distributedInfo.
// All ranks are simulated together so the collectives synchronise: each
// collective's kernels end at the same instant on every member, the last
// arrival plus the transfer time. Injected delays (--straggler) and
// arrival jitter (--skew) make the truth: per collective the late rank and
// the arrival skew, written as JSON (--truth).
//
//===----------------------------------------------------------------------===//
#ifndef TL_TOOLS_TLGEN_JOBGEN_H
#define TL_TOOLS_TLGEN_JOBGEN_H

#include <cstdint>
#include <string>
#include <vector>

namespace tlgen {

struct JobOptions {
  std::string Dir;
  unsigned Ranks = 2, Steps = 2, Layers = 2, Hidden = 1024;
  uint64_t Seed = 1;
  /// (rank, extra µs before each of its collectives).
  std::vector<std::pair<unsigned, double>> Stragglers;
  /// Every rank arrives up to this many µs late (uniform, per collective).
  double SkewUs = 0;
  /// Leave out Seq (older PyTorch): tl must match by order.
  bool NoSeq = false;
  /// A Comms Id on every collective (newer PyTorch): tl matches by it.
  bool CommsId = false;
  /// Per step, a send/recv pair each way in every pair group {2k, 2k+1}.
  bool P2P = false;
  /// Per step, an all_to_allv on the world group with uneven splits.
  bool AllToAllv = false;
  std::string TruthFile;
  /// > 0: steps until rank 0's trace has this many MB (1e6 bytes);
  /// Steps is then ignored.
  double TargetMb = 0;
  /// Elementwise kernels before each GEMM (no delay, no jitter: the truth
  /// is the same).
  unsigned FillKernels = 0;
  /// GPUs per node (deviceProperties' length); 0 = min(8, ranks).
  unsigned GpusPerNode = 0;
  /// (node, µs its clock runs ahead of node 0's): every time written for
  /// the node's ranks has it added; node 0 is the reference.
  std::vector<std::pair<unsigned, double>> ClockOffsets;
  /// > 0: node k's traces get baseTimeNanoseconds 1.7e18 + k x this and
  /// their ts that much earlier (the same instants; tl must rebase).
  int64_t BaseStepNs = 0;
};

/// Writes the traces (and the truth); false with Err set on an I/O error.
bool generateJob(const JobOptions &O, std::string &Err);

/// "RANK:DELAY_US" -> (rank, delay); false when malformed. Also reads
/// --clock-offset's "NODE:US".
bool parseStraggler(const std::string &S, unsigned &Rank, double &DelayUs);

} // namespace tlgen

#endif // TL_TOOLS_TLGEN_JOBGEN_H
