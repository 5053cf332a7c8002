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

void CsvTable::write(llvm::raw_ostream &OS) const {
  if (Columns.empty()) {
    OS << "\n";
    return;
  }
  // pandas dtype of each column: ints become float64 next to a missing
  // value or a float.
  std::vector<bool> IntAsFloat(Columns.size(), false);
  for (size_t C = 0; C < Columns.size(); ++C) {
    bool HasInt = false, HasNone = false, HasFloat = false, HasOther = false;
    for (const auto &R : Rows) {
      switch (R[C].kind()) {
      case PyValue::Kind::Int:
        HasInt = true;
        break;
      case PyValue::Kind::None:
        HasNone = true;
        break;
      case PyValue::Kind::Float:
        HasFloat = true;
        break;
      default:
        HasOther = true;
      }
    }
    IntAsFloat[C] = HasInt && !HasOther && (HasNone || HasFloat);
  }
  CsvWriter W(OS);
  W.writeRow(Columns);
  std::vector<std::string> Fields(Columns.size());
  for (const auto &R : Rows) {
    for (size_t C = 0; C < Columns.size(); ++C) {
      const PyValue &V = R[C];
      switch (V.kind()) {
      case PyValue::Kind::None:
        Fields[C].clear();
        break;
      case PyValue::Kind::Float:
        Fields[C] = std::isnan(V.getFloat()) ? std::string() : pyRepr(V.getFloat());
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
