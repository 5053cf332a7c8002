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
EmitterRegistry::~EmitterRegistry() {
  // Early jobs whose results emitAll() never collected (the driver gave up).
  for (Error &E : Errors)
    consumeError(std::move(E));
}

void EmitterRegistry::add(std::unique_ptr<Emitter> E) {
  Emitters.push_back(std::move(E));
  Ran.push_back(false);
  Errors.push_back(Error::success());
  Times.emplace_back();
}

void EmitterRegistry::runOne(size_t I, const ReportContext &Ctx,
                             bool OnWorker, bool TimeTrace) {
  TimeTraceThreadScope TTS(TimeTrace && OnWorker);
  Emitter &E = *Emitters[I];
  auto Wall0 = std::chrono::steady_clock::now();
  double Cpu0 = threadCpuSeconds();
  Errors[I] = E.emit(Ctx);
  Times[I] = {E.name().str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            Wall0)
                  .count(),
              threadCpuSeconds() - Cpu0};
  Ran[I] = true;
}

std::vector<std::function<void()>>
EmitterRegistry::earlyJobs(const ReportContext &Ctx) {
  std::vector<std::function<void()>> Jobs;
  for (size_t I = 0; I < Emitters.size(); ++I)
    if (!Emitters[I]->needsPassResults() && !Ran[I])
      Jobs.push_back([this, I, &Ctx] {
        runOne(I, Ctx, /*OnWorker=*/false, /*TimeTrace=*/false);
      });
  return Jobs;
}

Error EmitterRegistry::emitAll(const ReportContext &Ctx,
                               std::vector<EmitterTiming> *Timings,
                               const EmitOptions &Opts) {
  std::vector<size_t> Todo;
  for (size_t I = 0; I < Emitters.size(); ++I)
    if (!Ran[I])
      Todo.push_back(I);
  unsigned Threads = effectiveThreads(Opts.Threads);
  if (Threads <= 1 || Todo.size() <= 1) {
    for (size_t I : Todo)
      runOne(I, Ctx, /*OnWorker=*/false, Opts.TimeTrace);
  } else {
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    for (size_t I : Todo)
      Pool.async([this, &Ctx, &Opts, I] {
        runOne(I, Ctx, /*OnWorker=*/true, Opts.TimeTrace);
      });
    Pool.wait();
  }
  // Errors and timings come out in registration order whatever the threads.
  Error All = Error::success();
  for (size_t I = 0; I < Emitters.size(); ++I) {
    if (Timings)
      Timings->push_back(Times[I]);
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
  return writeFileAtomicallyChecked(Dir, Name, [&](raw_ostream &OS) -> Error {
    Write(OS);
    return Error::success();
  });
}

Error writeFileAtomicallyChecked(StringRef Dir, StringRef Name,
                                 function_ref<Error(raw_ostream &)> Write) {
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
    Error WE = Write(OS);
    OS.close();
    if (WE) {
      OS.clear_error();
      sys::fs::remove(Tmp);
      return WE;
    }
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
