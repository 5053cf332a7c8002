//===- PyAnalysis.cpp - One trace through a Session, report in memory -----===//
//
// The report is what tl-opt writes: the session's emitters write it into
// the output directory (a temporary one unless the caller names one) and
// the files are read back, so the Python objects hold exactly the numbers
// of findings.json and perf_report_csvs/.
//
//===----------------------------------------------------------------------===//
#include "PyAnalysis.h"

#include "tl/Driver/Session.h"
#include "tl/Driver/SessionOptions.h"
#include "tl/Support/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <climits>
#include <dlfcn.h>
#include <optional>

using namespace llvm;

namespace tl::python {

static Error error(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

template <typename T> constexpr SettingKind kindOf();
template <> constexpr SettingKind kindOf<bool>() { return SettingKind::Bool; }
template <> constexpr SettingKind kindOf<unsigned>() {
  return SettingKind::Unsigned;
}
template <> constexpr SettingKind kindOf<uint64_t>() {
  return SettingKind::UInt64;
}
template <> constexpr SettingKind kindOf<std::string>() {
  return SettingKind::String;
}
template <> constexpr SettingKind kindOf<SettingList>() {
  return SettingKind::List;
}

ArrayRef<SettingInfo> settingInfos() {
  static constexpr SettingInfo Infos[] = {
#define TL_SETTING(KEY, NAME, TYPE) {KEY, kindOf<TYPE>()},
#include "tl/Driver/Settings.def"
  };
  return Infos;
}

/// The value's alternative must be the slot's; the binding converted it.
template <typename T>
static Error assign(std::optional<T> &Slot, const SettingValue &V,
                    StringRef Key) {
  if constexpr (std::is_same_v<T, unsigned>) {
    const uint64_t *N = std::get_if<uint64_t>(&V);
    if (!N || *N > UINT_MAX)
      return error("setting '" + Key + "' takes an integer from 0 to " +
                   Twine(UINT_MAX));
    Slot = unsigned(*N);
  } else {
    const T *X = std::get_if<T>(&V);
    if (!X)
      return error("setting '" + Key + "' has the wrong type");
    Slot = *X;
  }
  return Error::success();
}

static Error setSetting(SessionSettings &S, StringRef Key,
                        const SettingValue &V) {
#define TL_SETTING(KEY, NAME, TYPE)                                           \
  if (Key == KEY)                                                              \
    return assign(S.NAME, V, Key);
#include "tl/Driver/Settings.def"
  return error("unknown setting '" + Key + "'");
}

/// A path in the folder of the TLCore this module links: the session
/// finds the built-in passes in <that>/tl/passes and the arch files in
/// <that>/../share/tl, as tl-opt does from <prefix>/bin.
static Expected<std::string> corePath() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&tl::checkTraceFile), &Info) ||
      !Info.dli_fname)
    return error("cannot locate libTLCore (dladdr failed)");
  SmallString<256> Path;
  if (std::error_code EC = sys::fs::real_path(Info.dli_fname, Path))
    return error(Twine(Info.dli_fname) + ": " + EC.message());
  sys::path::remove_filename(Path);
  sys::path::append(Path, "tl-python");
  return std::string(Path);
}

static Error readFile(StringRef Dir, StringRef Name, std::string &Out) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Name);
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return error(Path + ": cannot read the report: " +
                 Buf.getError().message());
  Out = (*Buf)->getBuffer().str();
  return Error::success();
}

/// perf_report_csvs/*.csv, sorted by name.
static Error readTables(StringRef Dir, AnalyzeResult &Out) {
  SmallString<256> CsvDir(Dir);
  sys::path::append(CsvDir, "perf_report_csvs");
  std::vector<std::string> Names;
  std::error_code EC;
  for (sys::fs::directory_iterator It(CsvDir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".csv")
      Names.push_back(sys::path::filename(It->path()).str());
  if (EC)
    return error(CsvDir + ": " + EC.message());
  llvm::sort(Names);
  for (const std::string &Name : Names) {
    std::string Text;
    if (Error E = readFile(CsvDir, Name, Text))
      return E;
    Out.Tables.emplace_back(sys::path::stem(Name).str(), std::move(Text));
  }
  return Error::success();
}

Expected<AnalyzeResult> analyzeTrace(const AnalyzeRequest &Req) {
  if (Error E = checkTraceFile(Req.Path))
    return E;
  SessionSettings Given;
  for (const auto &[Key, Value] : Req.Settings)
    if (Error E = setSetting(Given, Key, Value))
      return E;
  Expected<SessionOptions> Opts = resolveOptions(Req.ConfigFile, Given);
  if (!Opts)
    return Opts.takeError();
  Expected<std::string> Tool = corePath();
  if (!Tool)
    return Tool.takeError();
  Opts->ToolPath = std::move(*Tool);
  Opts->ToolName = "tl-python";
  Opts->Progress = false;

  // No output directory: a fresh temporary one, removed once read back.
  bool Temporary = Opts->OutDir.empty();
  SmallString<128> TmpDir;
  if (Temporary) {
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("tl-python", TmpDir))
      return error("cannot create a temporary report directory: " +
                   EC.message());
    Opts->OutDir = std::string(TmpDir);
  }
  auto Cleanup = make_scope_exit([&] {
    if (Temporary)
      sys::fs::remove_directories(TmpDir, /*IgnoreErrors=*/true);
  });

  AnalyzeResult Out;
  Out.TracePath = Req.Path;
  std::string DiagText;
  {
    raw_string_ostream Diag(DiagText);
    auto S = Session::create(std::move(*Opts), Diag);
    if (!S)
      return S.takeError();
    Expected<std::unique_ptr<TraceRun>> R = (*S)->run(Req.Path);
    if (!R)
      return R.takeError();
    if (Error E = (*S)->finish())
      return E;
    const TraceRun &Run = **R;
    for (const std::string &P : Run.passes())
      Out.Passes.push_back(P);
    for (const FailedPass &F : Run.failures())
      Out.Failures.push_back({F.Pass, F.Message});
    for (const FailOnMatch &M : Run.failOnMatches())
      Out.FailOnMatches.push_back(
          {M.FindingId, M.Rank, M.Tier, M.Impact, M.Clause});
    StringRef Dir = Run.outputDir();
    if (Error E = readFile(Dir, "findings.json", Out.FindingsJson))
      return E;
    if (Error E = readFile(Dir, "analysis.html", Out.Html))
      return E;
    if (Error E = readFile(Dir, "analysis.md", Out.Markdown))
      return E;
    if (Error E = readTables(Dir, Out))
      return E;
    {
      SmallString<256> Steps(Dir);
      sys::path::append(Steps, "steps.csv");
      if (sys::fs::exists(Steps))
        if (Error E = readFile(Dir, "steps.csv", Out.StepsCsv))
          return E;
    }
    if (!Temporary)
      Out.OutDir = Dir.str();
  }
  // The session's last line names the report directory; a temporary one
  // is gone by the time the caller reads it.
  if (Temporary) {
    std::string Where = "report in " + std::string(TmpDir);
    size_t At = DiagText.rfind(Where);
    if (At != std::string::npos)
      DiagText.replace(At, Where.size(), "report in memory");
  }
  Out.Diagnostics = std::move(DiagText);
  return Out;
}

std::string versionString() {
  return std::string("tl ") + TL_VERSION_STRING + " (" + TL_GIT_HASH + ")";
}

} // namespace tl::python
