//===- Csv.h - CSV writer (pandas to_csv rules) and reader -----*- C++ -*-===//
#ifndef TL_SUPPORT_CSV_H
#define TL_SUPPORT_CSV_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tl {

/// Quote a field like Python's csv.QUOTE_MINIMAL: only when it contains
/// ',', '"', '\n' or '\r'; embedded quotes are doubled.
std::string csvQuote(llvm::StringRef Field);

/// A cell as the CSV writer puts it: NUL bytes removed, and a leading `'`
/// before text a spreadsheet would run as a formula (OWASP's rule: '=', '+',
/// '@', tab, CR, or '-' when the cell is not a number). Plain cells, and so
/// every cell of the reference's own outputs, are unchanged.
std::string csvSafeText(llvm::StringRef Field);

/// Writes rows terminated by "\n" (pandas to_csv default), each cell
/// through csvSafeText().
class CsvWriter {
public:
  explicit CsvWriter(llvm::raw_ostream &OS) : OS(OS) {}
  void writeRow(llvm::ArrayRef<std::string> Fields);

private:
  llvm::raw_ostream &OS;
};

using CsvRow = std::vector<std::string>;

/// Parse CSV text (RFC 4180 style: quoted fields may hold commas, doubled
/// quotes and newlines). Accepts "\n" and "\r\n" line ends. A final line
/// without terminator counts; a trailing empty line does not.
llvm::Expected<std::vector<CsvRow>> parseCsv(llvm::StringRef Text);

} // namespace tl

#endif // TL_SUPPORT_CSV_H
