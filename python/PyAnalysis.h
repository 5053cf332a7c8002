//===- PyAnalysis.h - One trace through a Session, report in memory -*- C++ -*-===//
//
// The glue between the Python module (Module.cpp) and tl::Session: settings
// by their config keys (Settings.def), a run through every stage, and the
// report files read back into memory. Plain C++ types only: Module.cpp is
// compiled with RTTI for pybind11, the tl code without (like LLVM).
//
//===----------------------------------------------------------------------===//
#ifndef TL_PYTHON_PYANALYSIS_H
#define TL_PYTHON_PYANALYSIS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tl::python {

/// The C++ type of a setting in Settings.def.
enum class SettingKind { Bool, Unsigned, UInt64, String, List };

struct SettingInfo {
  /// The config key ("max-events").
  const char *Key;
  SettingKind Kind;
};

/// Every setting, in Settings.def order.
llvm::ArrayRef<SettingInfo> settingInfos();

/// A setting's value, of the alternative its kind names (Unsigned and
/// UInt64 are both uint64_t; Unsigned is range-checked by the caller).
using SettingValue =
    std::variant<bool, uint64_t, std::string, std::vector<std::string>>;

struct AnalyzeRequest {
  std::string Path;
  /// A --config YAML file ("" = none); the Settings win over it.
  std::string ConfigFile;
  /// (config key, value); an "output" setting keeps the report there,
  /// without one the report goes to a temporary directory, removed after
  /// it is read back.
  std::vector<std::pair<std::string, SettingValue>> Settings;
};

struct FailureInfo {
  std::string Pass;
  std::string Message;
};

struct FailOnInfo {
  std::string FindingId;
  unsigned Rank = 0;
  std::string Tier;
  std::string Impact;
  std::string Clause;
};

/// What one run produced, as text (the Python side parses it).
struct AnalyzeResult {
  std::string TracePath;
  /// The report directory; "" when it was temporary.
  std::string OutDir;
  std::string FindingsJson;
  std::string Html;
  std::string Markdown;
  /// perf_report_csvs/<name>.csv as (name, CSV text), sorted by name.
  std::vector<std::pair<std::string, std::string>> Tables;
  /// steps.csv (the per-step table); "" when the trace has no ProfilerStep.
  std::string StepsCsv;
  /// The pipeline that ran, after the quality gate.
  std::vector<std::string> Passes;
  std::vector<FailureInfo> Failures;
  std::vector<FailOnInfo> FailOnMatches;
  /// Notes and warnings the session printed (tl-opt's stderr lines).
  std::string Diagnostics;
};

/// Run every stage of a Session on Req.Path. The built-in passes load from
/// the lib/tl/passes folder next to the TLCore this module links, in the
/// build tree and in an install prefix alike. Errors are one line naming
/// the file or setting at fault.
llvm::Expected<AnalyzeResult> analyzeTrace(const AnalyzeRequest &Req);

/// "tl 0.1.0 (abc1234)".
std::string versionString();

} // namespace tl::python

#endif // TL_PYTHON_PYANALYSIS_H
