//===- tl-conform.cpp - Compare perf-report CSVs with reference CSVs -----===//
//
//   tl-conform <our_csv_dir> <reference_csv_dir> [--tables=a,b] [--strict]
//              [--deviations=docs/conformance-deviations.yaml] [--label=X]
//   tl-conform --check-deviation-list=docs/conformance-deviations.yaml
//              --test-root=test
//   tl-conform --json <our_dir> <reference_dir> [--tables=stem,...]
//              [--json-deviation=stem:/path,...]   (see JsonCompare.h)
//
// For every CSV of the reference directory (restricted by --tables): rows
// are matched by the table's key columns (not by position), the row sets
// must be equal, every reference column must exist in ours, numbers must
// agree within 1e-6 relative (1e-9 absolute near zero) and other cells as
// normalized Python literals. Mismatches listed in the deviation file are
// reported but do not fail. Exit status 1 on any other mismatch, 2 on usage
// or I/O errors.
//
// --strict adds what TraceLens's own comparator (tests/conftest.py) checks
// and what neither checked before: our CSVs the reference does not have,
// columns the reference does not have, the column order, the row order
// (tied rows of ops_summary / ops_summary_by_category as a set), the text
// of missing cells ('' vs 'None'), |a-b| < 1e-6 and exact numbers inside
// literals; and every listed deviation that applies to the run must still
// occur.
//
//===----------------------------------------------------------------------===//
#include "Compare.h"
#include "JsonCompare.h"

#include "tl/Support/Csv.h"
#include "tl/Support/YamlSyntax.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;
using namespace tl;
using namespace tl::conform;

namespace {

struct Deviation {
  std::string Id;
  std::string Kind; // csv (tl-conform's tables), json, behaviour
  // Each field lists alternatives (a YAML string or list of strings).
  std::vector<std::string> Traces;  // substrings of the reference dir
  std::vector<std::string> Tables;  // "*" = any
  std::vector<std::string> Columns; // "*" = any (also row-set and
                                    // missing / extra table issues)
  std::string Reason;
  std::string Test; // test file pinning it, relative to test/
  /// missing_only: only cells where both texts spell a missing value
  /// ('', 'nan', 'None'), so a real value difference is still a mismatch.
  bool MissingOnly = false;
  unsigned Hits = 0;

  bool tracesMatch(StringRef RefDir) const {
    return llvm::any_of(Traces,
                        [&](const std::string &T) { return RefDir.contains(T); });
  }
  bool tableMatches(StringRef T) const {
    return llvm::is_contained(Tables, "*") || llvm::is_contained(Tables, T);
  }
  /// "*" matches any column, "param: *" any column with that prefix.
  bool columnMatches(StringRef C) const {
    return llvm::any_of(Columns, [&](const std::string &P) {
      StringRef Pat(P);
      return Pat == "*" || Pat == C ||
             (Pat.size() > 1 && Pat.ends_with("*") &&
              C.starts_with(Pat.drop_back()));
    });
  }
};

/// A YAML scalar or sequence of scalars as strings.
std::vector<std::string> stringList(const YAML::Node &N,
                                    const std::string &Default) {
  if (!N)
    return {Default};
  if (N.IsSequence()) {
    std::vector<std::string> Out;
    for (const YAML::Node &E : N)
      Out.push_back(E.as<std::string>());
    return Out;
  }
  return {N.as<std::string>()};
}

Expected<std::vector<Deviation>> loadDeviations(StringRef Path) {
  std::vector<Deviation> Out;
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  // The deviation list is hand-edited: a typo must not hang yaml-cpp.
  if (Error E = checkYamlSyntax((*Buf)->getBuffer()))
    return createStringError(inconvertibleErrorCode(), "%s: %s",
                             Path.str().c_str(),
                             toString(std::move(E)).c_str());
  try {
    YAML::Node Root = YAML::Load((*Buf)->getBuffer().str());
    YAML::Node List = Root["deviations"];
    if (!List)
      return Out;
    if (!List.IsSequence())
      return createStringError(inconvertibleErrorCode(),
                               "%s: 'deviations' must be a list",
                               Path.str().c_str());
    for (const YAML::Node &N : List) {
      Deviation D;
      // A missing id or test is reported by --check-deviation-list
      // (deviation-list.test), so one such entry does not stop every
      // comparison.
      if (!N["reason"])
        return createStringError(inconvertibleErrorCode(),
                                 "%s: every deviation needs a 'reason'",
                                 Path.str().c_str());
      D.Id = N["id"] ? N["id"].as<std::string>()
                     : "<entry " + std::to_string(Out.size() + 1) + ">";
      D.Kind = N["kind"] ? N["kind"].as<std::string>() : "csv";
      if (D.Kind != "csv" && D.Kind != "json" && D.Kind != "behaviour")
        return createStringError(inconvertibleErrorCode(),
                                 "%s: deviation '%s': kind must be csv, json "
                                 "or behaviour",
                                 Path.str().c_str(), D.Id.c_str());
      if (D.Kind == "csv" && (!N["table"] || !N["trace"]))
        return createStringError(inconvertibleErrorCode(),
                                 "%s: csv deviation '%s' needs 'table' and "
                                 "'trace'",
                                 Path.str().c_str(), D.Id.c_str());
      D.Tables = stringList(N["table"], "*");
      D.Reason = N["reason"].as<std::string>();
      D.Test = N["test"] ? N["test"].as<std::string>() : "";
      D.Traces = stringList(N["trace"], "");
      D.Columns = stringList(N["column"], "*");
      D.MissingOnly = N["missing_only"] && N["missing_only"].as<bool>();
      Out.push_back(std::move(D));
    }
  } catch (const YAML::Exception &E) {
    return createStringError(inconvertibleErrorCode(), "%s: %s",
                             Path.str().c_str(), E.what());
  }
  return Out;
}

struct Table {
  std::vector<std::string> Header;
  std::vector<CsvRow> Rows;
};

Expected<Table> readTable(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  auto Rows = parseCsv((*Buf)->getBuffer());
  if (!Rows)
    return createStringError(inconvertibleErrorCode(), "%s: %s",
                             Path.str().c_str(),
                             toString(Rows.takeError()).c_str());
  Table T;
  // A frame without columns is written as a single newline.
  if (Rows->empty() || (Rows->front().size() == 1 && Rows->front()[0].empty()))
    return T;
  T.Header = std::move(Rows->front());
  T.Rows.assign(std::make_move_iterator(Rows->begin() + 1),
                std::make_move_iterator(Rows->end()));
  for (CsvRow &R : T.Rows)
    R.resize(T.Header.size());
  return T;
}

class Checker {
public:
  Checker(std::vector<Deviation> Devs, std::string RefDir, std::string Label)
      : Devs(std::move(Devs)), RefDir(std::move(RefDir)),
        Label(std::move(Label)) {}

