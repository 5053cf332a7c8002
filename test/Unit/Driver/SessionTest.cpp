//===- SessionTest.cpp - The driver as a library --------------------------===//
//
// A session with no built-in passes and a pass of the test's own, run over
// a three-event trace written by the test: the expectations follow from
// the pass (it emits N findings titled e0..eN-1) and the trace.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/Session.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Pass/PassInstrumentation.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

class EmitN : public PassBase<EmitN> {
public:
  static constexpr llvm::StringLiteral Argument = "test-emit";
  static constexpr llvm::StringLiteral Description = "Emits n findings";
  Option<unsigned> n{*this, "n", desc("count"), init(2u)};
  Option<bool> fail{*this, "fail", desc("fail after emitting"), init(false)};
  Statistic Emitted{*this, "emitted", "Findings emitted"};
  llvm::Error run(const Trace &, AnalysisManager &, FindingSink &S) override {
    for (unsigned I = 0; I < n; ++I) {
      S.system("test", "e" + std::to_string(I));
      ++Emitted;
    }
    if (fail)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "boom");
    return llvm::Error::success();
  }
};

struct Inner {
  static constexpr llvm::StringLiteral Name = "test-inner";
  Inner(const Trace &, AnalysisManager &) {}
};
struct Outer {
  static constexpr llvm::StringLiteral Name = "test-outer";
  Outer(const Trace &, AnalysisManager &AM) { AM.get<Inner>(); }
};

/// Asks for test-outer, which asks for test-inner.
class UsesAnalyses : public PassBase<UsesAnalyses> {
public:
  static constexpr llvm::StringLiteral Argument = "test-analyses";
  static constexpr llvm::StringLiteral Description = "Uses two analyses";
  llvm::Error run(const Trace &, AnalysisManager &AM, FindingSink &) override {
    AM.get<Outer>();
    return llvm::Error::success();
  }
};

/// Every hook as a line, in call order (the test runs on one thread).
struct HookLog : PassInstrumentation {
  std::vector<std::string> &Log;
  explicit HookLog(std::vector<std::string> &Log) : Log(Log) {}
  void runBeforePipeline(llvm::ArrayRef<std::unique_ptr<Pass>> Passes,
                         const Trace &) override {
    Log.push_back("pipeline " + std::to_string(Passes.size()));
  }
  void runAfterPipeline(llvm::ArrayRef<PassResult>, const Trace &) override {
    Log.push_back("end pipeline");
  }
  void runBeforePass(const Pass &P, const Trace &) override {
    Log.push_back("pass " + P.getArgument().str());
  }
  void runAfterPass(const Pass &P, const Trace &,
                    const PassResult &) override {
    Log.push_back("end pass " + P.getArgument().str());
  }
};

/// HookLog plus the analysis hooks, with each analysis's timing checked.
struct AnalysisHookLog : HookLog {
  using HookLog::HookLog;
  void runBeforeAnalysis(llvm::StringRef Name, const Trace &) override {
    Log.push_back("analysis " + Name.str());
  }
  void runAfterAnalysis(const AnalysisTiming &Timing,
                        const Trace &) override {
    Log.push_back("end analysis " + Timing.Name +
                  (Timing.WallSeconds >= 0 && Timing.CpuSeconds >= 0
                       ? ""
                       : " (negative time)"));
  }
};

// One CPU op launching one kernel (the shape of test/Pass/Inputs/small.json).
constexpr llvm::StringLiteral TinyTrace = R"({"schemaVersion": 1,
 "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100.0, "dur": 50.0, "args": {"External id": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 110.0, "dur": 10.0, "args": {"correlation": 42, "External id": 7}},
  {"ph": "X", "cat": "kernel", "name": "sgemm_kernel", "pid": 0, "tid": 7, "ts": 130.0, "dur": 20.0, "args": {"correlation": 42, "External id": 7, "device": 0, "stream": 7}}
 ]})";

class SessionTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tl-session", Dir));
    TracePath = (Dir + "/tiny.json").str();
    std::error_code EC;
    llvm::raw_fd_ostream OS(TracePath, EC);
    ASSERT_FALSE(EC);
    OS << TinyTrace;
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// A session running only test-emit (Pipeline), diagnostics into Diag.
  std::unique_ptr<Session> makeSession(std::string Pipeline,
                                       std::string FailOn = "") {
    SessionOptions O;
    O.NoBuiltinPasses = true;
    O.NoQualityGate = true;
    O.Arch = "none";
    O.Threads = 1;
    O.Quiet = true;
    O.Pipeline = std::move(Pipeline);
    O.FailOn = std::move(FailOn);
    O.OutDir = (Dir + "/out").str();
    auto S = Session::create(std::move(O), Diag);
    EXPECT_TRUE(bool(S)) << llvm::toString(S.takeError());
    if (!S)
      return nullptr;
    (*S)->registry().registerPass<EmitN>();
    return std::move(*S);
  }

  llvm::SmallString<128> Dir;
  std::string TracePath;
  std::string DiagText;
  llvm::raw_string_ostream Diag{DiagText};
};

TEST_F(SessionTest, MissingTraceIsAnErrorNamingTheFile) {
  auto S = makeSession("none");
  ASSERT_TRUE(S);
  std::string Missing = (Dir + "/no-such-trace.json").str();
  auto R = S->run(Missing);
  ASSERT_FALSE(bool(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_EQ(Msg.rfind(Missing, 0), 0u) << Msg;
}

TEST_F(SessionTest, CheckTraceFile) {
  std::string Missing = (Dir + "/none.json").str();
  llvm::Error E = checkTraceFile(Missing);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)), Missing + ": no such file");
  E = checkTraceFile(Dir);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            (Dir + ": is a directory, not a trace file").str());
  EXPECT_FALSE(bool(checkTraceFile(TracePath)));
}

TEST_F(SessionTest, PipelineThroughTheLibrary) {
  auto S = makeSession("test-emit{n=3}");
  ASSERT_TRUE(S);
  ASSERT_FALSE(bool(S->preparePipeline()));
  EXPECT_EQ(S->canonicalPipeline(), "test-emit{n=3,fail=false}");
  auto R = S->run(TracePath, Stage::Passes);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ((*R)->trace().size(), 3u);
  ASSERT_EQ((*R)->passes().size(), 1u);
  EXPECT_EQ((*R)->passes()[0], "test-emit");
  ASSERT_EQ((*R)->findings().size(), 3u);
  EXPECT_EQ((*R)->findings()[0].Title, "e0");
  EXPECT_EQ((*R)->findings()[2].Title, "e2");
  EXPECT_TRUE((*R)->failures().empty());
  // Stage::Passes writes no report.
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/out"));
}

TEST_F(SessionTest, SeveralTracesOneSession) {
  auto S = makeSession("test-emit{n=1}");
  ASSERT_TRUE(S);
  for (int I = 0; I < 2; ++I) {
    auto R = S->run(TracePath, Stage::Passes);
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    EXPECT_EQ((*R)->findings().size(), 1u);
  }
}

TEST_F(SessionTest, FailedPassIsAResultNotAnError) {
  auto S = makeSession("test-emit{n=1,fail=true}");
  ASSERT_TRUE(S);
  auto R = S->run(TracePath, Stage::Passes);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ((*R)->failures().size(), 1u);
  EXPECT_EQ((*R)->failures()[0].Pass, "test-emit");
  EXPECT_EQ((*R)->failures()[0].Message, "boom");
  // The finding emitted before the failure is kept.
  EXPECT_EQ((*R)->findings().size(), 1u);
  EXPECT_EQ(DiagText, "tl-opt: error: pass 'test-emit' failed: boom\n");
}

