//===- MultiKernelData.h - Memcpy, collective and sync data ----*- C++ -*-===//
//
// The system tier's view of the GPU pipeline as a whole (tracelens-analysis
// §3.4, §6.8): memcpy by direction, collective communication, the
// compute/communication overlap over *all* GPU events (the reference's
// multi_kernel_data.json), plus what the reference lacks: every
// host<->device transfer attributed to the CPU op, python frame and
// nn.Module that issued it, collectives with their stream and message size,
// and synchronize calls with the GPU idle they cause.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_MULTIKERNELDATA_H
#define TL_ANALYSIS_MULTIKERNELDATA_H

#include "tl/Analysis/GpuTimeline.h"
#include "tl/IR/Trace.h"
#include "tl/Support/PyValue.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class AnalysisManager;

/// Memcpy direction by (case-insensitive) name substring, spec §3.4.
enum class CopyDir : uint8_t { D2H, H2D, D2D, Other };
inline constexpr unsigned NumCopyDirs = 4;
llvm::StringRef copyDirName(CopyDir D); // "D2H", "H2D", "D2D", "other"
CopyDir copyDirOf(llvm::StringRef Name);

struct MemcpyDirStats {
  uint64_t Count = 0;
  double TotalUs = 0, MaxUs = 0;
  int64_t TotalBytes = 0;
  bool AnyBytes = false;
};

/// A direction's `by_direction` entry of the multi-kernel documents: count,
/// times (µs, 2 digits), bytes; NoBytes is avg_bytes when no transfer
/// carried a size (multi_kernel_data.json writes 0, the metrics 0.0).
PyValue memcpyDirDoc(const MemcpyDirStats &S, PyValue NoBytes);

/// Transfers issued by one (direction, CPU op, python line, module, host
/// memory kind) site.
struct TransferSite {
  CopyDir Dir = CopyDir::Other;
  std::string CpuOp;      // innermost cpu_op above the launch ("" none)
  std::string PyCall;     // innermost "<built-in method X" -> "X" ("" none)
  std::string PyFrame;    // innermost "file.py(N): fn" frame ("" none)
  std::string Module;     // innermost nn.Module ("" none)
  std::string HostMemory; // "pinned", "pageable" or "" (not recorded)
  uint64_t Count = 0;
  double TotalUs = 0;
  int64_t Bytes = 0;
  EventId First = NoEvent;
};

/// One collective kernel (top list entry).
struct CollectiveOp {
  EventId E = NoEvent;
  std::optional<int64_t> Stream;
  std::string Collective; // "allreduce" (from record_param_comms), or ""
  std::optional<int64_t> Nelems;
  std::string DType;
};

struct CommStreamStats {
  std::optional<int64_t> Stream;
  uint64_t Count = 0;
  double TotalUs = 0;
};

/// A host synchronize call and the GPU idle around it.
struct SyncCall {
  EventId E = NoEvent;
  std::string Kind; // "device", "stream", "event"
  double HostUs = 0;
  /// Idle gaps of the (linked) GPU timeline that overlap the call, whole.
  double GpuIdleUs = 0;
  std::string CpuOp, PyFrame;
};

class MultiKernelData {
public:
  static constexpr llvm::StringLiteral Name = "multi-kernel-data";
  MultiKernelData(const Trace &T, AnalysisManager &AM);

  // --- reference data (§3.4) ---
  const MemcpyDirStats &dir(CopyDir D) const {
    return Dirs[static_cast<unsigned>(D)];
  }
  uint64_t memcpyCount() const { return MemcpyEvents.size(); }
  /// round(Σ_dir round(dir total, 2), 2), as the reference.
  double memcpyTotalUs() const;
  llvm::ArrayRef<EventId> memcpyEvents() const { return MemcpyEvents; }
  llvm::ArrayRef<EventId> commEvents() const { return CommEvents; }
  double commTotalUs() const { return CommTotalUs; }
  double commMaxUs() const { return CommMaxUs; }
  /// Collectives by duration desc (stable), all of them.
  llvm::ArrayRef<CollectiveOp> collectives() const { return Collectives; }
  llvm::ArrayRef<CommStreamStats> commStreams() const { return CommStreams; }
  /// The timeline over all GPU events (linked or not).
  const GpuTimeline &overlap() const { return *Overlap; }

  // --- beyond the reference ---
  llvm::ArrayRef<TransferSite> transferSites() const { return Sites; }
  llvm::ArrayRef<SyncCall> syncCalls() const { return Syncs; }

  /// category_data/multi_kernel_data.json in the reference schema.
  PyValue toDoc(const Trace &T) const;
  /// toDoc's "overlap_analysis" object (the multi-kernel pass's metrics
  /// file repeats the block).
  PyValue overlapAnalysis() const;
  /// The ten longest collectives (name, duration_us, stream), toDoc's
  /// nccl_summary.top_ops.
  PyValue topCollectivesDoc(const Trace &T) const;

private:
  std::array<MemcpyDirStats, NumCopyDirs> Dirs;
  std::vector<EventId> MemcpyEvents, CommEvents;
  double CommTotalUs = 0, CommMaxUs = 0;
  std::vector<CollectiveOp> Collectives;
  std::vector<CommStreamStats> CommStreams;
  /// The AnalysisManager's GpuTimeline when it covers every GPU event
  /// (no unlinked ones), else OwnOverlap.
  const GpuTimeline *Overlap = nullptr;
  std::shared_ptr<const GpuTimeline> OwnOverlap;
  std::vector<TransferSite> Sites;
  std::vector<SyncCall> Syncs;
};

/// Host context of a GPU event or host event: innermost cpu_op, python
/// frame, built-in call and nn.Module above it.
struct HostContext {
  EventId CpuOp = NoEvent;
  std::string PyFrame, PyCall, Module;
};
HostContext hostContextOf(const Trace &T, EventId E);

} // namespace tl

#endif // TL_ANALYSIS_MULTIKERNELDATA_H
