//===- TypedContractTest.cpp - Typed facts in, report lines out ------------===//
//
// The pass → report contract (docs/ReportFormat.md): a finding built with
// FindingBuilder's typed setters and nothing else gives the analysis.md
// lines and priority rollups worked out by hand below; the report finds no
// fact by its metric name.
//
//===----------------------------------------------------------------------===//
#include "PItemMarkdown.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Import/Importer.h"
#include "tl/Report/FindingSink.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace tl;

namespace {

std::string card(const PItem &P, const ReportModel &M, bool Detail) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (Detail)
    renderDetail(OS, P, M);
  else
    renderCard(OS, P, M);
  return S;
}

// A fusion candidate: score 1.2 / 2.5 / 3.0 % of E2E, 0.5 ms over 4
// instances, 3 kernels of which 2 modelled, memory-bound elementwise chain,
// high confidence. By hand: the card's impact line names the score (2.5)
// and its coverage (2 of 3), the marker carries low/mid/high as Python
// prints round(x, 2) floats, the detail heading has "(0.5 ms, 4
// instances)", the estimate block has 3 - 2 = 1 kernel on measured time.
TEST(TypedContract, FusionCardFromTypedFacts) {
  FindingSink S("fusion-pass");
  S.fusion("kernel_fusion", "Fuse add+mul")
      .score(1.2, 2.5, 3.0)
      .time(0.5)
      .instances(4)
      .kernels(3)
      .modeledKernels(2)
      .boundType("memory")
      .fusionType("elementwise chain")
      .confidence("high")
      .estimation("roofline")
      .impact(1.2, 2.5, 3.0, "roofline");
  std::vector<Finding> Fs = S.take();
  ReportModel M = ReportModel::build(Fs, Utilization(), {});
  ASSERT_EQ(M.items(Tier::Fusion).size(), 1u);
  const PItem &P = M.items(Tier::Fusion)[0];
  std::string C = card(P, M, false);
  EXPECT_NE(C.find("<!-- impact-begin kind=p_item low=1.2 mid=2.5 high=3.0 "
                   "-->\n**Impact**: impact_score: 2.5 (perf-model coverage "
                   "2/3 kernels)\n"),
            std::string::npos)
      << C;
  EXPECT_NE(C.find("**Confidence**: high — from the kernel names"),
            std::string::npos)
      << C;
  EXPECT_NE(C.find("A recurring sequence of 3 kernels could run as one "
                   "kernel; it occurs 4 times and takes "),
            std::string::npos)
      << C;
  std::string D = card(P, M, true);
  EXPECT_NE(D.find(" P1: Fuse add+mul (0.5 ms, 4 instances)\n"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("- Coverage: 2 of 3 kernels modelled (1 kernel(s) use "
                   "measured trace time)\n- Fusion pattern: memory-bound, "
                   "elementwise chain\n- Confidence: high\n"),
            std::string::npos)
      << D;
}

// Compute findings of category key "gemm" (display "GEMM"):
//   A quantified, 1.0 / 2.0 / 3.0, 3 members, library hipBLASLt
//   B quantified, 0.5 / 1.25 / 2.0, 2 members, rank 2
//   H heuristic, 0.64 / 1.28 / 1.92, 7 members, 4.25 % of E2E
//   R quantified, reference face only, 0.25 / 0.75 / 1.0, 4 members
// tl's rollup (heuristics excluded): low 1.5, mid 3.25, high 5.0, 5 ops.
// The reference face adds R: low 1.75, mid 4.0, high 6.0, 9 ops. H's card
// warns with its share of the window, "(4.25%)"; A's title carries
// " (hipBLASLt)".
TEST(TypedContract, ComputeRollupsAndCardsFromTypedFacts) {
  FindingSink S("gemm-pass");
  S.compute("GEMM", "A").categoryKey("gemm").score(1.0, 2.0, 3.0, "")
      .estimateMethod("quantified").members(3).library("hipBLASLt")
      .boundType("compute");
  S.compute("GEMM", "B").categoryKey("gemm").score(0.5, 1.25, 2.0, "")
      .estimateMethod("quantified").members(2).rank(2);
  S.compute("GEMM", "H").categoryKey("gemm").score(0.64, 1.28, 1.92, "")
      .estimateMethod("heuristic").members(7).share(4.25).time(12.5);
  S.compute("GEMM", "R").categoryKey("gemm").score(0.25, 0.75, 1.0, "")
      .estimateMethod("quantified").members(4)
      .onlyIn(ReportFace::Reference);
  std::vector<Finding> Fs = S.take();
  CategoryInfo Gemm;
  Gemm.Key = "gemm";
  Gemm.DisplayName = "GEMM";
  Gemm.GpuKernelTimeMs = 10;

  ReportModel Tl = ReportModel::build(Fs, Utilization(), {Gemm});
  ASSERT_EQ(Tl.rollups().size(), 1u);
  const CategoryRollup &R = Tl.rollups()[0];
  EXPECT_EQ(R.Category, "gemm");
  EXPECT_DOUBLE_EQ(R.Low, 1.5);
  EXPECT_DOUBLE_EQ(R.Mid, 3.25);
  EXPECT_DOUBLE_EQ(R.High, 5.0);
  EXPECT_EQ(R.OperationCount, 5u);
  ASSERT_EQ(Tl.items(Tier::Compute).size(), 3u);

  ReportModel Ref = ReportModel::build(Fs, Utilization(), {Gemm}, {},
                                       ReportFace::Reference);
  ASSERT_EQ(Ref.rollups().size(), 1u);
  EXPECT_DOUBLE_EQ(Ref.rollups()[0].Low, 1.75);
  EXPECT_DOUBLE_EQ(Ref.rollups()[0].Mid, 4.0);
  EXPECT_DOUBLE_EQ(Ref.rollups()[0].High, 6.0);
  EXPECT_EQ(Ref.rollups()[0].OperationCount, 9u);

  for (const PItem &P : Tl.items(Tier::Compute)) {
    std::string C = card(P, Tl, false);
    if (P.F->Title == "H") {
      EXPECT_NE(C.find("impact is derived from its E2E GPU-time share "
                       "(4.25%), not a gap projection."),
                std::string::npos)
          << C;
    }
    if (P.F->Title == "A") {
      EXPECT_NE(C.find(": A (hipBLASLt)\n"), std::string::npos) << C;
    }
    if (P.F->Title == "B") {
      EXPECT_EQ(P.CategoryRank, 2u);
    }
  }
}

// A third-party pass hands its own category metrics over typed; the
// report's category-metrics emitter writes them (json.dumps(indent=2)
// spelling, by hand below), and refuses a key that would leave
// category_data/. The pass itself gets no path to write.
TEST(TypedContract, PluginMetricsWrittenByTheReport) {
  FindingSink S("foreach-kernels");
  S.categoryMetrics(
      "foreach_kernels",
      PyValue::dict({{"category", PyValue::str("foreach_kernels")},
                     {"total_time_ms", PyValue::real(0.25)},
                     {"operation_count", PyValue::integer(2)},
                     {"operations", PyValue::list({})}}));
  EXPECT_TRUE(S.takeArtifacts().empty());
  ReportData D = S.takeReportData();
  ASSERT_EQ(D.Metrics.size(), 1u);
  EXPECT_EQ(D.Metrics[0].Pass, "foreach-kernels");

  auto T = importTraceFromBuffer("{\"traceEvents\": []}", "t.json");
  ASSERT_TRUE(bool(T));
  AnalysisManager AM(*T);
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("typed-contract", Dir));
  ReportContext Ctx{*T, AM, {}, {}, {}, "", std::string(Dir), "", "t.json"};
  Ctx.Data = &D;
  std::unique_ptr<Emitter> E = createCategoryMetricsEmitter();
  ASSERT_FALSE(bool(E->emit(Ctx)));
  llvm::SmallString<128> File(Dir);
  llvm::sys::path::append(File, "category_data",
                          "foreach_kernels_metrics.json");
  auto Buf = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(bool(Buf));
  EXPECT_EQ((*Buf)->getBuffer().str(),
            "{\n  \"category\": \"foreach_kernels\",\n  \"total_time_ms\": "
            "0.25,\n  \"operation_count\": 2,\n  \"operations\": []\n}");

  FindingSink Bad("bad-pass");
  Bad.categoryMetrics("../escape", PyValue::dict({}));
  ReportData BD = Bad.takeReportData();
  Ctx.Data = &BD;
  llvm::Error Err = E->emit(Ctx);
  ASSERT_TRUE(bool(Err));
  EXPECT_EQ(llvm::toString(std::move(Err)),
            "pass 'bad-pass' handed over metrics with an unsafe category key "
            "'../escape'");
  llvm::sys::fs::remove_directories(Dir);
}

