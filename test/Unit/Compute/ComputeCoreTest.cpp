//===- ComputeCoreTest.cpp - Efficiency, impact, banding, grouping --------===//
//
// Hand-worked rows for the shared compute core (tracelens-analysis §5.3,
// §5.7, §5.8). Where a row comes from a reference output the file is named.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ComputeCore.h"

#include "gtest/gtest.h"

using namespace tl;
using namespace tl::compute;

namespace {

Peaks h100() {
  Peaks P;
  P.HbmTbs = 3350 / 1000.0;
  P.MaxTflops = {{"matrix_bf16", 989}, {"matrix_fp32", 495},
                 {"vector_fp32", 67}};
  return P;
}

TextTable table(std::vector<std::string> Cols,
                std::vector<std::vector<std::string>> Rows) {
  TextTable T;
  T.Columns = std::move(Cols);
  T.Rows = std::move(Rows);
  return T;
}

OpRecord op(std::string Name, double TimeMs, std::optional<double> Eff,
            std::optional<double> PctTotal, std::string Bound = "memory") {
  OpRecord O;
  O.Name = std::move(Name);
  O.TimeMs = TimeMs;
  O.Eff.EfficiencyPercent = Eff;
  O.Eff.BoundType = Eff ? Bound : "";
  O.PercentOfTotal = PctTotal;
  return O;
}

// h100/gaunernst_bert-small-uncased agent reference, gemm_metrics.json,
// operations[0] (aten::addmm, 17 calls), from its unified_perf_summary row.
TEST(ComputeEfficiency, ReferenceRow) {
  TextTable T = table({"TFLOPS/s_mean", "TB/s_mean", "FLOPS/Byte",
                       "Compute Spec", "Roofline Bound", "Pct Roofline_mean"},
                      {{"12.747460835993481", "0.14024191474990233",
                        "90.89622641509433", "matrix_bf16", "MEMORY_BOUND",
                        "4.18632581342992"}});
  Efficiency E = computeEfficiency(RowView(T, 0), h100());
  EXPECT_EQ(*E.TflopsAchieved, 12.75);
  EXPECT_EQ(*E.TbsAchieved, 0.14);
  EXPECT_EQ(*E.FlopsPerByte, 90.9);
  EXPECT_EQ(*E.EfficiencyPercent, 4.19);
  EXPECT_EQ(E.BoundType, "memory");
  EXPECT_EQ(E.ComputeSpec, "matrix_bf16");
  // Arch peaks are ints in the arch file: round(989, 2) stays 989.
  EXPECT_EQ(pyJsonDumps(E.ResolvedPeakMaf), "989");
  EXPECT_EQ(*E.ResolvedPeakHbm, 3.35);
  EXPECT_FALSE(E.IsAnomaly);
  EXPECT_TRUE(E.Warning.empty());
}

TEST(ComputeEfficiency, SpecPeakAndAnomaly) {
  // vector_fp32 resolves to its own peak; 105 % is accepted silently,
  // 123.456 % is an anomaly with the reference's %.1f text.
  TextTable T = table({"Compute Spec", "Roofline Bound", "Pct Roofline_mean",
                       "FLOPS/Byte"},
                      {{"vector_fp32", "COMPUTE_BOUND", "105", "0"},
                       {"", "", "123.456", ""},
                       {"", "", "", ""}});
  Efficiency A = computeEfficiency(RowView(T, 0), h100());
  EXPECT_EQ(pyJsonDumps(A.ResolvedPeakMaf), "67");
  EXPECT_EQ(A.BoundType, "compute");
  EXPECT_FALSE(A.IsAnomaly);
  EXPECT_FALSE(A.FlopsPerByte); // zero -> null
  Efficiency B = computeEfficiency(RowView(T, 1), h100());
  EXPECT_TRUE(B.IsAnomaly);
  EXPECT_EQ(B.Warning,
            "[ANOMALY] Pct Roofline exceeds 110% (123.5%) - verify measurement");
  EXPECT_EQ(pyJsonDumps(B.ResolvedPeakMaf), "989"); // matrix_bf16 fallback
  Efficiency C = computeEfficiency(RowView(T, 2), Peaks());
  EXPECT_FALSE(C.EfficiencyPercent);
  EXPECT_EQ(pyJsonDumps(C.ResolvedPeakMaf), "1"); // no arch: 1
  EXPECT_FALSE(C.ResolvedPeakHbm);
}

TEST(ComputeImpact, QuantifiedLowMidHigh) {
  // Same op as above: eff 4.19 %, time_ms 0.099, E2E 3.907824951171875 ms.
  // gap_high = 1 - 0.0419 = 0.9581
  // high = 0.9581 * 0.099 / 3.907824951171875 * 100 = 2.4272 -> 2.43
  // mid  = 0.875 * ... = 2.1238 -> 2.12;  low = 0.75 * ... = 1.8204 -> 1.82
  // (reference: impact_score 2.12, low 1.82, high 2.43)
  std::vector<OpRecord> Ops = {op("aten::addmm", 0.099, 4.19, 2.53)};
  auto Est = estimateImpact(Ops, "gemm", 3.907824951171875);
  ASSERT_EQ(Est.size(), 1u);
  EXPECT_TRUE(Est[0].Quantified);
  EXPECT_EQ(Est[0].Mid, 2.12);
  EXPECT_EQ(Est[0].Low, 1.82);
  EXPECT_EQ(Est[0].High, 2.43);
  EXPECT_EQ(*Est[0].EfficiencyPct, 4.19);
  EXPECT_EQ(Est[0].BoundType, "memory");
  EXPECT_EQ(Est[0].Op, 0u);
}

TEST(ComputeImpact, HeuristicNoiseFloorFusionAnomaly) {
  std::vector<OpRecord> Ops;
  // Heuristic: 7.11 % of E2E -> 0.30 * 7.11 = 2.133 -> 2.13,
  // 0.15 * 7.11 = 1.0665 -> 1.07, 0.45 * 7.11 = 3.1995 -> 3.2
  // (b200 reference, other_metrics.json, vllm::moe_forward).
  Ops.push_back(op("vllm::moe_forward", 6.009, std::nullopt, 7.11));
  // Noise floor: gap 0.0001 * 0.001 ms / 100 ms * 100 = 1e-7 < 0.01.
  Ops.push_back(op("tiny", 0.001, 99.99, 0.0));
  // Fusion-flagged ops are skipped entirely.
  Ops.push_back(op("fused", 5.0, 10.0, 5.0));
  Ops.back().FusionCandidate = "LayerNorm";
  // Anomalous efficiency falls back to the heuristic: 2 % of E2E ->
  // 0.6 / 0.3 / 0.9.
  Ops.push_back(op("anomaly", 2.0, 150.0, 2.0));
  Ops.back().Eff.IsAnomaly = true;
  // Zero time: skipped.
  Ops.push_back(op("zero", 0.0, 50.0, 0.0));
  auto Est = estimateImpact(Ops, "other", 100.0);
  ASSERT_EQ(Est.size(), 2u);
  EXPECT_EQ(Est[0].Operation, "vllm::moe_forward");
  EXPECT_FALSE(Est[0].Quantified);
  EXPECT_EQ(Est[0].Mid, 2.13);
  EXPECT_EQ(Est[0].Low, 1.07);
  EXPECT_EQ(Est[0].High, 3.2);
  EXPECT_EQ(*Est[0].PercentOfTotal, 7.11);
  EXPECT_EQ(Est[1].Operation, "anomaly");
  EXPECT_FALSE(Est[1].Quantified);
  EXPECT_EQ(Est[1].Mid, 0.6);
  EXPECT_EQ(Est[1].Low, 0.3);
  EXPECT_EQ(Est[1].High, 0.9);
}

TEST(ComputeGrouping, Bands) {
  EXPECT_EQ(effBucket(std::nullopt), "unknown");
  EXPECT_EQ(effBucket(0.0), "0-30");
  EXPECT_EQ(effBucket(29.99), "0-30");
  EXPECT_EQ(effBucket(30.0), "30-60");
  EXPECT_EQ(effBucket(59.99), "30-60");
  EXPECT_EQ(effBucket(60.0), "60-100");
  EXPECT_EQ(effBucket(105.0), "60-100"); // (100, 110] stays in the top band
}

ImpactEstimate est(std::string Op, double Mid, std::optional<double> Eff,
                   std::string Bound, std::string Lib,
                   std::optional<double> Pct = std::nullopt) {
  ImpactEstimate E;
  E.Operation = std::move(Op);
  E.Mid = Mid;
  E.Low = Mid * 0.5;
  E.High = Mid * 1.5;
  E.EfficiencyPct = Eff;
  E.BoundType = std::move(Bound);
  E.Library = std::move(Lib);
  E.Quantified = Eff.has_value();
  E.PercentOfTotal = Pct;
  return E;
}

TEST(ComputeGrouping, GroupsThresholdPoolingOrder) {
  std::vector<ImpactEstimate> In = {
      // memory / Unknown / 0-30: 0.3 + 0.3 = 0.6 >= 0.5 -> kept
      est("a", 0.3, 10.0, "memory", ""),
      // compute / Tensile / 30-60: 0.4 < 0.5 -> dropped
      est("b", 0.4, 40.0, "compute", "Tensile"),
      est("c", 0.3, 20.0, "memory", ""),
      // heuristic op d, two shapes: 1.0 % and 0.7 % of E2E ->
      // mids 0.3 + 0.21 = 0.51 >= 0.5 -> kept, percent_of_total 1.7
      est("d", 0.3, std::nullopt, "", "", 1.0),
      est("d", 0.21, std::nullopt, "", "", 0.7),
      // heuristic op e: 1.6 % -> 0.48 < 0.5 -> dropped
      est("e", 0.48, std::nullopt, "", "", 1.6),
      // compute / CK / 60-100: 0.6 -> kept, ties with group a (0.6):
      // quantified groups come first, and a was seen first.
      est("f", 0.6, 75.0, "compute", "CK"),
  };
  auto F = groupFindings(In);
  ASSERT_EQ(F.size(), 3u);
  EXPECT_EQ(F[0].BoundType, "memory");
  EXPECT_EQ(F[0].Library, "Unknown");
  EXPECT_EQ(F[0].EffBucket, "0-30");
  EXPECT_EQ(F[0].Mid, 0.6);
  EXPECT_EQ(F[0].Members.size(), 2u);
  EXPECT_EQ(F[0].Rank, 1u);
  EXPECT_EQ(F[1].Library, "CK");
  EXPECT_EQ(F[1].EffBucket, "60-100");
  EXPECT_EQ(F[1].Rank, 2u);
  EXPECT_FALSE(F[2].Quantified);
  EXPECT_EQ(F[2].BoundType, "unmodeled");
  EXPECT_EQ(F[2].Library, "Unknown");
  EXPECT_EQ(F[2].EffBucket, "unknown");
  EXPECT_EQ(F[2].Mid, 0.51);
  EXPECT_EQ(*F[2].PercentOfTotal, 1.7);
  EXPECT_EQ(F[2].Members.size(), 2u);
  EXPECT_EQ(F[2].Rank, 3u);
}

TEST(ComputeGrouping, JsonShape) {
  auto F = groupFindings({est("x", 1.0, 10.0, "memory", "Tensile")});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(pyJsonDumps(toPy(F[0])),
            "{\"bound_type\": \"memory\", \"library\": \"Tensile\", "
            "\"eff_bucket\": \"0-30\", \"estimate_method\": \"quantified\", "
            "\"impact_score\": 1.0, \"impact_score_low\": 0.5, "
            "\"impact_score_high\": 1.5, \"member_count\": 1, \"members\": "
            "[{\"operation\": \"x\", \"category\": \"\", \"type\": "
            "\"kernel_tuning\", \"estimate_method\": \"quantified\", "
            "\"impact_score\": 1.0, \"impact_score_low\": 0.5, "
            "\"impact_score_high\": 1.5, \"efficiency_pct\": 10.0, "
            "\"bound_type\": \"memory\", \"library\": \"Tensile\", "
            "\"time_ms\": 0.0}], \"rank\": 1}");
}

TEST(ComputeLibrary, Rules) {
  EXPECT_EQ(detectLibrary("aiter::fmha_fwd", ""), "AITER");
  EXPECT_EQ(detectLibrary("my_triton_op", "Cijk_Alik"), "Triton"); // name first
  EXPECT_EQ(detectLibrary("aten::mm", "[{'name': 'Cijk_Alik_Bljk_x'}]"),
            "Tensile");
  EXPECT_EQ(detectLibrary("aten::add", "[{'name': 'void at::native::k'}]"),
            "PyTorch Native");
  // Order of the kernel rules: aiter before Cijk_.
  EXPECT_EQ(detectLibrary("aten::mm", "aiter Cijk_"), "AITER");
  EXPECT_EQ(detectLibrary("aten::mm", "cutlass"), "");
}

TEST(ComputeLibrary, FusionMatch) {
  FusionKernelMap M = {{"kernelA_long_name", "RMSNorm"}, {"other", "GELU"}};
  EXPECT_EQ(fusionMatch({"kernelA_long_name"}, M), "RMSNorm");
  EXPECT_EQ(fusionMatch({"kernelA"}, M), "RMSNorm");       // key extends it
  EXPECT_EQ(fusionMatch({"other_kernel_x"}, M), "GELU");   // it extends key
  EXPECT_EQ(fusionMatch({"unrelated"}, M), "");
  EXPECT_EQ(kernelNamesOf("[{'name': 'a', 'stream': 7}, {'name': \"b'c\"}]"),
            (std::vector<std::string>{"a", "b'c"}));
}

} // namespace

namespace {

// pandas 1.5's default CSV float parser keeps 17 significant digits
// counted from the first digit, leading zero included: the reference's
// FLOPS/Byte of aten::add in h100/gaunernst_bert elementwise_metrics.json
// is 0.1666666666666666 for the CSV text 0.16666666666666666.
TEST(ComputePandasFloat, PreciseXstrtod) {
  EXPECT_EQ(*pandasFloat("0.16666666666666666"), 0.1666666666666666);
  EXPECT_EQ(*pandasFloat("98.718017578125"), 98.718017578125);
  EXPECT_EQ(*pandasFloat("-2.5e-3"), -0.0025);
  EXPECT_EQ(*pandasFloat("1e-05"), 1e-05);
  EXPECT_EQ(*pandasFloat("42"), 42.0);
  EXPECT_FALSE(pandasFloat(""));
  EXPECT_FALSE(pandasFloat("nan"));
  EXPECT_FALSE(pandasFloat("matrix_bf16"));
}

} // namespace
