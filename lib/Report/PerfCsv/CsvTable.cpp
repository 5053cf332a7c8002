//===- CsvTable.cpp - A table printed like pandas DataFrame.to_csv -------===//
#include "tl/Report/CsvTable.h"

#include "tl/Report/Emitter.h"
#include "tl/Support/Csv.h"
#include "tl/Support/PyFormat.h"

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>

using namespace tl;

void CsvTable::addRow(std::vector<PyValue> Cells) {
  assert(Cells.size() == Columns.size() && "row width != column count");
  Rows.push_back(std::move(Cells));
}

void CsvTable::insertColumn(size_t Pos, std::string Name,
                            std::vector<PyValue> Values) {
  assert(Values.size() == Rows.size() && "one value per row");
  Columns.insert(Columns.begin() + Pos, std::move(Name));
  for (size_t I = 0; I < Rows.size(); ++I)
    Rows[I].insert(Rows[I].begin() + Pos, std::move(Values[I]));
}

void CsvTable::append(const CsvTable &Other) {
  assert(Other.Columns == Columns && "appending a table of other columns");
  Rows.insert(Rows.end(), Other.Rows.begin(), Other.Rows.end());
}

PyValue tl::pyOptFloat(std::optional<double> D) {
  return D ? PyValue::real(*D) : PyValue::none();
}
PyValue tl::pyOptStr(const std::optional<std::string> &S) {
  return S ? PyValue::str(*S) : PyValue::none();
}
PyValue tl::pyOptInt(std::optional<int64_t> I) {
  return I ? PyValue::integer(*I) : PyValue::none();
}

namespace {
/// pandas' dtype of each column, from every row: ints become float64 next
/// to a missing value or a float.
class ColumnDtypes {
public:
  explicit ColumnDtypes(size_t N) : Int(N), None(N), Float(N), Other(N) {}
  void add(const std::vector<PyValue> &Row) {
    for (size_t C = 0; C < Row.size(); ++C) {
      switch (Row[C].kind()) {
      case PyValue::Kind::Int:
        Int[C] = true;
        break;
      case PyValue::Kind::None:
        None[C] = true;
        break;
      case PyValue::Kind::Float:
        Float[C] = true;
        break;
      default:
        Other[C] = true;
      }
    }
  }
  std::vector<bool> intAsFloat() const {
    std::vector<bool> Out(Int.size());
    for (size_t C = 0; C < Int.size(); ++C)
      Out[C] = Int[C] && !Other[C] && (None[C] || Float[C]);
    return Out;
  }

private:
  std::vector<bool> Int, None, Float, Other;
};

/// Prints rows once the dtypes are known.
class RowPrinter {
public:
  RowPrinter(llvm::raw_ostream &OS, llvm::ArrayRef<std::string> Columns,
             std::vector<bool> IntAsFloat)
      : W(OS), IntAsFloat(std::move(IntAsFloat)), Fields(Columns.size()) {
    W.writeRow(Columns);
  }
  void print(const std::vector<PyValue> &R) {
    assert(R.size() == Fields.size() && "row width != column count");
    for (size_t C = 0; C < Fields.size(); ++C) {
      const PyValue &V = R[C];
      switch (V.kind()) {
      case PyValue::Kind::None:
        Fields[C].clear();
        break;
      case PyValue::Kind::Float:
        Fields[C] =
            std::isnan(V.getFloat()) ? std::string() : pyRepr(V.getFloat());
        break;
      case PyValue::Kind::Int:
        Fields[C] = IntAsFloat[C] ? pyRepr(double(V.getInt()))
                                  : std::to_string(V.getInt());
        break;
      default:
        Fields[C] = tl::pyStr(V);
      }
    }
    W.writeRow(Fields);
  }

private:
  CsvWriter W;
  std::vector<bool> IntAsFloat;
  std::vector<std::string> Fields;
};
} // namespace

void CsvTable::write(llvm::raw_ostream &OS) const {
  if (Columns.empty()) {
    OS << "\n";
    return;
  }
  ColumnDtypes Dtypes(Columns.size());
  for (const auto &R : Rows)
    Dtypes.add(R);
  RowPrinter P(OS, Columns, Dtypes.intAsFloat());
  for (const auto &R : Rows)
    P.print(R);
}

void tl::writeCsvRows(llvm::raw_ostream &OS,
                      llvm::ArrayRef<std::string> Columns, CsvRows Rows) {
  if (Columns.empty()) {
    OS << "\n";
    return;
  }
  ColumnDtypes Dtypes(Columns.size());
  Rows([&](const std::vector<PyValue> &R) { Dtypes.add(R); });
  RowPrinter P(OS, Columns, Dtypes.intAsFloat());
  Rows([&](const std::vector<PyValue> &R) { P.print(R); });
}

llvm::Error tl::writeCsvRows(llvm::StringRef Dir, llvm::StringRef Name,
                             llvm::ArrayRef<std::string> Columns,
                             CsvRows Rows) {
  return writeFileAtomically(Dir, Name, [&](llvm::raw_ostream &OS) {
    writeCsvRows(OS, Columns, Rows);
  });
}

std::string CsvTable::toString() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  write(OS);
  OS.flush();
  return S;
}

llvm::Error tl::writeCsvTable(llvm::StringRef Dir, llvm::StringRef Name,
                              const CsvTable &Table) {
  return writeFileAtomically(Dir, Name,
                             [&](llvm::raw_ostream &OS) { Table.write(OS); });
}