  /// Record a mismatch; true when it is a listed deviation.
  bool mismatch(StringRef TableName, StringRef Column, const Twine &What,
                const std::pair<StringRef, StringRef> *Cells = nullptr) {
    auto Missing = [](StringRef V) {
      return V.empty() || V == "nan" || V == "None";
    };
    for (Deviation &D : Devs) {
      if (D.Kind != "csv" || !D.tracesMatch(RefDir) ||
          !D.tableMatches(TableName) || !D.columnMatches(Column))
        continue;
      if (D.MissingOnly &&
          (!Cells || !Missing(Cells->first) || !Missing(Cells->second)))
        continue;
      if (Shown < 200)
        outs() << "    deviation " << D.Id << ": " << What << "\n";
      ++Shown;
      ++NumDeviations;
      ++D.Hits;
      return true;
    }
    if (Shown < 200)
      outs() << "    MISMATCH: " << What << "\n";
    ++Shown;
    ++NumFailures;
    return false;
  }

  void compare(StringRef Name, const Table &Ours, const Table &Ref) {
    unsigned Before = NumFailures, DevBefore = NumDeviations;
    size_t Cells = 0, Matched = 0;
    double MaxRel = 0;
    Shown = 0;
    std::string Head;
    raw_string_ostream HS(Head);
    if (Ref.Header.empty() || Ours.Header.empty()) {
      if (Ref.Header.empty() != Ours.Header.empty() ||
          Ref.Rows.size() != Ours.Rows.size())
        mismatch(Name, "*",
                 Twine("one table is empty: ours ") +
                     Twine(Ours.Rows.size()) + " rows, reference " +
                     Twine(Ref.Rows.size()));
      report(Name, Ref.Rows.size(), Ours.Rows.size(), 0, 0, 0, Before,
             DevBefore);
      return;
    }
    // Columns: every reference column must exist in ours.
    StringMap<unsigned> OurCol;
    for (unsigned I = 0; I < Ours.Header.size(); ++I)
      OurCol[Ours.Header[I]] = I;
    std::vector<int> Map(Ref.Header.size(), -1);
    for (unsigned I = 0; I < Ref.Header.size(); ++I) {
      auto It = OurCol.find(Ref.Header[I]);
      if (It == OurCol.end())
        mismatch(Name, Ref.Header[I],
                 "column '" + Ref.Header[I] + "' missing from our output");
      else
        Map[I] = It->second;
    }
    if (Strict) {
      StringMap<bool> RefCol;
      for (const std::string &H : Ref.Header)
        RefCol[H] = true;
      bool Extra = false;
      for (const std::string &H : Ours.Header)
        if (!RefCol.count(H)) {
          Extra = true;
          mismatch(Name, H, "extra column '" + H + "' in our output");
        }
      if (!Extra && Ours.Header.size() == Ref.Header.size() &&
          Ours.Header != Ref.Header)
        mismatch(Name, "<header>", "column order differs from the reference");
    }
    // Rows by key (key text + occurrence index for duplicates).
    std::vector<std::string> Keys = keyColumns(Name, Ref.Header);
    auto RowKeys = [&](const Table &T) {
      std::vector<std::string> Out;
      std::map<std::string, unsigned> Seen;
      std::vector<int> Idx;
      for (const std::string &K : Keys) {
        auto It = std::find(T.Header.begin(), T.Header.end(), K);
        Idx.push_back(It == T.Header.end() ? -1 : int(It - T.Header.begin()));
      }
      for (size_t R = 0; R < T.Rows.size(); ++R) {
        std::string Key;
        for (int I : Idx) {
          Key += I < 0 ? std::string("<missing>") : canonicalKey(T.Rows[R][I]);
          Key += " | ";
        }
        if (Keys.empty())
          Key = "#" + std::to_string(R);
        unsigned N = Seen[Key]++;
        if (N)
          Key += "#" + std::to_string(N);
        Out.push_back(Key);
      }
      return Out;
    };
    std::vector<std::string> RefKeys = RowKeys(Ref), OurKeys = RowKeys(Ours);
    std::map<std::string, size_t> OurRow;
    for (size_t I = 0; I < OurKeys.size(); ++I)
      OurRow[OurKeys[I]] = I;
    std::set<std::string> RefSet(RefKeys.begin(), RefKeys.end());
    Tolerance Tol;
    Tol.Strict = Strict;
    std::vector<long> Pos(Ref.Rows.size(), -1);
    for (size_t R = 0; R < Ref.Rows.size(); ++R) {
      auto It = OurRow.find(RefKeys[R]);
      if (It == OurRow.end()) {
        mismatch(Name, "<rows>", "reference row missing from ours: " +
                                     RefKeys[R]);
        continue;
      }
      ++Matched;
      Pos[R] = long(It->second);
      const CsvRow &O = Ours.Rows[It->second];
      for (unsigned C = 0; C < Ref.Header.size(); ++C) {
        if (Map[C] < 0)
          continue;
        ++Cells;
        double Rel = 0;
        if (!cellsEqual(O[Map[C]], Ref.Rows[R][C], Tol, Rel)) {
          std::string A = O[Map[C]], B = Ref.Rows[R][C];
          std::pair<StringRef, StringRef> Texts{O[Map[C]], Ref.Rows[R][C]};
          if (A.size() > 160)
            A = A.substr(0, 160) + "...";
          if (B.size() > 160)
            B = B.substr(0, 160) + "...";
          mismatch(Name, Ref.Header[C],
                   "row " + RefKeys[R] + " column '" + Ref.Header[C] +
                       "': ours '" + A + "' reference '" + B + "'",
                   &Texts);
        }
        MaxRel = std::max(MaxRel, Rel);
      }
    }
    for (size_t I = 0; I < OurKeys.size(); ++I)
      if (!RefSet.count(OurKeys[I]))
        mismatch(Name, "<rows>", "extra row in ours: " + OurKeys[I]);
    if (Strict)
      checkOrder(Name, Ref, RefKeys, Pos);
    report(Name, Ref.Rows.size(), Ours.Rows.size(), Matched, Cells, MaxRel,
           Before, DevBefore);
  }

