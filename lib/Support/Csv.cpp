//===- Csv.cpp - CSV writer (pandas to_csv rules) and reader ----------------===//
#include "tl/Support/Csv.h"

#include "llvm/ADT/STLExtras.h"

using namespace tl;

std::string tl::csvQuote(llvm::StringRef Field) {
  if (Field.find_first_of(",\"\n\r") == llvm::StringRef::npos)
    return Field.str();
  std::string Out = "\"";
  for (char C : Field) {
    if (C == '"')
      Out += '"';
    Out += C;
  }
  Out += '"';
  return Out;
}

/// A cell a spreadsheet would run as a formula: it begins with '=', '+',
/// '@', a tab or a carriage return, or with '-' without being a number
/// ("-1.5e-05", "-inf" stay as they are: numbers are cells too).
static bool isFormulaLike(llvm::StringRef F) {
  if (F.empty())
    return false;
  switch (F[0]) {
  case '=':
  case '+':
  case '@':
  case '\t':
  case '\r':
    return true;
  case '-': {
    double D;
    return F.getAsDouble(D) && F != "-inf" && F != "-nan";
  }
  default:
    return false;
  }
}

std::string tl::csvSafeText(llvm::StringRef Field) {
  std::string Out;
  if (isFormulaLike(Field))
    Out += '\'';
  Out.reserve(Out.size() + Field.size());
  for (char C : Field)
    if (C != '\0')
      Out += C;
  return Out;
}

void CsvWriter::writeRow(llvm::ArrayRef<std::string> Fields) {
  // Python's csv module quotes a lone empty field so the row is not blank.
  if (Fields.size() == 1 && Fields[0].empty()) {
    OS << "\"\"\n";
    return;
  }
  for (size_t I = 0; I < Fields.size(); ++I) {
    if (I)
      OS << ',';
    // csvQuote's rule, written in place (no string per cell).
    llvm::StringRef F = Fields[I];
    // Text from the trace must not run as a spreadsheet formula or carry
    // NULs; the rare cell that needs it is rewritten first.
    std::string Safe;
    if (isFormulaLike(F) || F.contains('\0')) {
      Safe = csvSafeText(F);
      F = Safe;
    }
    // (A plain loop: find_first_of builds a character set per call.)
    bool Special = llvm::any_of(F, [](char C) {
      return C == ',' || C == '"' || C == '\n' || C == '\r';
    });
    if (!Special) {
      OS << F;
      continue;
    }
    OS << '"';
    for (size_t P = 0;;) {
      size_t Q = F.find('"', P);
      OS << F.slice(P, Q);
      if (Q == llvm::StringRef::npos)
        break;
      OS << "\"\"";
      P = Q + 1;
    }
    OS << '"';
  }
  OS << '\n';
}

llvm::Expected<std::vector<CsvRow>> tl::parseCsv(llvm::StringRef Text) {
  std::vector<CsvRow> Rows;
  CsvRow Row;
  std::string Field;
  bool InQuotes = false, RowStarted = false;
  size_t QuoteStart = 0;
  for (size_t I = 0, N = Text.size(); I < N; ++I) {
    char C = Text[I];
    if (InQuotes) {
      if (C == '"') {
        if (I + 1 < N && Text[I + 1] == '"') {
          Field += '"';
          ++I;
        } else {
          InQuotes = false;
        }
      } else {
        Field += C;
      }
      continue;
    }
    switch (C) {
    case '"':
      InQuotes = true;
      QuoteStart = I;
      RowStarted = true;
      break;
    case ',':
      Row.push_back(std::move(Field));
      Field.clear();
      RowStarted = true;
      break;
    case '\r':
      if (I + 1 < N && Text[I + 1] == '\n')
        break; // handled by '\n'
      [[fallthrough]];
    case '\n':
      Row.push_back(std::move(Field));
      Field.clear();
      Rows.push_back(std::move(Row));
      Row.clear();
      RowStarted = false;
      break;
    default:
      Field += C;
      RowStarted = true;
    }
  }
  if (InQuotes)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "offset %zu: unterminated quoted field",
                                   QuoteStart);
  if (RowStarted) {
    Row.push_back(std::move(Field));
    Rows.push_back(std::move(Row));
  }
  return Rows;
}
