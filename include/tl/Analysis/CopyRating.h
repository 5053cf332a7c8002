//===- CopyRating.h - Copies and sets rated against their link --*- C++ -*-===//
//
// A memcpy is limited by the link it crosses, not by HBM: host <-> device
// copies by the host link (PCIe), peer copies by the peer link (NVLink,
// xGMI); a copy or set inside one device crosses no link. This rates a set
// of copies of one kind against that link and names the cause the advice
// follows: pageable host memory, many small (latency-bound) copies, or the
// copy itself.
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_COPYRATING_H
#define TL_ANALYSIS_COPYRATING_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tl {

struct ArchSpec;

/// Which link a GPU copy or set crosses, from its Kineto name.
enum class CopyLink : uint8_t { Host, Peer, Device };
llvm::StringRef copyLinkName(CopyLink L); // "host", "peer", "device"

/// nullopt when Name is not a copy or set ("Memcpy HtoD (Pageable ->
/// Device)" -> Host, "Memcpy PtoP ..." -> Peer, "Memcpy DtoD ...",
/// "Memset (Device)" -> Device).
std::optional<CopyLink> copyLinkOf(llvm::StringRef Name);
/// "Memcpy ..." or "Memset ..." (the names Kineto gives copy/set events).
bool isCopyOrSetName(llvm::StringRef Name);

/// Below this many bytes per copy a transfer is latency-bound: at 64 GB/s
/// it would take 1 µs, less than the few µs every copy costs to start.
inline constexpr double SmallCopyBytes = 65536;

enum class CopyCause : uint8_t { SmallCopies, Pageable, Copy };

struct CopyRating {
  CopyLink Link = CopyLink::Device;
  std::string LinkName; // "PCIe gen5 x16"; "" = unknown / no link
  double LinkGBps = 0;  // 0 = unknown / no link
  uint64_t Count = 0;
  double TotalUs = 0;
  int64_t Bytes = 0;
  bool AnyBytes = false;
  bool Pageable = false; // some copy went through pageable host memory
  /// Bytes / time (GB/s), nullopt without bytes or time.
  std::optional<double> AchievedGBps;
  /// AchievedGBps as % of the link, nullopt without a link figure.
  std::optional<double> LinkPct;
  std::optional<double> AvgBytes;
  CopyCause Cause = CopyCause::Copy;

  /// One copy: its event name, duration (µs) and bytes (nullopt: not
  /// recorded).
  void add(llvm::StringRef Name, double DurUs, std::optional<int64_t> Bytes);
  /// Fill link, rates and cause; Arch may be null (no link figures).
  void finish(CopyLink L, const ArchSpec *Arch);

  /// "6.4 GB/s, 10.0% of PCIe gen5 x16 (64 GB/s)" style text.
  std::string rateText() const;
  /// The advice for the cause.
  std::string action() const;
  std::string mechanism() const;
};

} // namespace tl

#endif // TL_ANALYSIS_COPYRATING_H
