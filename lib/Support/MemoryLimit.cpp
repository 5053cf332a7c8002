//===- MemoryLimit.cpp - how much memory this process may use -------------===//
#include "tl/Support/MemoryLimit.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <sys/resource.h>
#include <unistd.h>

using namespace llvm;

namespace tl {

std::optional<uint64_t> parseCgroupMemoryLimit(StringRef Text) {
  Text = Text.trim();
  uint64_t V;
  if (Text == "max" || Text.getAsInteger(10, V))
    return std::nullopt;
  // cgroup v1 writes "no limit" as the largest page-aligned long.
  if (V >= (uint64_t(1) << 62))
    return std::nullopt;
  return V;
}

std::optional<std::pair<bool, std::string>>
parseProcCgroup(StringRef Text) {
  std::optional<std::pair<bool, std::string>> V2;
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    // hierarchy-ID:controller-list:cgroup-path
    auto [Id, Rest] = L.split(':');
    auto [Controllers, Path] = Rest.split(':');
    if (Path.empty())
      continue;
    if (Id == "0" && Controllers.empty()) {
      V2 = std::make_pair(true, Path.str());
      continue;
    }
    SmallVector<StringRef, 4> Names;
    Controllers.split(Names, ',');
    // The cgroup v1 controller's name (not a pass's).
    constexpr StringLiteral MemoryController = "memory";
    if (llvm::is_contained(Names, MemoryController))
      return std::make_pair(false, Path.str());
  }
  return V2;
}

namespace {
std::optional<std::string> readSmallFile(const Twine &Path) {
  // Files under /proc and /sys report size 0: read as a stream.
  auto B = MemoryBuffer::getFileAsStream(Path);
  if (!B)
    return std::nullopt;
  return (*B)->getBuffer().str();
}

std::optional<uint64_t> fileNumber(const Twine &Path) {
  std::optional<std::string> S = readSmallFile(Path);
  if (!S)
    return std::nullopt;
  return parseCgroupMemoryLimit(*S);
}

/// The cgroup limit less what the cgroup already uses, if there is one.
std::optional<uint64_t> cgroupAvailable() {
  std::optional<std::string> Self = readSmallFile("/proc/self/cgroup");
  if (!Self)
    return std::nullopt;
  auto Where = parseProcCgroup(*Self);
  if (!Where)
    return std::nullopt;
  auto [V2, Path] = *Where;
  if (Path == "/")
    Path.clear();
  std::string Dir = V2 ? "/sys/fs/cgroup" + Path
                       : "/sys/fs/cgroup/memory" + Path;
  std::optional<uint64_t> Limit =
      fileNumber(Dir + (V2 ? "/memory.max" : "/memory.limit_in_bytes"));
  // Inside a container the namespace's root is its own cgroup.
  if (!Limit)
    Limit = fileNumber(V2 ? "/sys/fs/cgroup/memory.max"
                          : "/sys/fs/cgroup/memory/memory.limit_in_bytes");
  if (!Limit)
    return std::nullopt;
  std::optional<uint64_t> Used =
      fileNumber(Dir + (V2 ? "/memory.current" : "/memory.usage_in_bytes"));
  return Used && *Used < *Limit ? *Limit - *Used : *Limit;
}

/// The address space in use (VmSize), for the rlimits that count it.
uint64_t addressSpaceInUse() {
  std::optional<std::string> S = readSmallFile("/proc/self/statm");
  uint64_t Pages = 0;
  if (!S || StringRef(*S).split(' ').first.getAsInteger(10, Pages))
    return 0;
  return Pages * uint64_t(sysconf(_SC_PAGESIZE));
}
} // namespace

uint64_t availableMemoryBytes() {
  uint64_t Best = 0;
  auto Take = [&](uint64_t V) { Best = Best ? std::min(Best, V) : V; };
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (Pages > 0 && PageSize > 0)
    Take(uint64_t(Pages) * uint64_t(PageSize));
  uint64_t InUse = addressSpaceInUse();
  // These limits count address space, not resident pages: reserved but
  // untouched memory (a vector's doubling, thread stacks, the decoder's
  // window) counts too, so only half of what is left is offered.
  for (int Which : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit L;
    if (getrlimit(Which, &L) == 0 && L.rlim_cur != RLIM_INFINITY)
      Take(L.rlim_cur > InUse ? (uint64_t(L.rlim_cur) - InUse) / 2 : 1);
  }
  if (std::optional<uint64_t> C = cgroupAvailable())
    Take(std::max<uint64_t>(*C, 1));
  return Best;
}

} // namespace tl
