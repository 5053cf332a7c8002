//===- EmitterRegistry.cpp - Running emitters, atomic writes --------------===//
#include "tl/Report/Emitter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <time.h>

using namespace llvm;

namespace tl {

Emitter::~Emitter() = default;
EmitterRegistry::EmitterRegistry() = default;
EmitterRegistry::~EmitterRegistry() = default;

void EmitterRegistry::add(std::unique_ptr<Emitter> E) {
  Emitters.push_back(std::move(E));
}

static double threadCpuNow() {
  timespec TS;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &TS) != 0)
    return 0;
  return TS.tv_sec + TS.tv_nsec * 1e-9;
}

Error EmitterRegistry::emitAll(const ReportContext &Ctx,
                               std::vector<EmitterTiming> *Timings) const {
  Error All = Error::success();
  for (const auto &E : Emitters) {
    auto Wall0 = std::chrono::steady_clock::now();
    double Cpu0 = threadCpuNow();
    Error Err = E->emit(Ctx);
    if (Timings)
      Timings->push_back(
          {E->name().str(),
           std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Wall0)
               .count(),
           threadCpuNow() - Cpu0});
    if (Err)
      All = joinErrors(std::move(All),
                       createStringError(inconvertibleErrorCode(),
                                         E->name() + ": " +
                                             toString(std::move(Err))));
  }
  return All;
}

Error writeFileAtomically(StringRef Dir, StringRef Name,
                          function_ref<void(raw_ostream &)> Write) {
  SmallString<256> Final(Dir);
  sys::path::append(Final, Name);
  if (std::error_code EC = sys::fs::create_directories(
          sys::path::parent_path(Final)))
    return createStringError(EC, "cannot create directory '" +
                                     sys::path::parent_path(Final) +
                                     "': " + EC.message());
  // The temporary sits next to the target so the rename stays on one
  // file system and is atomic.
  SmallString<256> Model(Final);
  Model += ".tmp-%%%%%%";
  int FD;
  SmallString<256> Tmp;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Tmp))
    return createStringError(EC, "cannot create '" + Model + "': " +
                                     EC.message());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    Write(OS);
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(Tmp);
      return createStringError(EC, "cannot write '" + Final + "': " +
                                       EC.message());
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Final)) {
    sys::fs::remove(Tmp);
    return createStringError(EC, "cannot rename to '" + Final + "': " +
                                     EC.message());
  }
  return Error::success();
}

} // namespace tl