  /// Our rows must sit at the reference's positions; a run of reference
  /// rows with equal tieColumn values may come in any order.
  void checkOrder(StringRef Name, const Table &Ref,
                  const std::vector<std::string> &RefKeys,
                  const std::vector<long> &Pos) {
    std::string TieCol = tieColumn(Name);
    int TieIdx = -1;
    for (unsigned I = 0; I < Ref.Header.size(); ++I)
      if (!TieCol.empty() && Ref.Header[I] == TieCol)
        TieIdx = int(I);
    for (size_t A = 0, B; A < Ref.Rows.size(); A = B) {
      B = A + 1;
      if (TieIdx >= 0)
        while (B < Ref.Rows.size() &&
               canonicalKey(Ref.Rows[B][TieIdx]) ==
                   canonicalKey(Ref.Rows[A][TieIdx]))
          ++B;
      std::vector<long> Got(Pos.begin() + A, Pos.begin() + B);
      if (llvm::is_contained(Got, -1))
        continue; // a missing row is reported already
      llvm::sort(Got);
      for (size_t I = A; I < B; ++I)
        if (Got[I - A] != long(I)) {
          mismatch(Name, "<order>",
                   "row order differs from the reference at row " +
                       Twine(I) + " (" + RefKeys[I] + ")" +
                       (B - A > 1 ? " among " + Twine(B - A) + " tied rows"
                                  : Twine("")));
          return; // one report per table
        }
    }
  }

