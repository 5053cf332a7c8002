//===- XlsxEmitter.cpp - perf_report.xlsx ----------------------------------===//
//
// The perf-report tables of perf_report_csvs/ as one workbook, as the
// reference's generate_perf_report_pytorch writes perf_report.xlsx: one
// sheet per table, named like the CSV file, in the reference's order
// (spec tracelens-perf-report.md §6.0). For people: a frozen, bold header
// row with filters, column widths from the content, numbers as numbers with
// a display format per column kind (the values stay exact).
//
// Built only when libxlsxwriter is found (TL_HAVE_XLSXWRITER). The workbook
// is deterministic: a fixed creation date, so the same trace gives the same
// bytes.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/Emitter.h"
#include "tl/Report/PerfCsvTables.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace llvm;

namespace tl {
namespace {

/// One cell as the sheet holds it.
struct XCell {
  enum Kind { Blank, Number, Bool, Text } K = Blank;
  double Num = 0;
  std::string Str; // Text, and the displayed text for widths
};

struct XSheet {
  std::string Name;
  std::vector<std::string> Columns;
  std::vector<std::vector<XCell>> Rows;
  /// Per column: only integers (true) among its numbers.
  std::vector<bool> IntegerColumn;
};

XCell fromPy(const PyValue &V) {
  XCell C;
  switch (V.kind()) {
  case PyValue::Kind::None:
    break;
  case PyValue::Kind::Float:
    if (!std::isnan(V.getFloat()) && std::isfinite(V.getFloat())) {
      C.K = XCell::Number;
      C.Num = V.getFloat();
      C.Str = pyRepr(C.Num);
    } else if (!std::isnan(V.getFloat())) {
      C.K = XCell::Text;
      C.Str = pyRepr(V.getFloat()); // "inf": text, as xlsx has no infinity
    }
    break;
  case PyValue::Kind::Int:
    C.K = XCell::Number;
    C.Num = double(V.getInt());
    C.Str = std::to_string(V.getInt());
    break;
  case PyValue::Kind::Bool:
    C.K = XCell::Bool;
    C.Num = V.getBool();
    C.Str = V.getBool() ? "True" : "False";
    break;
  default:
    C.K = XCell::Text;
    C.Str = pyStr(V);
  }
  return C;
}

/// Text cells of the perf sheets: numbers when the whole text is one
/// finite number as Python prints it, else text.
XCell fromText(const std::string &S) {
  XCell C;
  if (S.empty())
    return C;
  C.Str = S;
  double D;
  bool Numeric = (isDigit(S[0]) || (S[0] == '-' && S.size() > 1 &&
                                    isDigit(S[1]))) &&
                 !StringRef(S).getAsDouble(D) && std::isfinite(D);
  if (Numeric) {
    C.K = XCell::Number;
    C.Num = D;
  } else {
    C.K = XCell::Text;
  }
  return C;
}

void classifyColumns(XSheet &S, const CsvTable *Src) {
  S.IntegerColumn.assign(S.Columns.size(), true);
  for (size_t C = 0; C < S.Columns.size(); ++C)
    for (size_t R = 0; R < S.Rows.size(); ++R) {
      const XCell &X = S.Rows[R][C];
      if (X.K != XCell::Number)
        continue;
      bool Int = Src ? Src->row(R)[C].kind() == PyValue::Kind::Int
                     : StringRef(X.Str).find_first_of(".eE") == StringRef::npos;
      if (!Int) {
        S.IntegerColumn[C] = false;
        break;
      }
    }
}

XSheet fromCsv(StringRef Name, const CsvTable &T) {
  XSheet S{Name.str(), T.columns(), {}, {}};
  for (size_t R = 0; R < T.numRows(); ++R) {
    std::vector<XCell> Row;
    for (const PyValue &V : T.row(R))
      Row.push_back(fromPy(V));
    S.Rows.push_back(std::move(Row));
  }
  classifyColumns(S, &T);
  return S;
}

XSheet fromTextTable(const TextTable &T) {
  XSheet S{T.Name, T.Columns, {}, {}};
  for (const auto &R : T.Rows) {
    std::vector<XCell> Row;
    for (const std::string &Cell : R)
      Row.push_back(fromText(Cell));
    Row.resize(S.Columns.size());
    S.Rows.push_back(std::move(Row));
  }
  classifyColumns(S, nullptr);
  return S;
}

/// The reference's sheet order (§6.0): gpu_timeline, the ops tables,
/// unified_perf_summary, the perf sheets, kernel_summary, the short-kernel
/// sheets, coll_analysis.
std::vector<XSheet> collectSheets(const ReportContext &Ctx) {
  std::vector<XSheet> Out;
  std::vector<std::pair<std::string, CsvTable>> Csv =
      perfReportTables(Ctx.T, Ctx.AM);
  size_t I = 0;
  for (; I < Csv.size(); ++I) {
    StringRef N = Csv[I].first;
    if (N != "gpu_timeline" && !N.starts_with("ops_"))
      break;
    Out.push_back(fromCsv(N, Csv[I].second));
  }
  PerfSheetTables Sheets = perfSheetTables(Ctx);
  if (Sheets.Unified)
    Out.push_back(fromTextTable(*Sheets.Unified));
  for (const TextTable &T : Sheets.Sheets)
    Out.push_back(fromTextTable(T));
  for (; I < Csv.size(); ++I)
    Out.push_back(fromCsv(Csv[I].first, Csv[I].second));
  return Out;
}

/// Excel's sheet-name rules: at most 31 characters, none of []:*?/\,
/// unique ignoring case.
std::string sheetName(StringRef Name, std::set<std::string> &Used) {
  std::string Base;
  for (char C : Name)
    Base += StringRef("[]:*?/\\").contains(C) ? '_' : C;
  if (Base.empty())
    Base = "Sheet";
  std::string N = Base.substr(0, 31);
  for (unsigned K = 2; Used.count(StringRef(N).lower()); ++K) {
    std::string Suffix = "_" + std::to_string(K);
    N = Base.substr(0, 31 - Suffix.size()) + Suffix;
  }
  Used.insert(StringRef(N).lower());
  return N;
}

bool isPercentColumn(StringRef Name) {
  std::string L = Name.lower();
  StringRef S(L);
  return S.contains('%') || S.contains("percent") || S.contains("pct");
}

/// Text cut to Excel's 32767-character cell limit (at a UTF-8 boundary).
std::string cellText(StringRef S) {
  constexpr size_t Max = 32767;
  if (S.size() <= Max)
    return S.str();
  size_t N = Max;
  while (N > 0 && (static_cast<unsigned char>(S[N]) & 0xC0) == 0x80)
    --N;
  return S.take_front(N).str();
}

/// Display width of a column: its header or longest cell, 8 to 60.
double columnWidth(const XSheet &S, size_t C) {
  size_t W = S.Columns[C].size() + 3; // room for the filter button
  for (const auto &R : S.Rows)
    W = std::max(W, std::min<size_t>(R[C].Str.size(), 60) + 1);
  return double(std::clamp<size_t>(W, 8, 60));
}

Error writeWorkbook(StringRef Path, ArrayRef<XSheet> Sheets) {
  lxw_workbook *WB = workbook_new(Path.str().c_str());
  if (!WB)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create '" + Path + "'");
  // A fixed creation time (2000-01-01) instead of now: same input, same
  // bytes.
  lxw_doc_properties Props = {};
  Props.created = 946684800;
  workbook_set_properties(WB, &Props);
  lxw_format *Header = workbook_add_format(WB);
  format_set_bold(Header);
  format_set_bg_color(Header, 0xDDE4EE);
  format_set_bottom(Header, LXW_BORDER_THIN);
  lxw_format *IntFmt = workbook_add_format(WB);
  format_set_num_format(IntFmt, "#,##0");
  lxw_format *FloatFmt = workbook_add_format(WB);
  format_set_num_format(FloatFmt, "#,##0.0##");
  lxw_format *PctFmt = workbook_add_format(WB);
  format_set_num_format(PctFmt, "0.00");
  std::set<std::string> Used;
  // Excel's limits: 1048576 rows (one is the header).
  constexpr size_t MaxRows = 1048575;
  for (const XSheet &S : Sheets) {
    std::string Name = sheetName(S.Name, Used);
    lxw_worksheet *WS = workbook_add_worksheet(WB, Name.c_str());
    if (!WS)
      continue;
    size_t NumCols = std::min<size_t>(S.Columns.size(), 16384);
    size_t NumRows = std::min(S.Rows.size(), MaxRows);
    std::vector<lxw_format *> ColFmt(NumCols);
    for (size_t C = 0; C < NumCols; ++C) {
      ColFmt[C] = isPercentColumn(S.Columns[C]) ? PctFmt
                  : S.IntegerColumn[C]          ? IntFmt
                                                : FloatFmt;
      worksheet_write_string(WS, 0, lxw_col_t(C),
                             cellText(S.Columns[C]).c_str(), Header);
      worksheet_set_column(WS, lxw_col_t(C), lxw_col_t(C),
                           columnWidth(S, C), nullptr);
    }
    for (size_t R = 0; R < NumRows; ++R)
      for (size_t C = 0; C < NumCols; ++C) {
        const XCell &X = S.Rows[R][C];
        lxw_row_t Row = lxw_row_t(R + 1);
        switch (X.K) {
        case XCell::Blank:
          break;
        case XCell::Number:
          worksheet_write_number(WS, Row, lxw_col_t(C), X.Num, ColFmt[C]);
          break;
        case XCell::Bool:
          worksheet_write_boolean(WS, Row, lxw_col_t(C), X.Num != 0, nullptr);
          break;
        case XCell::Text:
          worksheet_write_string(WS, Row, lxw_col_t(C), cellText(X.Str).c_str(),
                                 nullptr);
          break;
        }
      }
    worksheet_freeze_panes(WS, 1, 0);
    if (NumCols > 0)
      worksheet_autofilter(WS, 0, 0, lxw_row_t(NumRows), lxw_col_t(NumCols - 1));
  }
  lxw_error E = workbook_close(WB);
  if (E != LXW_NO_ERROR)
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + Path + "': " +
                                 lxw_strerror(E));
  return Error::success();
}

class XlsxEmitter final : public Emitter {
public:
  StringRef name() const override { return "perf-report-xlsx"; }
  bool needsPassResults() const override { return false; }
  Error emit(const ReportContext &Ctx) override {
    std::vector<XSheet> Sheets = collectSheets(Ctx);
    if (Sheets.empty()) // no GPU events: the reference writes no report
      return Error::success();
    // libxlsxwriter writes a path, not a stream: a temporary next to the
    // target, renamed into place (as writeFileAtomically does).
    SmallString<256> Final(Ctx.OutputDir);
    sys::path::append(Final, "perf_report.xlsx");
    SmallString<256> Tmp;
    int FD;
    if (std::error_code EC =
            sys::fs::createUniqueFile(Final + ".tmp-%%%%%%", FD, Tmp))
      return createStringError(EC, "cannot create a temporary next to '" +
                                       Final + "': " + EC.message());
    sys::fs::closeFile(FD);
    if (Error E = writeWorkbook(Tmp, Sheets)) {
      sys::fs::remove(Tmp);
      return E;
    }
    if (std::error_code EC = sys::fs::rename(Tmp, Final)) {
      sys::fs::remove(Tmp);
      return createStringError(EC, "cannot rename to '" + Final +
                                       "': " + EC.message());
    }
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Emitter> createXlsxEmitter() {
  return std::make_unique<XlsxEmitter>();
}

} // namespace tl
