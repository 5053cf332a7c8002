//===- CsvTableTest.cpp - pandas to_csv formatting of CsvTable ------------===//
#include "tl/Report/CsvTable.h"

#include "gtest/gtest.h"

#include "llvm/Support/raw_ostream.h"

using namespace tl;

TEST(CsvTable, PandasCellFormatting) {
  CsvTable T({"name", "n", "x", "shape", "flag"});
  T.addRow({pyText("a,b"), pyInt(8), pyFloat(0.1), PyValue::intTuple({5}),
            PyValue::boolean(true)});
  T.addRow({pyText("say \"hi\""), PyValue::none(), pyFloat(1e-5),
            PyValue::tuple({}), PyValue::boolean(false)});
  // The int column holds a None -> pandas makes it float64: 8 -> 8.0.
  EXPECT_EQ(T.toString(), "name,n,x,shape,flag\n"
                          "\"a,b\",8.0,0.1,\"(5,)\",True\n"
                          "\"say \"\"hi\"\"\",,1e-05,(),False\n");
}

TEST(CsvTable, IntColumnStaysInt) {
  CsvTable T({"count", "ms"});
  T.addRow({pyInt(3), pyFloat(2.0)});
  T.addRow({pyInt(4), pyFloat(1e16)});
  EXPECT_EQ(T.toString(), "count,ms\n3,2.0\n4,1e+16\n");
}

TEST(CsvTable, EmptyFrames) {
  // A frame without columns is a single newline (short_kernels_summary of
  // torch_compile_triton); with columns, just the header.
  EXPECT_EQ(CsvTable().toString(), "\n");
  EXPECT_EQ(CsvTable({"bin_start", "bin_end", "count"}).toString(),
            "bin_start,bin_end,count\n");
}

TEST(CsvTable, InsertColumnAndAppend) {
  CsvTable A({"type", "time ms"});
  A.addRow({pyText("busy_time"), pyFloat(1.5)});
  A.insertColumn(2, "is_recompute", {PyValue::boolean(false)});
  CsvTable B({"type", "time ms", "is_recompute"});
  B.addRow({pyText("busy_time"), pyFloat(0.5), PyValue::boolean(true)});
  A.append(B);
  EXPECT_EQ(A.toString(), "type,time ms,is_recompute\n"
                          "busy_time,1.5,False\nbusy_time,0.5,True\n");
}

TEST(CsvTable, ContainersUsePythonStr) {
  CsvTable T({"Categories", "args"});
  T.addRow({PyValue::list({PyValue::str("GEMM")}),
            PyValue::tuple({PyValue::str("c10::BFloat16"), PyValue::none()})});
  EXPECT_EQ(T.toString(),
            "Categories,args\n['GEMM'],\"('c10::BFloat16', None)\"\n");
}

TEST(CsvTable, RowsMadeOnDemandPrintAsTheTable) {
  // The int column's None is in the last row: the dtype pass must see it
  // before the first row prints (8 -> 8.0), as the held table does.
  std::vector<std::vector<PyValue>> Rows = {
      {pyText("a,b"), pyInt(8), pyFloat(0.1)},
      {pyText("c"), pyInt(9), pyFloat(2.0)},
      {pyText("d"), PyValue::none(), pyFloat(1e-5)}};
  std::string Streamed;
  llvm::raw_string_ostream OS(Streamed);
  int Passes = 0;
  writeCsvRows(OS, {"name", "n", "x"}, [&](CsvRowSink Sink) {
    ++Passes;
    for (const std::vector<PyValue> &R : Rows)
      Sink(R);
  });
  EXPECT_EQ(Passes, 2);
  EXPECT_EQ(Streamed, "name,n,x\n\"a,b\",8.0,0.1\nc,9.0,2.0\nd,,1e-05\n");
  CsvTable T({"name", "n", "x"});
  for (const std::vector<PyValue> &R : Rows)
    T.addRow(R);
  EXPECT_EQ(Streamed, T.toString());

  std::string NoColumns;
  llvm::raw_string_ostream NC(NoColumns);
  writeCsvRows(NC, {}, [](CsvRowSink) {});
  EXPECT_EQ(NoColumns, "\n");
}