  void report(StringRef Name, size_t RefRows, size_t OurRows, size_t Matched,
              size_t Cells, double MaxRel, unsigned Before,
              unsigned DevBefore) {
    if (Shown > 200)
      outs() << "    ... " << (Shown - 200) << " more\n";
    outs() << Label << " " << Name << ": rows ref=" << RefRows
           << " ours=" << OurRows << " matched=" << Matched
           << " cells=" << Cells << " max_rel="
           << format("%.3g", MaxRel) << ": ";
    if (NumFailures != Before)
      outs() << "FAIL (" << (NumFailures - Before) << " mismatches)\n";
    else if (NumDeviations != DevBefore)
      outs() << "OK with " << (NumDeviations - DevBefore)
             << " listed deviation(s)\n";
    else
      outs() << "OK\n";
  }

  std::vector<Deviation> Devs;
  std::string RefDir, Label;
  bool Strict = false;
  unsigned NumFailures = 0, NumDeviations = 0, Shown = 0;
};

/// --check-deviation-list: every entry names a test file that exists under
/// TestRoot and mentions the entry's id, and ids are unique.
int checkDeviationList(StringRef File, StringRef TestRoot) {
  auto D = loadDeviations(File);
  if (!D) {
    errs() << "tl-conform: error: " << toString(D.takeError()) << "\n";
    return 2;
  }
  unsigned Bad = 0;
  std::set<std::string> Ids;
  for (const Deviation &X : *D) {
    if (X.Id.front() == '<' || X.Test.empty()) {
      outs() << "deviation '" << X.Id << "': needs an 'id' and a 'test'\n";
      ++Bad;
      continue;
    }
    if (!Ids.insert(X.Id).second) {
      outs() << "duplicate deviation id '" << X.Id << "'\n";
      ++Bad;
    }
    SmallString<256> P(TestRoot);
    sys::path::append(P, X.Test);
    auto Buf = MemoryBuffer::getFile(P);
    if (!Buf) {
      outs() << "deviation '" << X.Id << "': test " << X.Test
             << " not found under " << TestRoot << "\n";
      ++Bad;
      continue;
    }
    if (!(*Buf)->getBuffer().contains(X.Id)) {
      outs() << "deviation '" << X.Id << "': test " << X.Test
             << " does not mention the id\n";
      ++Bad;
    }
  }
  outs() << File << ": " << D->size() << " deviation(s), " << Bad
         << " problem(s)\n";
  return Bad ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::opt<std::string> OurDir(cl::Positional, cl::desc("<our_csv_dir>"));
  cl::opt<std::string> RefDir(cl::Positional, cl::desc("<reference_csv_dir>"));
  cl::list<std::string> Tables("tables", cl::CommaSeparated,
                               cl::desc("Compare only these tables"));
  cl::opt<std::string> DevFile(
      "deviations", cl::desc("YAML list of accepted deviations"),
      cl::value_desc("file"));
  cl::opt<std::string> LabelOpt("label", cl::desc("Name printed per line "
                                                  "(default: reference dir)"));
  cl::opt<bool> JsonMode("json", cl::desc("Compare *.json files (category_data) "
                                          "instead of CSV tables"));
  cl::opt<bool> StrictOpt(
      "strict", cl::desc("Also require no extra tables or columns, the "
                         "reference's column and row order, equal missing-"
                         "value text, and every applicable listed deviation "
                         "to occur"));
  cl::opt<std::string> CheckList(
      "check-deviation-list",
      cl::desc("Check that every deviation of this file names an existing "
               "test (under --test-root) that mentions its id"),
      cl::value_desc("file"));
  cl::opt<std::string> TestRoot("test-root", cl::desc("See "
                                                      "--check-deviation-list"),
                                cl::init("."));
  cl::list<std::string> JsonIgnore(
      "json-deviation", cl::CommaSeparated,
      cl::desc("JSON mode: <file stem>:<json path prefix> of a listed "
               "deviation"));
  cl::ParseCommandLineOptions(
      argc, argv,
      "tl-conform: compare tl perf-report CSVs with reference CSVs\n");
  if (!CheckList.empty())
    return checkDeviationList(CheckList, TestRoot);
  if (OurDir.empty() || RefDir.empty()) {
    errs() << "tl-conform: error: expected <our_dir> <reference_dir>\n";
    return 2;
  }
  if (JsonMode) {
    std::string L = LabelOpt;
    if (L.empty())
      L = sys::path::filename(StringRef(RefDir).rtrim('/')).str();
    return runJsonCompare(OurDir, RefDir, Tables, JsonIgnore, L);
  }

  auto Fail = [](const Twine &Msg) {
    errs() << "tl-conform: error: " << Msg << "\n";
    return 2;
  };
  std::vector<Deviation> Devs;
  if (!DevFile.empty()) {
    auto D = loadDeviations(DevFile);
    if (!D)
      return Fail(toString(D.takeError()));
    Devs = std::move(*D);
  }
  std::vector<std::string> Names;
  std::error_code EC;
  for (sys::fs::directory_iterator It(RefDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef P = It->path();
    if (sys::path::extension(P) == ".csv")
      Names.push_back(sys::path::stem(P).str());
  }
  if (EC)
    return Fail(RefDir + ": " + EC.message());
  std::sort(Names.begin(), Names.end());
  if (!Tables.empty()) {
    std::set<std::string> Want(Tables.begin(), Tables.end());
    llvm::erase_if(Names, [&](const std::string &N) { return !Want.count(N); });
  }
  if (Names.empty())
    return Fail(RefDir + ": no reference table to compare");

  std::string Label = LabelOpt;
  if (Label.empty())
    Label = sys::path::filename(StringRef(RefDir).rtrim('/')).str();
  Checker C(std::move(Devs), RefDir, Label);
  C.Strict = StrictOpt;
  if (StrictOpt) {
    // Tables we write that the reference does not have.
    std::set<std::string> RefNames(Names.begin(), Names.end());
    std::set<std::string> Want(Tables.begin(), Tables.end());
    std::vector<std::string> Extra;
    for (sys::fs::directory_iterator It(OurDir, EC), End; It != End && !EC;
         It.increment(EC)) {
      StringRef P = It->path();
      std::string Stem = sys::path::stem(P).str();
      if (sys::path::extension(P) == ".csv" && !RefNames.count(Stem) &&
          (Want.empty() || Want.count(Stem)))
        Extra.push_back(Stem);
    }
    if (EC)
      return Fail(OurDir + ": " + EC.message());
    llvm::sort(Extra);
    for (const std::string &N : Extra) {
      C.Shown = 0;
      bool Listed =
          C.mismatch(N, "*", "table " + N + ".csv is not in the reference");
      outs() << Label << " " << N << ": "
             << (Listed ? "extra (listed deviation)\n" : "FAIL (extra)\n");
    }
  }
  for (const std::string &N : Names) {
    SmallString<256> RP(RefDir), OP(OurDir);
    sys::path::append(RP, N + ".csv");
    sys::path::append(OP, N + ".csv");
    auto Ref = readTable(RP);
    if (!Ref)
      return Fail(toString(Ref.takeError()));
    if (!sys::fs::exists(OP)) {
      C.Shown = 0;
      bool Listed =
          C.mismatch(N, "*", "table " + N + ".csv missing from our output");
      outs() << Label << " " << N << ": "
             << (Listed ? "missing (listed deviation)\n" : "FAIL (missing)\n");
      continue;
    }
    auto Ours = readTable(OP);
    if (!Ours)
      return Fail(toString(Ours.takeError()));
    C.compare(N, *Ours, *Ref);
  }
  if (StrictOpt) {
    // A listed deviation that no longer occurs makes the list untrue.
    std::set<std::string> Compared(Names.begin(), Names.end());
    for (const std::string &N : Tables)
      Compared.insert(N);
    for (const Deviation &D : C.Devs)
      if (D.Kind == "csv" && !D.Hits && D.tracesMatch(RefDir) &&
          llvm::any_of(Compared, [&](const std::string &N) {
            return D.tableMatches(N);
          })) {
        outs() << "    MISMATCH: listed deviation " << D.Id
               << " no longer occurs (" << D.Test << ")\n";
        ++C.NumFailures;
      }
  }
  outs() << Label << ": " << Names.size() << " table(s), " << C.NumFailures
         << " mismatch(es), " << C.NumDeviations << " listed deviation(s)\n";
  return C.NumFailures ? 1 : 0;
}
