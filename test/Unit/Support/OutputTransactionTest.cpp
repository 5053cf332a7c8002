//===- OutputTransactionTest.cpp - A signal during the commit ------------===//
//
// The signal handler runs on whichever thread the signal reaches. Before
// the handler and the commit took the staging directory from each other
// with one atomic state, a SIGINT landing on a worker thread while the main
// thread committed let the handler go on deleting the new report after it
// had been swapped in (CI saw it as a report-kill-points.test failure: the
// directory was the new report with files missing).
//
//===----------------------------------------------------------------------===//
#include "tl/Support/OutputTransaction.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <csignal>
#include <dirent.h>
#include <string>
#include <thread>

using namespace llvm;
using namespace tl;

namespace {

void writeFile(const std::string &Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  ASSERT_FALSE(EC) << Path;
  OS << Text;
}

std::string readFile(const std::string &Path) {
  auto B = MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string("<missing>");
}

size_t countEntries(const std::string &Dir) {
  size_t N = 0;
  if (DIR *D = ::opendir(Dir.c_str())) {
    while (::readdir(D))
      ++N;
    ::closedir(D);
  }
  return N;
}

TEST(OutputTransactionTest, SignalCleanupOnAnotherThreadStopsTheCommit) {
  // The handler re-raises with the disposition it found: ignored, so the
  // test process survives and can look at the directory afterwards.
  struct sigaction Ign {}, Saved {};
  Ign.sa_handler = SIG_IGN;
  sigaction(SIGINT, &Ign, &Saved);

  SmallString<128> Root;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("tl-otx", Root));
  std::string Out = (Root + "/out").str();
  OutputTransactionOptions Opts;
  Opts.CleanUpOnSignal = true;

  {
    auto T = OutputTransaction::begin(Out, Opts);
    ASSERT_TRUE(bool(T)) << toString(T.takeError());
    writeFile((*T)->stagingDir().str() + "/a.txt", "old");
    ASSERT_FALSE(bool((*T)->commit()));
  }
  ASSERT_EQ(readFile(Out + "/a.txt"), "old");

  auto T = OutputTransaction::begin(Out, Opts);
  ASSERT_TRUE(bool(T)) << toString(T.takeError());
  std::string Staging = (*T)->stagingDir().str();
  writeFile(Staging + "/a.txt", "new");
  // Enough files that the handler's removal takes a while: the commit
  // below starts while it runs.
  std::string Sub = Staging + "/many";
  ASSERT_FALSE(sys::fs::create_directory(Sub));
  constexpr int NumFiles = 20000;
  for (int I = 0; I < NumFiles; ++I)
    writeFile(Sub + "/f" + std::to_string(I), "x");

  std::thread Worker([] { ::raise(SIGINT); });
  // Wait until the removal has begun (or is over) before committing.
  while (countEntries(Sub) >= NumFiles + 2 && sys::fs::exists(Sub))
    std::this_thread::yield();
  Error E = (*T)->commit();
  Worker.join();

  ASSERT_TRUE(bool(E)) << "the commit went ahead during the cleanup";
  std::string Msg = toString(std::move(E));
  EXPECT_NE(Msg.find("interrupted by a signal"), std::string::npos) << Msg;
  EXPECT_EQ(readFile(Out + "/a.txt"), "old");
  EXPECT_FALSE(sys::fs::exists(Out + "/many"));
  EXPECT_FALSE(sys::fs::exists(Staging));

  T->reset();
  sigaction(SIGINT, &Saved, nullptr);
  sys::fs::remove_directories(Root);
}

} // namespace