TEST_F(SessionTest, ReportAndFailOnMatches) {
  auto S = makeSession("test-emit{n=2}", "tier=system");
  ASSERT_TRUE(S);
  auto R = S->run(TracePath);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ((*R)->outputDir(), (Dir + "/out").str());
  auto Json = llvm::MemoryBuffer::getFile(Dir + "/out/findings.json");
  ASSERT_TRUE(bool(Json));
  EXPECT_NE((*Json)->getBuffer().find("\"e1\""), llvm::StringRef::npos);
  // Both findings are system-tier, so both match, P1 and P2.
  ASSERT_EQ((*R)->failOnMatches().size(), 2u);
  EXPECT_EQ((*R)->failOnMatches()[0].Tier, "system");
  EXPECT_EQ((*R)->failOnMatches()[0].Rank, 1u);
  EXPECT_EQ((*R)->failOnMatches()[1].Rank, 2u);
  EXPECT_EQ((*R)->failOnMatches()[0].Clause, "tier=system");
}

TEST_F(SessionTest, InstrumentationSeesThePipelineAndEveryPass) {
  auto S = makeSession("test-analyses");
  ASSERT_TRUE(S);
  S->registry().registerPass<UsesAnalyses>();
  std::vector<std::string> Log;
  S->addInstrumentation(std::make_unique<HookLog>(Log));
  auto R = S->run(TracePath, Stage::Passes);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(Log, (std::vector<std::string>{"pipeline 1", "pass test-analyses",
                                            "end pass test-analyses",
                                            "end pipeline"}));
}

// The analyses a pass asks for are hooked where they are computed: inside
// the pass, nested (test-outer asks for test-inner), each once.
TEST_F(SessionTest, InstrumentationSeesEveryAnalysisNested) {
  auto S = makeSession("test-analyses");
  ASSERT_TRUE(S);
  S->registry().registerPass<UsesAnalyses>();
  std::vector<std::string> Log;
  S->addInstrumentation(std::make_unique<AnalysisHookLog>(Log));
  auto R = S->run(TracePath, Stage::Passes);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  auto Pass = llvm::find(Log, "pass test-analyses");
  ASSERT_NE(Pass, Log.end());
  EXPECT_EQ(std::vector<std::string>(Pass, Pass + 6),
            (std::vector<std::string>{
                "pass test-analyses", "analysis test-outer",
                "analysis test-inner", "end analysis test-inner",
                "end analysis test-outer", "end pass test-analyses"}));
  EXPECT_EQ(llvm::count(Log, "analysis test-inner"), 1);
  // A second get() is a cache hit: no hook.
  (*R)->analyses().get<Outer>();
  EXPECT_EQ(llvm::count(Log, "analysis test-outer"), 1);
}

TEST_F(SessionTest, TimingListsPassesAndAnalysesInCompletionOrder) {
  SessionOptions O;
  O.NoBuiltinPasses = true;
  O.NoQualityGate = true;
  O.Arch = "none";
  O.Threads = 1;
  O.Timing = true;
  O.Pipeline = "test-analyses";
  auto S = Session::create(std::move(O), Diag);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  (*S)->registry().registerPass<UsesAnalyses>();
  auto R = (*S)->run(TracePath, Stage::Passes);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  size_t Pass = DiagText.find("s    test-analyses\n");
  size_t In = DiagText.find("s    (A) test-inner\n");
  size_t Out = DiagText.find("s    (A) test-outer\n");
  ASSERT_NE(Pass, std::string::npos) << DiagText;
  ASSERT_NE(In, std::string::npos) << DiagText;
  ASSERT_NE(Out, std::string::npos) << DiagText;
  EXPECT_LT(Pass, In);
  EXPECT_LT(In, Out);
}

TEST(Session, BadOptionsAreErrors) {
  std::string Text;
  llvm::raw_string_ostream Diag(Text);
  SessionOptions O;
  O.NoBuiltinPasses = true;
  O.TimingFormat = "xml";
  auto S = Session::create(O, Diag);
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            "--timing-format must be 'text' or 'json', got 'xml'");
  O.TimingFormat = "text";
  O.Plugins = {"/nonexistent/libX.so"};
  S = Session::create(O, Diag);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(llvm::toString(S.takeError()).find("/nonexistent/libX.so"),
            std::string::npos);
}

} // namespace