// The multi-kernel and kernel-fusion passes hand their category_data/
// files over typed; the report writes them in tl's spelling (llvm::json,
// indent 2: UTF-8 as is, "\n" at the end), a candidate's input_dims being
// the trace's own text on one line. The expected bytes are written by hand;
// the metrics document in the Python spelling escapes the same name.
TEST(TypedContract, CategoryDataWrittenByTheReport) {
  FindingSink S("multi-kernel");
  PyValue Doc = PyValue::dict(
      {{"memcpy_summary",
        PyValue::dict({{"total_count", PyValue::integer(0)},
                       {"by_direction", PyValue::dict({})}})},
       {"ratio", PyValue::none()},
       {"name", PyValue::str("nccl\xc3\xa9")}});
  S.multiKernelData(Doc);
  S.categoryMetrics("multi_kernel", Doc, /*TrailingNewline=*/true,
                    JsonSpelling::Tl);
  S.categoryMetrics("py", PyValue::dict({{"name", PyValue::str("\xc3\xa9")},
                                         {"t", PyValue::real(2.0)}}));
  S.fusionCandidates(
      {{PyValue::dict({{"module_name", PyValue::str("m")},
                       {"kernels", PyValue::list({PyValue::dict(
                                       {{"dur_us", PyValue::real(1.5)}})})},
                       {"has_fused_kernel", PyValue::boolean(false)}}),
        "[[4,8]]"},
       {PyValue::dict({{"module_name", PyValue::str("n")}}), ""}});
  ReportData D = S.takeReportData();
  EXPECT_EQ(D.fusionCandidateCount(), 2u);

  auto T = importTraceFromBuffer("{\"traceEvents\": []}", "t.json");
  ASSERT_TRUE(bool(T));
  AnalysisManager AM(*T);
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("typed-data", Dir));
  ReportContext Ctx{*T, AM, {}, {}, {}, "", std::string(Dir), "", "t.json"};
  Ctx.Data = &D;
  for (auto Make : {createCategoryDataEmitter, createCategoryMetricsEmitter}) {
    llvm::Error E = Make()->emit(Ctx);
    ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  }
  auto Read = [&](llvm::StringRef Name) {
    llvm::SmallString<128> File(Dir);
    llvm::sys::path::append(File, "category_data", Name);
    auto Buf = llvm::MemoryBuffer::getFile(File);
    return Buf ? (*Buf)->getBuffer().str() : "<missing " + Name.str() + ">";
  };
  std::string Tl = "{\n"
                   "  \"memcpy_summary\": {\n"
                   "    \"total_count\": 0,\n"
                   "    \"by_direction\": {}\n"
                   "  },\n"
                   "  \"ratio\": null,\n"
                   "  \"name\": \"nccl\xc3\xa9\"\n"
                   "}\n";
  EXPECT_EQ(Read("multi_kernel_data.json"), Tl);
  EXPECT_EQ(Read("multi_kernel_metrics.json"), Tl);
  EXPECT_EQ(Read("py_metrics.json"),
            "{\n  \"name\": \"\\u00e9\",\n  \"t\": 2.0\n}");
  EXPECT_EQ(Read("fusion_candidates.json"), "[\n"
                                            "  {\n"
                                            "    \"module_name\": \"m\",\n"
                                            "    \"kernels\": [\n"
                                            "      {\n"
                                            "        \"dur_us\": 1.5\n"
                                            "      }\n"
                                            "    ],\n"
                                            "    \"has_fused_kernel\": false,\n"
                                            "    \"input_dims\": [[4,8]]\n"
                                            "  },\n"
                                            "  {\n"
                                            "    \"module_name\": \"n\",\n"
                                            "    \"input_dims\": null\n"
                                            "  }\n"
                                            "]\n");
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
