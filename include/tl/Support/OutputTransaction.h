//===- OutputTransaction.h - A report directory that changes at once -*- C++ -*-===//
//
// A run writes its whole report into a staging directory and commits it at
// the end, so the output directory holds the old report or the new one,
// never a mix, whatever signal, full disk or crash stops the run
// (docs/Robustness.md, "Output safety"):
//
//  * begin() takes a lock beside the directory (`<parent>/.<name>.tl-lock`,
//    flock; a second run fails at once or waits), removes what killed runs
//    left (`.<name>.tl-staging-*` siblings), reads the manifest of the
//    previous report (`<dir>/.tl-manifest`: every file tl wrote there) and
//    makes the staging directory.
//  * commit(), when the directory is missing or holds only files of the
//    manifest: swaps the staging directory in with one
//    renameat2(RENAME_EXCHANGE) and removes the old tree (the manifest's
//    files, then the directories they leave empty). When it holds anything
//    else (a user's files, `-o .`), files are renamed into place one by one
//    and only the previous manifest's files this run did not write are
//    removed. Nothing is written or deleted through a symbolic link.
//  * Without commit() (an error, an exception) the destructor removes the
//    staging directory; SIGINT, SIGTERM and SIGHUP do too, from a handler
//    that uses only system calls.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_OUTPUTTRANSACTION_H
#define TL_SUPPORT_OUTPUTTRANSACTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// The manifest's name inside a report directory.
constexpr llvm::StringLiteral ReportManifestName = ".tl-manifest";

struct OutputTransactionOptions {
  /// Wait for another run's lock instead of failing at once.
  bool WaitForLock = false;
  /// Prefix of the lock error ("tl-opt").
  std::string ToolName = "tl-opt";
  /// Remove the staging directory on SIGINT, SIGTERM and SIGHUP, then die
  /// of the signal (tools; a host with its own handlers, such as Python,
  /// keeps them).
  bool CleanUpOnSignal = false;
};

class OutputTransaction {
public:
  /// Lock Dir, clear killed runs' leftovers and make the staging directory
  /// (Dir's parents are created; Dir itself only at commit).
  static llvm::Expected<std::unique_ptr<OutputTransaction>>
  begin(llvm::StringRef Dir, const OutputTransactionOptions &Opts = {});
  ~OutputTransaction();
  OutputTransaction(const OutputTransaction &) = delete;
  OutputTransaction &operator=(const OutputTransaction &) = delete;

  /// The report directory as given (for messages and relative paths).
  llvm::StringRef dir() const { return Dir; }
  /// Where the report is written until commit() (absolute).
  llvm::StringRef stagingDir() const { return Staging; }
  /// Path where a file meant for Path is written: inside stagingDir() when
  /// Path lies inside dir(), else Path itself.
  std::string staged(llvm::StringRef Path) const;
  /// Msg with the staging directory named as dir() (errors of writers).
  std::string unstaged(llvm::StringRef Msg) const;
  /// Entries of dir() tl did not write, relative ('/'), found by begin():
  /// they are kept, and make commit() go file by file.
  llvm::ArrayRef<std::string> foreignEntries() const { return Foreign; }
  /// The commit swaps the whole directory (else: file by file).
  bool swapsWhole() const { return Swap; }

  /// Move the staged report into dir(). Errors leave the old report (a file
  /// by file commit: the files not yet renamed) and name the path.
  llvm::Error commit();
  /// Problems after the new report was in place (an old file that could
  /// not be removed), one line each.
  llvm::ArrayRef<std::string> warnings() const { return Warnings; }

  /// Relative paths of the regular files under Root ('/', sorted), without
  /// the manifest and tl's hidden working entries at the top.
  static std::vector<std::string> listFiles(llvm::StringRef Root);
  /// The manifest of the report in Dir (relative paths; unsafe lines
  /// dropped); nullopt when Dir has none.
  static std::optional<std::vector<std::string>>
  readManifest(llvm::StringRef Dir);

private:
  OutputTransaction() = default;
  llvm::Error commitWhole(llvm::ArrayRef<std::string> Files);
  llvm::Error commitFileByFile(llvm::ArrayRef<std::string> Files);
  void abort();

  std::string Dir;       // as given
  std::string AbsLexical; // Dir made absolute, not resolved
  std::string Abs;       // absolute
  std::string Parent;    // absolute parent of Abs
  std::string Name;      // file name of Abs
  std::string Staging;   // absolute
  std::string LockPath;
  int LockFd = -1;
  bool Armed = false;
  bool Swap = false;
  bool Done = false;
  std::vector<std::string> OldManifest;
  std::vector<std::string> Foreign;
  std::vector<std::string> Warnings;
};

} // namespace tl

#endif // TL_SUPPORT_OUTPUTTRANSACTION_H
