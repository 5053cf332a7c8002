//===- PassIsolation.cpp - Running a plugin pass in a child process -------===//
#include "tl/Pass/PassIsolation.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace tl {

std::string describeSignal(int Sig) {
  const char *Abbrev = sigabbrev_np(Sig);
  if (!Abbrev)
    return "signal " + std::to_string(Sig);
  std::string S = std::string("SIG") + Abbrev;
  if (const char *Desc = sigdescr_np(Sig))
    S += std::string(" (") + Desc + ")";
  return S;
}

static PassOutput failure(std::string Msg) {
  PassOutput O;
  O.Failed = true;
  O.Message = std::move(Msg);
  return O;
}

/// The child dies of its own signals: the parent's handlers (LLVM's stack
/// dump, the report's staging clean-up on SIGINT/SIGTERM) are not its to
/// run.
static void resetSignalsInChild() {
  static constexpr int Sigs[] = {SIGSEGV, SIGBUS,  SIGILL,  SIGFPE,
                                 SIGABRT, SIGTRAP, SIGSYS,  SIGINT,
                                 SIGTERM, SIGHUP,  SIGQUIT, SIGPIPE};
  for (int S : Sigs)
    ::signal(S, SIG_DFL);
  sigset_t None;
  sigemptyset(&None);
  pthread_sigmask(SIG_SETMASK, &None, nullptr);
}

static bool writeAll(int Fd, StringRef Bytes) {
  while (!Bytes.empty()) {
    ssize_t N = ::write(Fd, Bytes.data(), Bytes.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Bytes = Bytes.drop_front(N);
  }
  return true;
}

[[noreturn]] static void runChild(function_ref<PassOutput()> Body, int Fd,
                                  pid_t Parent) {
  resetSignalsInChild();
  // A parent killed with SIGKILL takes its children along (a looping pass
  // must not outlive the run).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != Parent)
    ::_exit(125);
  std::string Bytes = encodePassOutput(Body());
  bool Ok = writeAll(Fd, Bytes);
  ::close(Fd);
  // What the pass printed; _exit flushes nothing.
  outs().flush();
  std::fflush(nullptr);
  ::_exit(Ok ? 0 : 124);
}

ChildRunResult runInChildProcess(function_ref<PassOutput()> Body,
                                 const ChildRunOptions &Opts) {
  ChildRunResult Res;
  int Fds[2];
  if (::pipe2(Fds, O_CLOEXEC) != 0) {
    Res.Output = failure(std::string("could not start its process: pipe: ") +
                         std::strerror(errno));
    return Res;
  }
  // Buffered output of the parent must not be written twice.
  outs().flush();
  std::fflush(nullptr);
  pid_t Parent = ::getpid();
  pid_t Pid = ::fork();
  if (Pid < 0) {
    int E = errno;
    ::close(Fds[0]);
    ::close(Fds[1]);
    Res.Output = failure(std::string("could not start its process: fork: ") +
                         std::strerror(E));
    return Res;
  }
  if (Pid == 0) {
    ::close(Fds[0]);
    runChild(Body, Fds[1], Parent);
  }
  ::close(Fds[1]);
  int Fd = Fds[0];

  using Clock = std::chrono::steady_clock;
  auto Deadline = Clock::now() + std::chrono::seconds(Opts.TimeoutSeconds);
  std::string Bytes;
  bool TimedOut = false, Reaped = false;
  int Status = 0;
  struct rusage RU;
  std::memset(&RU, 0, sizeof(RU));
  char Buf[65536];
  auto ReadSome = [&]() -> bool { // false at end of file or on an error
    ssize_t N = ::read(Fd, Buf, sizeof(Buf));
    if (N > 0) {
      Bytes.append(Buf, N);
      return true;
    }
    return N < 0 && errno == EINTR;
  };
  for (;;) {
    // Wake up now and then: a grandchild holding the pipe open must not
    // keep us waiting once the child is gone.
    int WaitMs = 200;
    if (Opts.TimeoutSeconds) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      Deadline - Clock::now())
                      .count();
      WaitMs = static_cast<int>(std::clamp<long long>(Left, 0, WaitMs));
    }
    struct pollfd P = {Fd, POLLIN, 0};
    int R = ::poll(&P, 1, WaitMs);
    if (R < 0 && errno != EINTR)
      break;
    if (R > 0) {
      if (!ReadSome())
        break;
      continue;
    }
    if (Opts.TimeoutSeconds && Clock::now() >= Deadline) {
      ::kill(Pid, SIGKILL);
      TimedOut = true;
      break;
    }
    pid_t W = ::wait4(Pid, &Status, WNOHANG, &RU);
    if (W == Pid) {
      Reaped = true;
      // Whatever it wrote before exiting is still in the pipe.
      while (::poll(&P, 1, 0) > 0 && ReadSome())
        ;
      break;
    }
  }
  ::close(Fd);
  while (!Reaped) {
    pid_t W = ::wait4(Pid, &Status, 0, &RU);
    if (W == Pid || (W < 0 && errno != EINTR))
      Reaped = true;
  }
  Res.CpuSeconds = RU.ru_utime.tv_sec + RU.ru_utime.tv_usec / 1e6 +
                   RU.ru_stime.tv_sec + RU.ru_stime.tv_usec / 1e6;

  if (TimedOut) {
    Res.Output = failure("timed out after " + std::to_string(Opts.TimeoutSeconds) +
                         " s (--pass-timeout) and was killed");
    return Res;
  }
  Expected<PassOutput> Out = decodePassOutput(Bytes);
  if (WIFSIGNALED(Status)) {
    // A result sent before the crash (a thread of the pass died after it
    // returned) is kept, like the findings of a pass that returns an error.
    Res.Output = Out ? std::move(*Out) : PassOutput();
    if (!Out)
      consumeError(Out.takeError());
    Res.Output.Failed = true;
    Res.Output.Message = "killed by signal " + describeSignal(WTERMSIG(Status));
    return Res;
  }
  int Code = WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
  if (!Out) {
    std::string Why = toString(Out.takeError());
    Res.Output = failure(
        Bytes.empty() || Code != 0
            ? "exited with status " + std::to_string(Code) +
                  " before returning its results"
            : "returned a malformed result: " + Why);
    return Res;
  }
  Res.Output = std::move(*Out);
  if (Code != 0) {
    Res.Output.Failed = true;
    Res.Output.Message = "exited with status " + std::to_string(Code) +
                         " after returning its results";
  }
  return Res;
}

} // namespace tl
