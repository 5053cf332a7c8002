//===- MemoryLimit.h - how much memory this process may use ----*- C++ -*-===//
//
// The default memory budget must respect the limits the process runs
// under, not only the machine's RAM: in a container (cgroup memory.max) or
// under `ulimit -v`, allocating past the limit aborts the run instead of
// ending it with a clear error.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_MEMORYLIMIT_H
#define TL_SUPPORT_MEMORYLIMIT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace tl {

/// The value of a cgroup memory limit file: cgroup v2 `memory.max` ("max"
/// or bytes) or v1 `memory.limit_in_bytes` (bytes; values near 2^63 mean
/// none). nullopt when there is no limit or the text is not a number.
std::optional<uint64_t> parseCgroupMemoryLimit(llvm::StringRef Text);

/// The cgroup's directory for the memory controller from the text of
/// /proc/self/cgroup: "0::/a/b" (v2) or "N:...memory...:/a/b" (v1).
/// Returns (true = v2, path), or nullopt when neither line is there.
std::optional<std::pair<bool, std::string>>
parseProcCgroup(llvm::StringRef Text);

/// Bytes this process can still allocate: the smallest of physical RAM,
/// half of RLIMIT_AS and RLIMIT_DATA less the address space already in use
/// (they count reservations too), and the cgroup's limit less its current
/// usage. 0 when nothing is known.
uint64_t availableMemoryBytes();

} // namespace tl

#endif // TL_SUPPORT_MEMORYLIMIT_H
