//===- CsvTable.h - A table printed like pandas DataFrame.to_csv -*- C++ -*-===//
//
// The perf-report CSVs (perf_report_csvs/) are pandas DataFrames written
// with to_csv(index=False). A CsvTable holds named columns of Python values
// (PyValue) and prints them with pandas' rules (spec
// tracelens-perf-report.md §6.12):
//   * Float -> repr ("0.1", "1e-05", "8.0"); None / NaN -> empty field;
//   * an int column with a missing value is float64 in pandas, so its ints
//     print as "8.0" (the same for a column mixing ints and floats);
//   * Bool -> True/False; Str -> bare text; tuples/lists/dicts -> str();
//   * minimal quoting, "\n" line ends; a table with no columns prints "\n".
// Pre-formatted Python text (e.g. kernel_details_summary with np.float64)
// goes in as PyValue::str.
//
//===----------------------------------------------------------------------===//
#ifndef TL_REPORT_CSVTABLE_H
#define TL_REPORT_CSVTABLE_H

#include "tl/Support/PyValue.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tl {

class CsvTable {
public:
  CsvTable() = default;
  explicit CsvTable(std::vector<std::string> Columns)
      : Columns(std::move(Columns)) {}

  const std::vector<std::string> &columns() const { return Columns; }
  size_t numRows() const { return Rows.size(); }
  bool empty() const { return Rows.empty(); }

  /// Append a row; it must have one cell per column.
  void addRow(std::vector<PyValue> Cells);
  const std::vector<PyValue> &row(size_t I) const { return Rows[I]; }
  /// Insert a column before position Pos with one value per row.
  void insertColumn(size_t Pos, std::string Name, std::vector<PyValue> Values);
  /// Append the rows of a table with the same columns.
  void append(const CsvTable &Other);

  /// pandas to_csv(index=False) text.
  void write(llvm::raw_ostream &OS) const;
  std::string toString() const;

private:
  std::vector<std::string> Columns;
  std::vector<std::vector<PyValue>> Rows;
};

/// Cell helpers.
inline PyValue pyFloat(double D) { return PyValue::real(D); }
inline PyValue pyInt(int64_t I) { return PyValue::integer(I); }
inline PyValue pyText(llvm::StringRef S) { return PyValue::str(S); }
/// None for nullopt.
PyValue pyOptFloat(std::optional<double> D);
PyValue pyOptStr(const std::optional<std::string> &S);
PyValue pyOptInt(std::optional<int64_t> I);

/// Write Dir/<Name> atomically (Name includes ".csv").
llvm::Error writeCsvTable(llvm::StringRef Dir, llvm::StringRef Name,
                          const CsvTable &Table);

/// A table printed as CsvTable prints it, from rows made on demand rather
/// than held: Rows calls its argument once per row, in order, and is
/// called twice (pandas' column dtypes need every row before the first is
/// printed). For tables of a row per rank and collective of a job, which
/// as PyValue rows would take ~1 KB each.
using CsvRowSink = llvm::function_ref<void(const std::vector<PyValue> &)>;
using CsvRows = llvm::function_ref<void(CsvRowSink)>;
void writeCsvRows(llvm::raw_ostream &OS, llvm::ArrayRef<std::string> Columns,
                  CsvRows Rows);
/// The same into Dir/<Name>, atomically.
llvm::Error writeCsvRows(llvm::StringRef Dir, llvm::StringRef Name,
                         llvm::ArrayRef<std::string> Columns, CsvRows Rows);

} // namespace tl

#endif // TL_REPORT_CSVTABLE_H
