//===- OutputTransaction.cpp - A report directory that changes at once ----===//
//
// Every walk is iterative (a stack of relative paths) and opens each path
// component with O_NOFOLLOW, so a symbolic link planted inside the report
// directory is never written or deleted through. The signal handler's
// removal uses system calls only (async-signal-safe) and bounded depth.
//
//===----------------------------------------------------------------------===//
#include "tl/Support/OutputTransaction.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

using namespace llvm;

namespace tl {

static Error error(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}
static Error errnoError(const Twine &What, int E) {
  return error(What + ": " + std::strerror(E));
}

static constexpr StringLiteral LockName = ".tl-lock";
static constexpr StringLiteral InnerStagingPrefix = ".tl-staging-";
static constexpr StringLiteral ManifestTmpPrefix = ".tl-manifest.tmp-";
static constexpr StringLiteral ManifestHeader =
    "# tl-opt report manifest: the files tl-opt wrote into this directory, "
    "one per line; the next run into it removes them\n";

//===----------------------------------------------------------------------===//
// Removing the staging directory on a signal (system calls only)
//===----------------------------------------------------------------------===//

namespace {
// Plain data, zero-initialized: no static constructors.
char SigStaging[PATH_MAX];
// The handler runs on whichever thread the signal reaches, while the main
// thread may be committing: whoever moves the state out of Armed first
// owns the staging directory. Cleaning a staging directory that a commit
// is renaming into place would leave the new report with files missing.
enum SigStateKind : int { SigIdle, SigArmed, SigCleaning, SigCleaned,
                          SigCommitting };
std::atomic<int> SigState{SigIdle};
static_assert(std::atomic<int>::is_always_lock_free,
              "the signal handler needs a lock-free state");
struct sigaction PrevInt, PrevTerm, PrevHup;
bool HandlersInstalled = false;
std::mutex HandlerMutex;

struct LinuxDirent64 {
  uint64_t Ino;
  int64_t Off;
  unsigned short RecLen;
  unsigned char Type;
  char Name[1];
};

/// Remove everything below the open directory Fd, Depth levels at most.
void removeContentsSignalSafe(int Fd, unsigned Depth) {
  alignas(8) char Buf[1024];
  // A few passes: files another thread creates meanwhile go too.
  for (int Pass = 0; Pass < 3; ++Pass) {
    bool Any = false;
    lseek(Fd, 0, SEEK_SET);
    for (;;) {
      long N = syscall(SYS_getdents64, Fd, Buf, sizeof(Buf));
      if (N <= 0)
        break;
      for (long Off = 0; Off < N;) {
        auto *D = reinterpret_cast<LinuxDirent64 *>(Buf + Off);
        Off += D->RecLen;
        const char *Name = D->Name;
        if (Name[0] == '.' &&
            (Name[1] == 0 || (Name[1] == '.' && Name[2] == 0)))
          continue;
        Any = true;
        unsigned char T = D->Type;
        if (T == DT_UNKNOWN) {
          struct stat St;
          if (fstatat(Fd, Name, &St, AT_SYMLINK_NOFOLLOW) == 0 &&
              S_ISDIR(St.st_mode))
            T = DT_DIR;
        }
        if (T == DT_DIR && Depth > 0) {
          int Sub = openat(Fd, Name,
                           O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (Sub >= 0) {
            removeContentsSignalSafe(Sub, Depth - 1);
            close(Sub);
          }
          unlinkat(Fd, Name, AT_REMOVEDIR);
        } else {
          unlinkat(Fd, Name, 0);
        }
      }
    }
    if (!Any)
      break;
  }
}

void onSignal(int Sig) {
  int SavedErrno = errno;
  int Was = SigArmed;
  if (SigState.compare_exchange_strong(Was, SigCleaning)) {
    int Fd = open(SigStaging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (Fd >= 0) {
      removeContentsSignalSafe(Fd, 16);
      close(Fd);
      rmdir(SigStaging);
    }
    SigState.store(SigCleaned);
  }
  // Then whatever was there before (LLVM's handler, or the default) gets
  // the signal: the process dies of it.
  struct sigaction *Prev = Sig == SIGINT    ? &PrevInt
                           : Sig == SIGTERM ? &PrevTerm
                                            : &PrevHup;
  sigaction(Sig, Prev, nullptr);
  raise(Sig);
  errno = SavedErrno;
}

/// False when another transaction holds the handler (one at a time;
/// leftovers go at the next run).
bool armSignalCleanup(StringRef Staging) {
  std::lock_guard<std::mutex> G(HandlerMutex);
  if (SigState.load() != SigIdle || Staging.size() >= sizeof(SigStaging))
    return false;
  memcpy(SigStaging, Staging.data(), Staging.size());
  SigStaging[Staging.size()] = 0;
  if (!HandlersInstalled) {
    struct sigaction SA;
    memset(&SA, 0, sizeof(SA));
    SA.sa_handler = onSignal;
    sigemptyset(&SA.sa_mask);
    SA.sa_flags = SA_RESTART;
    sigaction(SIGINT, &SA, &PrevInt);
    sigaction(SIGTERM, &SA, &PrevTerm);
    sigaction(SIGHUP, &SA, &PrevHup);
    HandlersInstalled = true;
  }
  SigState.store(SigArmed);
  return true;
}

/// Takes the staging directory from the handler before a commit moves
/// it. False when a signal's cleanup has begun: the staging directory is
/// (being) removed and the commit must not happen; returns once the
/// handler is done with it.
bool claimFromSignalCleanup() {
  int Was = SigArmed;
  if (SigState.compare_exchange_strong(Was, SigCommitting))
    return true;
  while (SigState.load() == SigCleaning)
    ::usleep(1000);
  return false;
}

void disarmSignalCleanup() {
  std::lock_guard<std::mutex> G(HandlerMutex);
  SigState.store(SigIdle);
}

//===----------------------------------------------------------------------===//
// File-system helpers: descriptors, no following of links
//===----------------------------------------------------------------------===//

/// Closes on scope exit.
struct Fd {
  int V = -1;
  Fd() = default;
  explicit Fd(int V) : V(V) {}
  Fd(Fd &&O) : V(O.V) { O.V = -1; }
  Fd &operator=(Fd &&O) {
    if (this != &O) {
      reset();
      V = O.V;
      O.V = -1;
    }
    return *this;
  }
  ~Fd() { reset(); }
  void reset() {
    if (V >= 0)
      ::close(V);
    V = -1;
  }
  explicit operator bool() const { return V >= 0; }
};

int openDirAt(int At, const char *Name) {
  return ::openat(At, Name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

struct DirEntry {
  std::string Name;
  enum Kind { File, Dir, Other } K = Other;
};

/// The entries of the open directory DirFd (without . and ..).
std::vector<DirEntry> listDir(int DirFd) {
  std::vector<DirEntry> Out;
  int Dup = ::dup(DirFd);
  if (Dup < 0)
    return Out;
  DIR *D = ::fdopendir(Dup);
  if (!D) {
    ::close(Dup);
    return Out;
  }
  ::rewinddir(D);
  while (struct dirent *E = ::readdir(D)) {
    StringRef N = E->d_name;
    if (N == "." || N == "..")
      continue;
    DirEntry DE;
    DE.Name = N.str();
    unsigned char T = E->d_type;
    if (T == DT_UNKNOWN) {
      struct stat St;
      if (::fstatat(DirFd, E->d_name, &St, AT_SYMLINK_NOFOLLOW) == 0)
        T = S_ISDIR(St.st_mode)   ? DT_DIR
            : S_ISREG(St.st_mode) ? DT_REG
                                  : DT_LNK;
    }
    DE.K = T == DT_DIR ? DirEntry::Dir
           : T == DT_REG ? DirEntry::File
                         : DirEntry::Other;
    Out.push_back(std::move(DE));
  }
  ::closedir(D);
  return Out;
}

/// Open the directory Rel ('/'-separated, "" = Root itself) below RootFd,
/// one component at a time without following links; with Create, missing
/// components are made. On failure returns -1 and sets Bad to the
/// component's path that is no directory (or errno's reason).
int openBelow(int RootFd, StringRef Rel, bool Create, std::string *Bad,
              int *Err, std::vector<std::string> *Made = nullptr) {
  Fd Cur(::dup(RootFd));
  if (!Cur) {
    *Err = errno;
    return -1;
  }
  if (Rel.empty())
    return std::exchange(Cur.V, -1);
  SmallVector<StringRef, 8> Parts;
  Rel.split(Parts, '/', -1, /*KeepEmpty=*/false);
  std::string Path;
  for (StringRef P : Parts) {
    Path += (Path.empty() ? "" : "/") + P.str();
    std::string C = P.str();
    int N = openDirAt(Cur.V, C.c_str());
    if (N < 0 && errno == ENOENT && Create) {
      if (::mkdirat(Cur.V, C.c_str(), 0777) == 0 || errno == EEXIST) {
        if (Made)
          Made->push_back(Path);
        N = openDirAt(Cur.V, C.c_str());
      }
    }
    if (N < 0) {
      *Err = errno;
      if (Bad)
        *Bad = Path;
      return -1;
    }
    Cur = Fd(N);
  }
  return std::exchange(Cur.V, -1);
}

/// Remove everything below Root and Root itself (nothing is followed).
/// Iterative: a stack of relative paths, each directory removed after its
/// contents.
void removeTree(StringRef Root) {
  Fd RootFd(::open(Root.str().c_str(),
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!RootFd) {
    ::unlink(Root.str().c_str()); // a file or a link: itself only
    return;
  }
  std::vector<std::pair<std::string, bool>> Stack{{"", false}};
  while (!Stack.empty()) {
    auto [Rel, Listed] = Stack.back();
    Stack.pop_back();
    if (Listed) {
      if (!Rel.empty()) {
        StringRef Parent = sys::path::parent_path(Rel, sys::path::Style::posix);
        int E = 0;
        Fd P(openBelow(RootFd.V, Parent, false, nullptr, &E));
        if (P)
          ::unlinkat(P.V, sys::path::filename(Rel, sys::path::Style::posix)
                              .str()
                              .c_str(),
                     AT_REMOVEDIR);
      }
      continue;
    }
    int E = 0;
    Fd D(openBelow(RootFd.V, Rel, false, nullptr, &E));
    if (!D)
      continue;
    Stack.push_back({Rel, true});
    for (const DirEntry &DE : listDir(D.V)) {
      if (DE.K == DirEntry::Dir)
        Stack.push_back({Rel.empty() ? DE.Name : Rel + "/" + DE.Name, false});
      else
        ::unlinkat(D.V, DE.Name.c_str(), 0);
    }
  }
  RootFd.reset();
  ::rmdir(Root.str().c_str());
}

/// A new directory Prefix + 6 random characters (mode 0777 less the umask).
Expected<std::string> makeUniqueDir(StringRef Prefix) {
  static const char Chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int Try = 0; Try < 100; ++Try) {
    std::string P = Prefix.str();
    for (int I = 0; I < 6; ++I)
      P += Chars[sys::Process::GetRandomNumber() % (sizeof(Chars) - 1)];
    if (::mkdir(P.c_str(), 0777) == 0)
      return P;
    if (errno != EEXIST)
      return errnoError(P, errno);
  }
  return error(Prefix + "XXXXXX: cannot create a unique directory");
}

/// Relative, '/'-separated, no empty, '.' or '..' component, no control
/// characters: what a manifest line may name.
bool isSafeManifestPath(StringRef P) {
  if (P.empty() || P.starts_with("/"))
    return false;
  for (char C : P)
    if (static_cast<unsigned char>(C) < 0x20 || C == 0x7f)
      return false;
  SmallVector<StringRef, 8> Parts;
  P.split(Parts, '/');
  for (StringRef C : Parts)
    if (C.empty() || C == "." || C == "..")
      return false;
  return true;
}

/// tl's own working entries at the top of a report directory.
bool isWorkingEntry(StringRef Name) {
  return Name == ReportManifestName || Name == LockName ||
         Name.starts_with(InnerStagingPrefix) ||
         Name.starts_with(ManifestTmpPrefix);
}

std::string manifestText(ArrayRef<std::string> Files) {
  std::string S = ManifestHeader.str();
  for (const std::string &F : Files)
    S += F + "\n";
  return S;
}

/// Write Text to DirFd/Name through a temporary renamed into place.
Error writeFileAt(int DirFd, StringRef Name, StringRef Text,
                  StringRef ShownDir) {
  std::string Tmp = (ManifestTmpPrefix +
                     Twine(sys::Process::GetRandomNumber()))
                        .str();
  Fd F(::openat(DirFd, Tmp.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666));
  std::string Shown = (ShownDir + "/" + Name).str();
  if (!F)
    return errnoError("cannot write '" + Shown + "'", errno);
  const char *P = Text.data();
  size_t Left = Text.size();
  while (Left) {
    ssize_t W = ::write(F.V, P, Left);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0) {
      int E = W < 0 ? errno : ENOSPC;
      ::unlinkat(DirFd, Tmp.c_str(), 0);
      return errnoError("cannot write '" + Shown + "'", E);
    }
    P += W;
    Left -= W;
  }
  F.reset();
  if (::renameat(DirFd, Tmp.c_str(), DirFd, Name.str().c_str()) != 0) {
    int E = errno;
    ::unlinkat(DirFd, Tmp.c_str(), 0);
    return errnoError("cannot rename to '" + Shown + "'", E);
  }
  return Error::success();
}

std::vector<std::string> sortedUnion(ArrayRef<std::string> A,
                                     ArrayRef<std::string> B) {
  std::vector<std::string> U(A.begin(), A.end());
  U.insert(U.end(), B.begin(), B.end());
  llvm::sort(U);
  U.erase(std::unique(U.begin(), U.end()), U.end());
  return U;
}

/// Entries below Root that are not the manifest's files: regular files not
/// listed, links and other non-files, directories that are empty and hold
/// no listed file. Relative paths, sorted.
std::vector<std::string> scanForeign(StringRef Root,
                                     ArrayRef<std::string> Manifest) {
  std::vector<std::string> Out;
  Fd RootFd(::open(Root.str().c_str(),
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!RootFd)
    return Out;
  StringSet<> Listed, Ancestors;
  for (const std::string &F : Manifest) {
    Listed.insert(F);
    StringRef P = F;
    while (!(P = sys::path::parent_path(P, sys::path::Style::posix)).empty())
      Ancestors.insert(P);
  }
  std::vector<std::string> Stack{""};
  while (!Stack.empty()) {
    std::string Rel = Stack.back();
    Stack.pop_back();
    int E = 0;
    Fd D(openBelow(RootFd.V, Rel, false, nullptr, &E));
    if (!D) {
      Out.push_back(Rel);
      continue;
    }
    std::vector<DirEntry> Entries = listDir(D.V);
    if (Entries.empty() && !Rel.empty() && !Ancestors.contains(Rel))
      Out.push_back(Rel);
    for (const DirEntry &DE : Entries) {
      if (Rel.empty() && isWorkingEntry(DE.Name))
        continue;
      std::string P = Rel.empty() ? DE.Name : Rel + "/" + DE.Name;
      if (DE.K == DirEntry::Dir)
        Stack.push_back(P);
      else if (DE.K != DirEntry::File || !Listed.contains(P))
        Out.push_back(P);
    }
  }
  llvm::sort(Out);
  return Out;
}

/// Remove Root's listed regular files, then the directories they leave
/// empty (deepest first), never Root itself; what cannot go stays.
void removeListed(int RootFd, ArrayRef<std::string> Files) {
  StringSet<> Dirs;
  for (const std::string &F : Files) {
    StringRef Parent = sys::path::parent_path(F, sys::path::Style::posix);
    int E = 0;
    Fd P(openBelow(RootFd, Parent, false, nullptr, &E));
    if (!P)
      continue;
    std::string Base =
        sys::path::filename(F, sys::path::Style::posix).str();
    struct stat St;
    if (::fstatat(P.V, Base.c_str(), &St, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(St.st_mode))
      ::unlinkat(P.V, Base.c_str(), 0);
    for (StringRef Q = Parent; !Q.empty();
         Q = sys::path::parent_path(Q, sys::path::Style::posix))
      Dirs.insert(Q);
  }
  std::vector<std::string> Sorted;
  for (const auto &D : Dirs)
    Sorted.push_back(D.getKey().str());
  // Deepest first: more separators first.
  llvm::sort(Sorted, [](const std::string &A, const std::string &B) {
    size_t CA = count(A, '/'), CB = count(B, '/');
    return CA != CB ? CA > CB : A > B;
  });
  for (const std::string &D : Sorted) {
    StringRef Parent = sys::path::parent_path(D, sys::path::Style::posix);
    int E = 0;
    Fd P(openBelow(RootFd, Parent, false, nullptr, &E));
    if (P)
      ::unlinkat(P.V,
                 sys::path::filename(D, sys::path::Style::posix).str().c_str(),
                 AT_REMOVEDIR); // fails, harmlessly, when not empty
  }
}

/// Take the lock file at Path: 0 with the descriptor in Out, EWOULDBLOCK
/// when another run holds it (and !Wait), else errno.
int takeLock(const std::string &Path, bool Wait, int &Out) {
  for (;;) {
    int F = ::open(Path.c_str(),
                   O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (F < 0)
      return errno;
    if (::flock(F, LOCK_EX | (Wait ? 0 : LOCK_NB)) != 0) {
      int E = errno;
      ::close(F);
      if (E == EINTR)
        continue;
      return E;
    }
    // The holder before us unlinks the file before it unlocks: a lock on a
    // file no longer at Path is no lock; take the new one.
    struct stat A, B;
    if (::fstat(F, &A) == 0 && ::stat(Path.c_str(), &B) == 0 &&
        A.st_ino == B.st_ino && A.st_dev == B.st_dev) {
      Out = F;
      return 0;
    }
    ::close(F);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// OutputTransaction
//===----------------------------------------------------------------------===//

std::vector<std::string> OutputTransaction::listFiles(StringRef Root) {
  std::vector<std::string> Out;
  Fd RootFd(::open(Root.str().c_str(),
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!RootFd)
    return Out;
  std::vector<std::string> Stack{""};
  while (!Stack.empty()) {
    std::string Rel = Stack.back();
    Stack.pop_back();
    int E = 0;
    Fd D(openBelow(RootFd.V, Rel, false, nullptr, &E));
    if (!D)
      continue;
    for (const DirEntry &DE : listDir(D.V)) {
      if (Rel.empty() && isWorkingEntry(DE.Name))
        continue;
      std::string P = Rel.empty() ? DE.Name : Rel + "/" + DE.Name;
      if (DE.K == DirEntry::Dir)
        Stack.push_back(P);
      else if (DE.K == DirEntry::File && isSafeManifestPath(P))
        Out.push_back(P);
    }
  }
  llvm::sort(Out);
  return Out;
}

std::optional<std::vector<std::string>>
OutputTransaction::readManifest(StringRef Dir) {
  SmallString<256> P(Dir);
  sys::path::append(P, ReportManifestName);
  Fd F(::open(P.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!F)
    return std::nullopt;
  struct stat St;
  if (::fstat(F.V, &St) != 0 || !S_ISREG(St.st_mode))
    return std::nullopt;
  std::string Text;
  char Buf[65536];
  for (;;) {
    ssize_t N = ::read(F.V, Buf, sizeof(Buf));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Text.append(Buf, N);
    if (Text.size() > (64u << 20))
      break; // no manifest tl writes is near this
  }
  std::vector<std::string> Out;
  SmallVector<StringRef, 0> Lines;
  StringRef(Text).split(Lines, '\n');
  for (StringRef L : Lines)
    if (!L.starts_with("#") && isSafeManifestPath(L))
      Out.push_back(L.str());
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

Expected<std::unique_ptr<OutputTransaction>>
OutputTransaction::begin(StringRef Dir, const OutputTransactionOptions &Opts) {
  std::unique_ptr<OutputTransaction> T(new OutputTransaction());
  T->Dir = Dir.str();
  SmallString<256> Lex(Dir);
  sys::fs::make_absolute(Lex);
  sys::path::remove_dots(Lex, /*remove_dot_dot=*/true);
  T->AbsLexical = std::string(Lex);
  // The directory as the file system names it (a link given as -o is the
  // user's choice: its target is the report directory).
  struct stat St;
  bool Exists = ::lstat(T->AbsLexical.c_str(), &St) == 0;
  if (Exists && !S_ISDIR(St.st_mode) && !S_ISLNK(St.st_mode))
    return error(Dir + ": exists and is not a directory");
  SmallString<256> Real;
  if (Exists) {
    if (std::error_code EC = sys::fs::real_path(T->AbsLexical, Real))
      return error(Dir + ": " + EC.message());
    if (!sys::fs::is_directory(Real))
      return error(Dir + ": exists and is not a directory");
  } else {
    StringRef ParentLex = sys::path::parent_path(T->AbsLexical);
    std::error_code EC = sys::fs::create_directories(ParentLex);
    if (!EC && !sys::fs::is_directory(ParentLex))
      EC = std::make_error_code(std::errc::not_a_directory);
    if (EC)
      return error(Dir + ": cannot create output directory: " +
                   EC.message());
    if (std::error_code EC = sys::fs::real_path(ParentLex, Real))
      return error(Dir + ": " + EC.message());
    sys::path::append(Real, sys::path::filename(T->AbsLexical));
  }
  T->Abs = std::string(Real);
  T->Parent = sys::path::parent_path(T->Abs).str();
  T->Name = sys::path::filename(T->Abs).str();
  bool Root = T->Parent.empty() || T->Name.empty() || T->Abs == "/";

  // The lock: beside the directory, or inside it when the parent cannot be
  // written (the directory is then never swapped, so the file stays).
  bool LockInside = Root;
  int E = EACCES;
  if (!Root) {
    T->LockPath = T->Parent + "/." + T->Name + ".tl-lock";
    E = takeLock(T->LockPath, Opts.WaitForLock, T->LockFd);
    if (E == EACCES || E == EROFS || E == EPERM)
      LockInside = true;
  }
  if (LockInside) {
    if (::mkdir(T->Abs.c_str(), 0777) != 0 && errno != EEXIST)
      return errnoError(Dir + ": cannot create directory", errno);
    T->LockPath = T->Abs + "/" + LockName.str();
    E = takeLock(T->LockPath, Opts.WaitForLock, T->LockFd);
  }
  if (E == EWOULDBLOCK)
    return error(Dir + ": another " + Opts.ToolName +
                 " run is writing this report (lock " + T->LockPath + ")");
  if (E)
    return errnoError(Dir + ": cannot take the lock " + T->LockPath, E);

  // What killed runs left: their staging directories, a half-done fallback
  // swap (the old report set aside: put back), manifest temporaries.
  std::string StagingPrefix = "." + T->Name + ".tl-staging-";
  std::string OldPrefix = "." + T->Name + ".tl-old-";
  if (!Root) {
    Fd P(::open(T->Parent.c_str(),
                O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (P)
      for (const DirEntry &DE : listDir(P.V)) {
        std::string Full = T->Parent + "/" + DE.Name;
        if (StringRef(DE.Name).starts_with(StagingPrefix))
          removeTree(Full);
        else if (StringRef(DE.Name).starts_with(OldPrefix)) {
          if (::lstat(T->Abs.c_str(), &St) != 0 &&
              ::rename(Full.c_str(), T->Abs.c_str()) == 0)
            continue;
          removeTree(Full);
        }
      }
  }
  Exists = ::lstat(T->Abs.c_str(), &St) == 0;
  bool MountPoint = false;
  if (Exists) {
    Fd D(::open(T->Abs.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                    O_CLOEXEC));
    if (D)
      for (const DirEntry &DE : listDir(D.V)) {
        if (StringRef(DE.Name).starts_with(InnerStagingPrefix))
          removeTree(T->Abs + "/" + DE.Name);
        else if (StringRef(DE.Name).starts_with(ManifestTmpPrefix))
          ::unlinkat(D.V, DE.Name.c_str(), 0);
      }
    if (auto M = readManifest(T->Abs))
      T->OldManifest = std::move(*M);
    T->Foreign = scanForeign(T->Abs, T->OldManifest);
    struct stat PS;
    MountPoint = !Root && ::stat(T->Parent.c_str(), &PS) == 0 &&
                 PS.st_dev != St.st_dev;
  }

  T->Swap = !LockInside && !MountPoint && T->Foreign.empty();
  Expected<std::string> S =
      makeUniqueDir(T->Swap ? T->Parent + "/" + StagingPrefix
                            : T->Abs + "/" + InnerStagingPrefix.str());
  if (!S)
    return error(Dir + ": cannot create the staging directory: " +
                 toString(S.takeError()));
  T->Staging = std::move(*S);
  // The new directory keeps the old one's permissions.
  if (T->Swap && Exists)
    ::chmod(T->Staging.c_str(), St.st_mode & 07777);
  if (Opts.CleanUpOnSignal) {
    T->Armed = armSignalCleanup(T->Staging);
  }
  return T;
}

OutputTransaction::~OutputTransaction() {
  if (!Done)
    abort();
  if (LockFd >= 0) {
    // Unlinked before unlocked: a waiter then sees its file is gone.
    ::unlink(LockPath.c_str());
    ::close(LockFd);
  }
}

void OutputTransaction::abort() {
  if (Armed)
    disarmSignalCleanup();
  Armed = false;
  if (!Staging.empty())
    removeTree(Staging);
  Done = true;
}

std::string OutputTransaction::staged(StringRef Path) const {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  StringRef S = P;
  if (!S.consume_front(AbsLexical) || !S.starts_with("/"))
    return Path.str();
  return Staging + S.str();
}

std::string OutputTransaction::unstaged(StringRef Msg) const {
  std::string Out;
  StringRef Rest = Msg;
  for (size_t P; (P = Rest.find(Staging)) != StringRef::npos;) {
    Out += Rest.take_front(P).str() + Dir;
    Rest = Rest.drop_front(P + Staging.size());
  }
  return Out + Rest.str();
}

Error OutputTransaction::commit() {
  assert(!Done && "commit() runs once");
  if (Armed && !claimFromSignalCleanup()) {
    // A signal arrived and its handler removed the staging directory;
    // the earlier report was not touched.
    disarmSignalCleanup();
    Armed = false;
    Staging.clear();
    Done = true;
    return error(Dir + ": interrupted by a signal; the earlier report is "
                       "unchanged");
  }
  std::vector<std::string> Files = listFiles(Staging);
  Error E = Swap ? commitWhole(Files) : commitFileByFile(Files);
  if (E) {
    abort();
    return E;
  }
  if (Armed)
    disarmSignalCleanup();
  Armed = false;
  Done = true;
  return Error::success();
}

Error OutputTransaction::commitWhole(ArrayRef<std::string> Files) {
  {
    Fd S(::open(Staging.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                     O_CLOEXEC));
    if (!S)
      return errnoError(Dir + ": staging directory " + Staging, errno);
    if (Error E = writeFileAt(S.V, ReportManifestName, manifestText(Files),
                              Dir))
      return E;
  }
  struct stat St;
  if (::lstat(Abs.c_str(), &St) != 0) {
    if (::rename(Staging.c_str(), Abs.c_str()) != 0)
      return errnoError("cannot move the report into '" + Dir + "'", errno);
    Staging.clear();
    return Error::success();
  }
  // A user's file may have arrived since begin(): then file by file.
  if (!scanForeign(Abs, OldManifest).empty()) {
    Swap = false;
    return commitFileByFile(Files);
  }
  std::string OldTree;
  if (::renameat2(AT_FDCWD, Staging.c_str(), AT_FDCWD, Abs.c_str(),
                  RENAME_EXCHANGE) == 0) {
    OldTree = Staging;
  } else if (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP) {
    // No exchange on this file system: set the old report aside, move the
    // new one in (a killed run in between: the next begin() puts the old
    // one back).
    Expected<std::string> Old =
        makeUniqueDir(Parent + "/." + Name + ".tl-old-");
    if (!Old)
      return error(Dir + ": " + toString(Old.takeError()));
    if (::rename(Abs.c_str(), Old->c_str()) != 0) {
      int Err = errno;
      ::rmdir(Old->c_str());
      return errnoError("cannot move the old report out of '" + Dir + "'",
                        Err);
    }
    if (::rename(Staging.c_str(), Abs.c_str()) != 0) {
      int Err = errno;
      ::rename(Old->c_str(), Abs.c_str());
      return errnoError("cannot move the report into '" + Dir + "'", Err);
    }
    OldTree = *Old;
  } else {
    return errnoError("cannot move the report into '" + Dir + "'", errno);
  }
  Staging.clear();
  if (Armed)
    disarmSignalCleanup();
  Armed = false;
  // The old report: its manifest's files, then the directories they leave.
  Fd O(::open(OldTree.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                   O_CLOEXEC));
  if (O) {
    std::vector<std::string> Old = readManifest(OldTree).value_or(
        std::vector<std::string>());
    removeListed(O.V, Old);
    ::unlinkat(O.V, ReportManifestName.data(), 0);
  }
  O.reset();
  if (::rmdir(OldTree.c_str()) != 0) {
    Expected<std::string> Kept =
        makeUniqueDir(Parent + "/." + Name + ".tl-kept-");
    if (Kept && ::rename(OldTree.c_str(), Kept->c_str()) == 0)
      Warnings.push_back(Dir + ": files not written by tl-opt appeared in "
                               "it during the run: kept in " + *Kept);
    else {
      if (!Kept)
        consumeError(Kept.takeError());
      Warnings.push_back(Dir + ": the old report could not be removed: " +
                         OldTree);
    }
  }
  return Error::success();
}

Error OutputTransaction::commitFileByFile(ArrayRef<std::string> Files) {
  if (::mkdir(Abs.c_str(), 0777) != 0 && errno != EEXIST)
    return errnoError("cannot create directory '" + Dir + "'", errno);
  Fd AbsFd(::open(Abs.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  Fd StFd(::open(Staging.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                      O_CLOEXEC));
  if (!AbsFd)
    return errnoError("cannot open '" + Dir + "'", errno);
  if (!StFd)
    return errnoError(Dir + ": staging directory " + Staging, errno);
  // Every target directory first (made where missing, never through a
  // link), so a refusal comes before any file of the report moves.
  std::map<std::string, Fd> Targets;
  std::vector<std::string> Made;
  auto Undo = [&] {
    Targets.clear();
    for (auto It = Made.rbegin(); It != Made.rend(); ++It)
      ::unlinkat(AbsFd.V, It->c_str(), AT_REMOVEDIR);
  };
  for (const std::string &F : Files) {
    std::string Parent =
        sys::path::parent_path(F, sys::path::Style::posix).str();
    if (!Targets.count(Parent)) {
      std::string Bad;
      int Err = 0;
      Fd D(openBelow(AbsFd.V, Parent, /*Create=*/true, &Bad, &Err, &Made));
      if (!D) {
        Undo();
        if (Err == ELOOP || Err == ENOTDIR)
          return error(Dir + "/" + Bad +
                       ": is a symbolic link or not a directory; tl-opt "
                       "writes no report file through it (remove it or "
                       "give another -o)");
        return errnoError("cannot create directory '" + Dir + "/" + Bad +
                              "'",
                          Err);
      }
      Targets[Parent] = std::move(D);
    }
    struct stat St;
    std::string Base = sys::path::filename(F, sys::path::Style::posix).str();
    if (::fstatat(Targets[Parent].V, Base.c_str(), &St,
                  AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISDIR(St.st_mode)) {
      Undo();
      return error(Dir + "/" + F + ": is a directory, not a report file");
    }
  }
  // The manifest names old and new files while both may be there, so a
  // kill midway leaves no file of tl's unlisted.
  if (Error E = writeFileAt(AbsFd.V, ReportManifestName,
                            manifestText(sortedUnion(OldManifest, Files)),
                            Dir)) {
    Undo();
    return E;
  }
  for (const std::string &F : Files) {
    std::string Parent =
        sys::path::parent_path(F, sys::path::Style::posix).str();
    std::string Base = sys::path::filename(F, sys::path::Style::posix).str();
    int E = 0;
    Fd From(openBelow(StFd.V, Parent, false, nullptr, &E));
    if (!From ||
        ::renameat(From.V, Base.c_str(), Targets[Parent].V, Base.c_str()) !=
            0)
      return errnoError("cannot move '" + Dir + "/" + F + "' into place",
                        From ? errno : E);
  }
  if (Error E = writeFileAt(AbsFd.V, ReportManifestName, manifestText(Files),
                            Dir))
    return E;
  // The previous run's files this one did not write.
  StringSet<> New;
  for (const std::string &F : Files)
    New.insert(F);
  std::vector<std::string> Stale;
  for (const std::string &F : OldManifest)
    if (!New.contains(F))
      Stale.push_back(F);
  removeListed(AbsFd.V, Stale);
  Targets.clear();
  removeTree(Staging);
  Staging.clear();
  return Error::success();
}

} // namespace tl
