//===- OutOfMemory.cpp - a clean exit when an allocation fails ------------===//
#include "tl/Support/OutOfMemory.h"

#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <cstring>
#include <unistd.h>

namespace tl {

namespace {
// Plain storage, filled before the work starts: the handler runs with the
// heap exhausted, so it may not allocate.
char Context[1024];
std::atomic<const char *> ToolName{nullptr};

void writeAll(const char *S, size_t N) {
  while (N) {
    ssize_t W = ::write(2, S, N);
    if (W <= 0)
      return;
    S += W;
    N -= size_t(W);
  }
}
void writeStr(const char *S) { writeAll(S, std::strlen(S)); }

void onBadAlloc(void *, const char *, bool) {
  writeStr(ToolName.load());
  writeStr(": error: ");
  if (Context[0]) {
    writeStr(Context);
    writeStr(": ");
  }
  writeStr("out of memory (an allocation failed under the process's memory "
           "limit); a smaller --max-memory stops the import earlier, and "
           "--threads=1 needs less\n");
  ::_exit(1);
}
} // namespace

void exitOnOutOfMemory(const char *Tool) {
  ToolName.store(Tool);
  llvm::install_bad_alloc_error_handler(onBadAlloc, nullptr);
}

void setOutOfMemoryContext(llvm::StringRef TracePath) {
  size_t N = std::min(TracePath.size(), sizeof(Context) - 1);
  std::memcpy(Context, TracePath.data(), N);
  Context[N] = '\0';
}

} // namespace tl
