//===- PassResultCodecTest.cpp - A pass's results through bytes -----------===//
#include "tl/Pass/PassIsolation.h"
#include "tl/Pass/PassResultCodec.h"

#include "gtest/gtest.h"

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <limits>

using namespace tl;
using namespace llvm;

namespace {

PassOutput sample() {
  PassOutput O;
  O.Failed = true;
  O.Message = "deliberate";
  Finding F;
  F.T = Tier::Fusion;
  F.Pass = "p";
  F.Category = "cat";
  F.Id = "p.cat.0123456789abcdef";
  F.Key = "k";
  F.Title = "t";
  F.Metrics = {{"d", Value(-0.0), "ms"},
               {"nan", Value(std::numeric_limits<double>::quiet_NaN()), ""},
               {"i", Value(int64_t(-9000000000)), ""},
               {"s", Value(std::string("a\0b", 3)), "u"},
               {"b", Value(true), ""}};
  F.Evidence = {{"ev", {"c1", "c2"}, {{Value(1.5), Value(false)}, {}}}};
  F.Imp = {true, 1, 2, 3, "roofline", Severity::Medium};
  Location L1;
  L1.K = Location::Kind::TimeRange;
  L1.StartUs = 1.25;
  L1.EndUs = 2.5;
  Location L2;
  L2.K = Location::Kind::Event;
  L2.Uid = ~uint64_t(0);
  F.Locations = {L1, L2};
  F.Rec = {"act", "mech", "exp"};
  F.Insight = "ins";
  F.Events = {7, 0xffffffffu};
  F.Notes = {"n1", ""};
  F.Facts.TimeMs = 1.5;
  F.Facts.Score = ImpactScore{2.0, 1.0, std::nullopt};
  F.Facts.KernelCount = -3;
  F.Facts.Confidence = "high";
  F.Facts.OnlyFace = ReportFace::Reference;
  O.Findings = {F, Finding()};
  O.Data.Metrics.push_back(
      {"p", "gemm",
       std::make_shared<const PyValue>(PyValue::dict(
           {{"a", PyValue::list({PyValue::integer(1), PyValue::real(0.5),
                                 PyValue::none()})},
            {"b", PyValue::dict({{"c", PyValue::str("x")},
                                 {"d", PyValue::boolean(true)}})}}))});
  O.Data.Metrics[0].Spelling = JsonSpelling::Tl;
  O.Data.MultiKernelData = std::make_shared<const PyValue>(
      PyValue::dict({{"n", PyValue::integer(-1)}}));
  O.Data.FusionCandidates = std::vector<FusionCandidateEntry>{
      {PyValue::dict({{"module_name", PyValue::str("m")}}), "[[4,8]]"},
      {PyValue::dict({}), ""}};
  O.Artifacts = {{"p", "dir/a.txt", std::string("x\0y\n", 4)}};
  O.StatisticValues = {0, 5, ~uint64_t(0)};
  return O;
}

TEST(PassResultCodec, RoundTripsEveryField) {
  Expected<PassOutput> D = decodePassOutput(encodePassOutput(sample()));
  ASSERT_TRUE(bool(D)) << toString(D.takeError());
  EXPECT_TRUE(D->Failed);
  EXPECT_EQ(D->Message, "deliberate");
  ASSERT_EQ(D->Findings.size(), 2u);
  const Finding &F = D->Findings[0];
  EXPECT_EQ(F.T, Tier::Fusion);
  EXPECT_EQ(F.Pass, "p");
  EXPECT_EQ(F.Category, "cat");
  EXPECT_EQ(F.Id, "p.cat.0123456789abcdef");
  EXPECT_EQ(F.Key, "k");
  EXPECT_EQ(F.Title, "t");
  ASSERT_EQ(F.Metrics.size(), 5u);
  EXPECT_TRUE(std::signbit(std::get<double>(F.Metrics[0].V)));
  EXPECT_EQ(F.Metrics[0].Unit, "ms");
  EXPECT_TRUE(std::isnan(std::get<double>(F.Metrics[1].V)));
  EXPECT_EQ(std::get<int64_t>(F.Metrics[2].V), -9000000000);
  EXPECT_EQ(std::get<std::string>(F.Metrics[3].V), std::string("a\0b", 3));
  EXPECT_EQ(F.Metrics[3].Unit, "u");
  EXPECT_EQ(std::get<bool>(F.Metrics[4].V), true);
  ASSERT_EQ(F.Evidence.size(), 1u);
  EXPECT_EQ(F.Evidence[0].Title, "ev");
  EXPECT_EQ(F.Evidence[0].Columns, (std::vector<std::string>{"c1", "c2"}));
  ASSERT_EQ(F.Evidence[0].Rows.size(), 2u);
  EXPECT_EQ(std::get<double>(F.Evidence[0].Rows[0][0]), 1.5);
  EXPECT_EQ(std::get<bool>(F.Evidence[0].Rows[0][1]), false);
  EXPECT_TRUE(F.Evidence[0].Rows[1].empty());
  EXPECT_TRUE(F.Imp.Quantified);
  EXPECT_EQ(F.Imp.LowPct, 1);
  EXPECT_EQ(F.Imp.MidPct, 2);
  EXPECT_EQ(F.Imp.HighPct, 3);
  EXPECT_EQ(F.Imp.Method, "roofline");
  EXPECT_EQ(F.Imp.Sev, Severity::Medium);
  ASSERT_EQ(F.Locations.size(), 2u);
  EXPECT_EQ(F.Locations[0].K, Location::Kind::TimeRange);
  EXPECT_EQ(F.Locations[0].StartUs, 1.25);
  EXPECT_EQ(F.Locations[0].EndUs, 2.5);
  EXPECT_EQ(F.Locations[1].K, Location::Kind::Event);
  EXPECT_EQ(F.Locations[1].Uid, ~uint64_t(0));
  EXPECT_EQ(F.Rec.Action, "act");
  EXPECT_EQ(F.Rec.Mechanism, "mech");
  EXPECT_EQ(F.Rec.Expected, "exp");
  EXPECT_EQ(F.Insight, "ins");
  EXPECT_EQ(F.Events, (std::vector<uint32_t>{7, 0xffffffffu}));
  EXPECT_EQ(F.Notes, (std::vector<std::string>{"n1", ""}));
  EXPECT_EQ(D->Findings[1].Title, "");
  EXPECT_EQ(F.Facts.TimeMs, 1.5);
  ASSERT_TRUE(F.Facts.Score);
  EXPECT_EQ(F.Facts.Score->Mid, 2.0);
  EXPECT_EQ(F.Facts.Score->Low, 1.0);
  EXPECT_FALSE(F.Facts.Score->High);
  EXPECT_EQ(F.Facts.KernelCount, -3);
  EXPECT_EQ(F.Facts.Confidence, "high");
  EXPECT_EQ(F.Facts.OnlyFace, ReportFace::Reference);
  EXPECT_FALSE(D->Findings[1].Facts.OnlyFace);
  ASSERT_EQ(D->Data.Metrics.size(), 1u);
  EXPECT_EQ(D->Data.Metrics[0].Key, "gemm");
  EXPECT_EQ(pyJsonDumps(*D->Data.Metrics[0].Doc),
            "{\"a\": [1, 0.5, null], \"b\": {\"c\": \"x\", \"d\": true}}");
  EXPECT_EQ(D->Data.Metrics[0].Spelling, JsonSpelling::Tl);
  ASSERT_TRUE(D->Data.MultiKernelData);
  EXPECT_EQ(pyJsonDumps(*D->Data.MultiKernelData), "{\"n\": -1}");
  ASSERT_TRUE(D->Data.FusionCandidates);
  ASSERT_EQ(D->Data.fusionCandidateCount(), 2u);
  EXPECT_EQ(pyJsonDumps((*D->Data.FusionCandidates)[0].Members),
            "{\"module_name\": \"m\"}");
  EXPECT_EQ((*D->Data.FusionCandidates)[0].InputDims, "[[4,8]]");
  EXPECT_EQ((*D->Data.FusionCandidates)[1].InputDims, "");
  ASSERT_EQ(D->Artifacts.size(), 1u);
  EXPECT_EQ(D->Artifacts[0].Pass, "p");
  EXPECT_EQ(D->Artifacts[0].Path, "dir/a.txt");
  EXPECT_EQ(D->Artifacts[0].Content, std::string("x\0y\n", 4));
  EXPECT_EQ(D->StatisticValues,
            (std::vector<uint64_t>{0, 5, ~uint64_t(0)}));
}

TEST(PassResultCodec, EveryTruncationIsAnError) {
  std::string Bytes = encodePassOutput(sample());
  for (size_t N = 0; N < Bytes.size(); ++N) {
    Expected<PassOutput> D = decodePassOutput(StringRef(Bytes).take_front(N));
    EXPECT_FALSE(bool(D)) << "prefix of " << N << " bytes decoded";
    if (!D)
      consumeError(D.takeError());
  }
}

TEST(PassResultCodec, HugeCountIsRefused) {
  PassOutput O;
  std::string Bytes = encodePassOutput(O);
  // Header (11 bytes), failed flag, message length: the findings count
  // follows; make it 2^60.
  size_t CountAt = 11 + 1 + 8;
  Bytes[CountAt + 7] = 0x10;
  Expected<PassOutput> D = decodePassOutput(Bytes);
  ASSERT_FALSE(bool(D));
  EXPECT_NE(toString(D.takeError()).find("exceeds the data left"),
            std::string::npos);
}

TEST(PassIsolation, ChildResultsAndFailures) {
  ChildRunResult Ok = runInChildProcess(
      [] {
        PassOutput O;
        O.Message = "from the child";
        O.StatisticValues = {7};
        return O;
      },
      {});
  EXPECT_FALSE(Ok.Output.Failed);
  EXPECT_EQ(Ok.Output.Message, "from the child");
  EXPECT_EQ(Ok.Output.StatisticValues, std::vector<uint64_t>{7});

  ChildRunResult Abort = runInChildProcess(
      []() -> PassOutput {
        std::abort();
      },
      {});
  EXPECT_TRUE(Abort.Output.Failed);
  EXPECT_EQ(Abort.Output.Message, "killed by signal SIGABRT (Aborted)");

  ChildRunResult Exit = runInChildProcess(
      []() -> PassOutput { std::_Exit(4); }, {});
  EXPECT_EQ(Exit.Output.Message,
            "exited with status 4 before returning its results");
}

TEST(PassIsolation, DescribeSignal) {
  EXPECT_EQ(describeSignal(SIGSEGV), "SIGSEGV (Segmentation fault)");
  EXPECT_EQ(describeSignal(SIGKILL), "SIGKILL (Killed)");
  EXPECT_EQ(describeSignal(1000), "signal 1000");
}

} // namespace
