//===- Module.cpp - The pybind11 module tl._tl ----------------------------===//
//
// Python values in, plain results out: keywords become session settings
// (every Settings.def key, '-' spelled '_', `output` spelled `out`), the
// analysis runs without the GIL, and an error is a tl.Error with the
// one-line message tl-opt prints. tl/__init__.py shapes the results
// (JSON, DataFrames, HTML).
//
//===----------------------------------------------------------------------===//
#include "PyAnalysis.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <mutex>

namespace py = pybind11;
using namespace tl::python;

namespace {

/// The keyword of a config key: '-' -> '_'; `output` is `out`.
std::string keywordOf(const char *Key) {
  std::string K(Key);
  if (K == "output")
    return "out";
  for (char &C : K)
    if (C == '-')
      C = '_';
  return K;
}

std::string knownKeywords() {
  std::string S = "config";
  for (const SettingInfo &I : settingInfos())
    S += ", " + keywordOf(I.Key);
  return S;
}

/// str or os.PathLike -> std::string.
bool asPath(py::handle V, std::string &Out) {
  if (py::isinstance<py::str>(V)) {
    Out = V.cast<std::string>();
    return true;
  }
  if (py::hasattr(V, "__fspath__")) {
    py::object P = py::module_::import("os").attr("fspath")(V);
    if (py::isinstance<py::str>(P) || py::isinstance<py::bytes>(P)) {
      Out = P.cast<std::string>();
      return true;
    }
  }
  return false;
}

SettingValue toSetting(const SettingInfo &Info, const std::string &Kw,
                       py::handle V) {
  switch (Info.Kind) {
  case SettingKind::Bool:
    if (!py::isinstance<py::bool_>(V))
      throw py::type_error(Kw + "= takes a bool");
    return V.cast<bool>();
  case SettingKind::Unsigned:
  case SettingKind::UInt64: {
    if (py::isinstance<py::bool_>(V) || !py::isinstance<py::int_>(V))
      throw py::type_error(Kw + "= takes an int");
    unsigned long long N = PyLong_AsUnsignedLongLong(V.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      throw py::value_error(Kw + "= takes an int >= 0 that fits 64 bits");
    }
    if (Info.Kind == SettingKind::Unsigned && N > UINT_MAX)
      throw py::value_error(Kw + "= takes an int from 0 to " +
                            std::to_string(UINT_MAX));
    return uint64_t(N);
  }
  case SettingKind::String: {
    std::string S;
    if (!asPath(V, S))
      throw py::type_error(Kw + "= takes a str");
    return S;
  }
  case SettingKind::List: {
    std::vector<std::string> L;
    std::string S;
    if (asPath(V, S)) {
      L.push_back(std::move(S));
      return L;
    }
    if (!py::isinstance<py::list>(V) && !py::isinstance<py::tuple>(V))
      throw py::type_error(Kw + "= takes a str or a list of str");
    for (py::handle Item : V) {
      if (!asPath(Item, S))
        throw py::type_error(Kw + "= takes a str or a list of str");
      L.push_back(std::move(S));
    }
    return L;
  }
  }
  throw py::type_error(Kw + "=: unknown setting type");
}

AnalyzeRequest makeRequest(py::handle Path, const py::kwargs &Kw) {
  AnalyzeRequest Req;
  if (!asPath(Path, Req.Path))
    throw py::type_error("analyze() takes the trace path as a str or "
                         "os.PathLike");
  for (auto [K, V] : Kw) {
    std::string Name = K.cast<std::string>();
    if (V.is_none())
      continue; // the default, as if not given
    if (Name == "config") {
      if (!asPath(V, Req.ConfigFile))
        throw py::type_error("config= takes a str or os.PathLike");
      continue;
    }
    const SettingInfo *Info = nullptr;
    for (const SettingInfo &I : settingInfos())
      if (keywordOf(I.Key) == Name)
        Info = &I;
    if (!Info)
      throw py::type_error("analyze() got an unexpected keyword argument '" +
                           Name + "' (known: " + knownKeywords() + ")");
    Req.Settings.emplace_back(Info->Key, toSetting(*Info, Name, V));
  }
  return Req;
}

py::dict toPython(const AnalyzeResult &R) {
  py::dict D;
  D["trace"] = R.TracePath;
  D["out"] = R.OutDir.empty() ? py::object(py::none()) : py::str(R.OutDir);
  D["findings_json"] = R.FindingsJson;
  D["html"] = R.Html;
  D["markdown"] = R.Markdown;
  D["tables"] = R.Tables;
  D["steps_csv"] = R.StepsCsv;
  D["passes"] = R.Passes;
  py::list Failures;
  for (const FailureInfo &F : R.Failures) {
    py::dict E;
    E["pass"] = F.Pass;
    E["message"] = F.Message;
    Failures.append(E);
  }
  D["failures"] = Failures;
  py::list Matches;
  for (const FailOnInfo &M : R.FailOnMatches) {
    py::dict E;
    E["id"] = M.FindingId;
    E["rank"] = M.Rank;
    E["tier"] = M.Tier;
    E["impact"] = M.Impact;
    E["clause"] = M.Clause;
    Matches.append(E);
  }
  D["fail_on"] = Matches;
  D["diagnostics"] = R.Diagnostics;
  return D;
}

/// Analyses run one at a time: --time-trace and plugin loading are
/// process-wide.
std::mutex &analysisMutex() {
  static std::mutex M;
  return M;
}

} // namespace

PYBIND11_MODULE(_tl, m) {
  m.doc() = "tl's session as a library; use the tl package, not this module";
  // tl.Error (a RuntimeError): the one-line message tl-opt would print.
  py::handle Err = PyErr_NewException("tl.Error", PyExc_RuntimeError, nullptr);
  if (!Err)
    throw py::error_already_set();
  m.attr("Error") = py::reinterpret_steal<py::object>(Err);

  m.def(
      "analyze",
      [Err](py::handle Path, const py::kwargs &Kw) {
        AnalyzeRequest Req = makeRequest(Path, Kw);
        std::string Message;
        std::optional<AnalyzeResult> Result;
        {
          py::gil_scoped_release NoGil;
          std::lock_guard<std::mutex> Lock(analysisMutex());
          llvm::Expected<AnalyzeResult> R = analyzeTrace(Req);
          if (R)
            Result = std::move(*R);
          else
            Message = llvm::toString(R.takeError());
        }
        if (!Result) {
          PyErr_SetString(Err.ptr(), Message.c_str());
          throw py::error_already_set();
        }
        return toPython(*Result);
      },
      py::arg("path"),
      "Run tl's session on one trace; returns the report as a dict.");
  m.def("keywords", [] {
    std::vector<std::string> K{"config"};
    for (const SettingInfo &I : settingInfos())
      K.push_back(keywordOf(I.Key));
    return K;
  });
  m.def("version", &versionString);
}
