//===- EmitterRegistry.cpp - Running emitters, atomic writes --------------===//
#include "tl/Report/Emitter.h"
#include "tl/Support/ThreadCount.h"
#include "tl/Support/ThreadTiming.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;

namespace tl {

Emitter::~Emitter() = default;
EmitterRegistry::EmitterRegistry() = default;
EmitterRegistry::~EmitterRegistry() = default;

void EmitterRegistry::add(std::unique_ptr<Emitter> E) {
  Emitters.push_back(std::move(E));
}

Error EmitterRegistry::emitAll(const ReportContext &Ctx,
                               std::vector<EmitterTiming> *Timings,
                               const EmitOptions &Opts) const {
  size_t N = Emitters.size();
  std::vector<Error> Errors;
  for (size_t I = 0; I < N; ++I)
    Errors.push_back(Error::success());
  std::vector<EmitterTiming> Times(N);
  auto RunOne = [&](size_t I, bool OnWorker) {
    TimeTraceThreadScope TTS(Opts.TimeTrace && OnWorker);
    const Emitter &E = *Emitters[I];
    auto Wall0 = std::chrono::steady_clock::now();
    double Cpu0 = threadCpuSeconds();
    Errors[I] = Emitters[I]->emit(Ctx);
    Times[I] = {E.name().str(),
                std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - Wall0)
                    .count(),
                threadCpuSeconds() - Cpu0};
  };
  unsigned Threads = effectiveThreads(Opts.Threads);
  if (Threads <= 1 || N <= 1) {
    for (size_t I = 0; I < N; ++I)
      RunOne(I, /*OnWorker=*/false);
  } else {
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    for (size_t I = 0; I < N; ++I)
      Pool.async([&RunOne, I] { RunOne(I, /*OnWorker=*/true); });
    Pool.wait();
  }
  // Errors and timings come out in registration order whatever the threads.
  Error All = Error::success();
  for (size_t I = 0; I < N; ++I) {
    if (Timings)
      Timings->push_back(std::move(Times[I]));
    if (Errors[I])
      All = joinErrors(std::move(All),
                       createStringError(inconvertibleErrorCode(),
                                         Emitters[I]->name() + ": " +
                                             toString(std::move(Errors[I]))));
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
