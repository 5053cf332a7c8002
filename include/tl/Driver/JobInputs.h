//===- JobInputs.h - The traces of a multi-rank job ------------*- C++ -*-===//
//
// A job is one directory of traces (its *.json and *.json.gz, not
// recursive) or several trace files, one file per rank (issue 23,
// docs/Distributed.md). This finds them and where the job report goes
// when no -o is given.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_JOBINPUTS_H
#define TL_DRIVER_JOBINPUTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tl {

struct JobInputs {
  /// Job order: a directory's traces sorted by name, files as given.
  std::vector<std::string> Traces;
  /// The directory given ("" for a list of files).
  std::string Directory;
  /// The report directory without -o: the single-trace default of the
  /// job's traces, <dir>/analysis_output (for files: the first file's).
  std::string DefaultOutDir;
};

/// True when the command line's traces make a job: several of them, or a
/// directory.
bool isJob(llvm::ArrayRef<std::string> Args);

/// The job's traces. Errors (one line, naming the path): a missing file, a
/// directory given with other paths, a directory without traces.
llvm::Expected<JobInputs> collectJobInputs(llvm::ArrayRef<std::string> Args);

} // namespace tl

#endif // TL_DRIVER_JOBINPUTS_H
