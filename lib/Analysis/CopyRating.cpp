//===- CopyRating.cpp - Copies and sets rated against their link ----------===//
#include "tl/Analysis/CopyRating.h"
#include "tl/Analysis/ArchSpec.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace tl;
using llvm::StringRef;

StringRef tl::copyLinkName(CopyLink L) {
  switch (L) {
  case CopyLink::Host:
    return "host";
  case CopyLink::Peer:
    return "peer";
  case CopyLink::Device:
    return "device";
  }
  return "device";
}

bool tl::isCopyOrSetName(StringRef Name) {
  return Name.starts_with_insensitive("memcpy") ||
         Name.starts_with_insensitive("memset");
}

std::optional<CopyLink> tl::copyLinkOf(StringRef Name) {
  if (!isCopyOrSetName(Name))
    return std::nullopt;
  std::string L = Name.lower();
  StringRef N(L);
  if (N.starts_with("memset"))
    return CopyLink::Device;
  // CUPTI's kinds: PtoP crosses devices, DtoD stays on one (Kineto writes
  // both sides as "Device" for either).
  if (N.contains("ptop") || N.contains("peer"))
    return CopyLink::Peer;
  if (N.contains("htod") || N.contains("dtoh") || N.contains("host") ||
      N.contains("pinned") || N.contains("pageable"))
    return CopyLink::Host;
  return CopyLink::Device;
}

void CopyRating::add(StringRef Name, double DurUs,
                     std::optional<int64_t> B) {
  ++Count;
  TotalUs += DurUs;
  if (B && *B > 0) {
    Bytes += *B;
    AnyBytes = true;
  }
  if (Name.contains_insensitive("pageable"))
    Pageable = true;
}

void CopyRating::finish(CopyLink L, const ArchSpec *Arch) {
  Link = L;
  if (Arch && L == CopyLink::Host && Arch->HostLinkGBps > 0) {
    LinkName = Arch->HostLink.empty() ? "host link" : Arch->HostLink;
    LinkGBps = Arch->HostLinkGBps;
  } else if (Arch && L == CopyLink::Peer && Arch->PeerLinkGBps > 0) {
    LinkName = Arch->PeerLink.empty() ? "peer link" : Arch->PeerLink;
    LinkGBps = Arch->PeerLinkGBps;
  }
  if (AnyBytes && Count)
    AvgBytes = double(Bytes) / double(Count);
  // bytes / µs = MB/s; / 1000 = GB/s.
  if (AnyBytes && TotalUs > 0)
    AchievedGBps = double(Bytes) / TotalUs / 1000;
  if (AchievedGBps && LinkGBps > 0)
    LinkPct = *AchievedGBps / LinkGBps * 100;
  // Small copies first: a pinned buffer does not shorten a latency-bound
  // transfer, and a pageable one of a few bytes is a host read (.item()).
  if (AvgBytes && *AvgBytes < SmallCopyBytes)
    Cause = CopyCause::SmallCopies;
  else if (Pageable && L == CopyLink::Host)
    Cause = CopyCause::Pageable;
  else
    Cause = CopyCause::Copy;
}

static std::string num(double V, const char *Fmt) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format(Fmt, V);
  return S;
}

std::string CopyRating::rateText() const {
  if (!AchievedGBps)
    return "no byte counts recorded, so no rate";
  std::string S = num(*AchievedGBps, "%.4g") + " GB/s";
  if (LinkPct)
    S += ", " + num(*LinkPct, "%.1f") + "% of " + LinkName + " (" +
         num(LinkGBps, "%g") + " GB/s per direction)";
  else if (Link == CopyLink::Device)
    S += " inside the device (no link crossed)";
  else
    S += " (the arch file has no " + copyLinkName(Link).str() +
         "-link figure)";
  if (Cause == CopyCause::SmallCopies)
    S += "; " + num(*AvgBytes, "%.0f") +
         " B per copy on average, so the copies are latency-bound";
  return S;
}

std::string CopyRating::action() const {
  switch (Cause) {
  case CopyCause::SmallCopies:
    return "These copies are small and latency-bound: batch them into one "
           "larger transfer (one contiguous buffer, or torch._foreach / a "
           "single .to() of a stacked tensor), or keep the values where they "
           "are used (no per-step .item()/.cpu()).";
  case CopyCause::Pageable:
    return "The host side is pageable memory, which the driver stages "
           "through a bounce buffer: allocate it pinned (pin_memory=True, "
           "or a pinned staging buffer) and copy with non_blocking=True.";
  case CopyCause::Copy:
    break;
  }
  if (Link == CopyLink::Device)
    return "Avoid the copy or set: let the consumer read the source view "
           "(no .contiguous()/.clone()), and allocate with torch.empty "
           "instead of torch.zeros where every element is written anyway.";
  return "The copies are large and already pinned: avoid them (keep the "
         "tensor on the device that uses it) or overlap them with compute "
         "on a separate stream.";
}

std::string CopyRating::mechanism() const {
  switch (Cause) {
  case CopyCause::SmallCopies:
    return "batched copies";
  case CopyCause::Pageable:
    return "pinned host memory";
  case CopyCause::Copy:
    break;
  }
  return "avoid the copy";
}
