//===- CsvTest.cpp - CSV quoting and parsing -------------------------------===//
#include "tl/Support/Csv.h"

#include "gtest/gtest.h"

using namespace tl;

TEST(Csv, MinimalQuoting) {
  // Python csv.writer(QUOTE_MINIMAL) output, as pandas to_csv writes it.
  EXPECT_EQ(csvQuote("plain"), "plain");
  EXPECT_EQ(csvQuote("[[1, 2]]"), "\"[[1, 2]]\"");
  EXPECT_EQ(csvQuote("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csvQuote("a\nb"), "\"a\nb\"");
  EXPECT_EQ(csvQuote("Kernel Time (\xc2\xb5s)_sum"), "Kernel Time (\xc2\xb5s)_sum");
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  CsvWriter W(OS);
  W.writeRow({"a", "", "1,2"});
  W.writeRow({""});
  OS.flush();
  EXPECT_EQ(Out, "a,,\"1,2\"\n\"\"\n");
}

TEST(Csv, ParseRoundTrip) {
  auto Rows = parseCsv("name,x\r\n\"a,\"\"b\"\"\nc\",2\n,\n\"\"\n");
  ASSERT_TRUE(!!Rows);
  ASSERT_EQ(Rows->size(), 4u);
  EXPECT_EQ((*Rows)[0], (CsvRow{"name", "x"}));
  EXPECT_EQ((*Rows)[1], (CsvRow{"a,\"b\"\nc", "2"}));
  EXPECT_EQ((*Rows)[2], (CsvRow{"", ""}));
  EXPECT_EQ((*Rows)[3], (CsvRow{""}));
  auto NoEol = parseCsv("a,b");
  ASSERT_TRUE(!!NoEol);
  EXPECT_EQ(NoEol->size(), 1u);
}

TEST(Csv, UnterminatedQuote) {
  auto Rows = parseCsv("a,\"b\n");
  ASSERT_FALSE(!!Rows);
  EXPECT_EQ(llvm::toString(Rows.takeError()),
            "offset 2: unterminated quoted field");
}

// Trace text that a spreadsheet would run gets a leading quote (issue 25);
// numbers, negative ones included, and plain text are left alone.
TEST(Csv, FormulaCellsNeutralised) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  CsvWriter W(OS);
  W.writeRow({"=HYPERLINK(\"x\")", "+1+1", "@SUM(A1)", "-2+3", "-1.5e-05",
              "-inf", "\tx", "a=b", "0"});
  EXPECT_EQ(OS.str(), "\"'=HYPERLINK(\"\"x\"\")\",'+1+1,'@SUM(A1),'-2+3,"
                      "-1.5e-05,-inf,'\tx,a=b,0\n");
}

TEST(Csv, NulBytesRemoved) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  CsvWriter W(OS);
  W.writeRow({std::string("ab\0c", 4), std::string("=\0", 2)});
  EXPECT_EQ(OS.str(), "abc,'=\n");
  EXPECT_EQ(csvSafeText(std::string("x\0", 2)), "x");
}
