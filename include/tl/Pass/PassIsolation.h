//===- PassIsolation.h - Running a plugin pass in a child process -*- C++ -*-===//
//
// A pass from a plugin that is not built in may crash, abort, call exit() or
// loop; run in a forked child, that fails the pass only. The child runs the
// pass on its copy of the process (trace and cached analyses included, no
// copying thanks to fork), sends its PassOutput back through a pipe
// (PassResultCodec.h) and leaves with _exit. The parent waits, with a time
// limit, and turns a signal, an exit status or a timeout into a failure.
//
// fork copies only the calling thread: the caller must make sure no other
// thread holds a lock the pass may need (the pass manager forks only after
// its in-process passes and prefetch jobs are done).
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASSISOLATION_H
#define TL_PASS_PASSISOLATION_H

#include "tl/Pass/PassResultCodec.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tl {

struct ChildRunOptions {
  /// Wall-clock limit in seconds; 0 = none.
  unsigned TimeoutSeconds = 0;
};

struct ChildRunResult {
  PassOutput Output;
  /// User + system CPU time of the child.
  double CpuSeconds = 0;
};

/// Run Body in a forked child and return what it produced. Body must not
/// throw (the pass manager's in-process body catches everything). A child
/// that dies, exits early or overruns the limit gives Output.Failed with
/// the reason: `killed by signal SIGSEGV (Segmentation fault)`,
/// `exited with status 3 before returning its results`,
/// `timed out after 5 s (--pass-timeout) and was killed`.
ChildRunResult runInChildProcess(llvm::function_ref<PassOutput()> Body,
                                 const ChildRunOptions &Opts);

/// `SIGSEGV (Segmentation fault)`; `signal 77` for an unknown one.
std::string describeSignal(int Sig);

} // namespace tl

#endif // TL_PASS_PASSISOLATION_H
