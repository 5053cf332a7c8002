//===- JobInputs.cpp - The traces of a multi-rank job ---------------------===//
#include "tl/Driver/JobInputs.h"
#include "tl/Driver/Session.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tl {

static Error error(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

bool isJob(ArrayRef<std::string> Args) {
  return Args.size() > 1 ||
         (Args.size() == 1 && sys::fs::is_directory(Args.front()));
}

static bool isTraceName(StringRef Name) {
  return Name.ends_with(".json") || Name.ends_with(".json.gz");
}

Expected<JobInputs> collectJobInputs(ArrayRef<std::string> Args) {
  JobInputs In;
  if (Args.empty())
    return error("no trace given");
  if (Args.size() == 1 && sys::fs::is_directory(Args.front())) {
    In.Directory = Args.front();
    std::error_code EC;
    for (sys::fs::directory_iterator It(In.Directory, EC), End;
         It != End && !EC; It.increment(EC)) {
      StringRef Name = sys::path::filename(It->path());
      // Hidden files are editor and copy leftovers, not ranks.
      if (Name.starts_with(".") || !isTraceName(Name))
        continue;
      if (sys::fs::is_regular_file(It->path()))
        In.Traces.push_back(It->path());
    }
    if (EC)
      return error(In.Directory + ": cannot list the directory: " +
                   EC.message());
    if (In.Traces.empty())
      return error(In.Directory +
                   ": no trace files (*.json, *.json.gz) in the directory");
    // Directory order is the file system's; job order must not be.
    llvm::sort(In.Traces);
    SmallString<256> D(In.Directory);
    sys::path::append(D, "analysis_output");
    In.DefaultOutDir = std::string(D);
    return In;
  }
  for (const std::string &P : Args) {
    if (sys::fs::is_directory(P))
      return error(P + ": a job is one directory or several trace files, "
                       "not both");
    if (Error E = checkTraceFile(P))
      return E;
    In.Traces.push_back(P);
  }
  In.DefaultOutDir = defaultOutputDir(In.Traces.front());
  return In;
}

} // namespace tl
