//===- EmitterRegistryTest.cpp - Running emitters on one or more threads --===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Import/Importer.h"
#include "tl/Report/Emitter.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <atomic>

using namespace tl;

namespace {

/// Counts its runs; fails with "broken <name>" when asked to; records the
/// output dir of the context it ran with.
class CountingEmitter : public Emitter {
public:
  CountingEmitter(std::string Name, bool Fails, std::atomic<int> &Runs,
                  bool NeedsPassResults = true)
      : Name(std::move(Name)), Fails(Fails), Runs(Runs),
        NeedsPassResults(NeedsPassResults) {}
  llvm::StringRef name() const override { return Name; }
  bool needsPassResults() const override { return NeedsPassResults; }
  llvm::Error emit(const ReportContext &Ctx) override {
    ++Runs;
    RanWith = Ctx.OutputDir;
    if (Fails)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "broken " + Name);
    return llvm::Error::success();
  }
  std::string RanWith;

private:
  std::string Name;
  bool Fails;
  std::atomic<int> &Runs;
  bool NeedsPassResults;
};

std::string runAll(unsigned Threads, std::vector<std::string> &Order,
                   int &Runs) {
  auto T = importTraceFromBuffer("{\"traceEvents\": []}", "t.json");
  EXPECT_TRUE(bool(T));
  AnalysisManager AM(*T);
  ReportContext Ctx{*T, AM, {}, {}, {}, "", "/nonexistent", "", "t.json"};
  std::atomic<int> Count{0};
  EmitterRegistry R;
  // Two of six fail: the joined error keeps registration order (e3, e5)
  // whichever thread finishes first.
  for (int I = 0; I < 6; ++I)
    R.add(std::make_unique<CountingEmitter>("e" + std::to_string(I),
                                            I == 3 || I == 5, Count));
  std::vector<EmitterTiming> Times;
  EmitOptions Opts;
  Opts.Threads = Threads;
  llvm::Error E = R.emitAll(Ctx, &Times, Opts);
  Runs = Count;
  for (const EmitterTiming &Ti : Times)
    Order.push_back(Ti.Name);
  return E ? llvm::toString(std::move(E)) : std::string();
}

TEST(EmitterRegistry, EveryEmitterRunsOnceErrorsInRegistrationOrder) {
  for (unsigned Threads : {1u, 2u, 4u}) {
    std::vector<std::string> Order;
    int Runs = 0;
    std::string Err = runAll(Threads, Order, Runs);
    EXPECT_EQ(Runs, 6) << Threads;
    EXPECT_EQ(Err, "e3: broken e3\ne5: broken e5") << Threads;
    EXPECT_EQ(Order, (std::vector<std::string>{"e0", "e1", "e2", "e3", "e4",
                                               "e5"}))
        << Threads;
  }
}

TEST(EmitterRegistry, EarlyJobsRunOnlyEmittersWithoutPassResults) {
  auto T = importTraceFromBuffer("{\"traceEvents\": []}", "t.json");
  ASSERT_TRUE(bool(T));
  AnalysisManager AM(*T);
  ReportContext Early{*T, AM, {}, {}, {}, "", "early", "", "t.json"};
  ReportContext Late{*T, AM, {}, {}, {}, "", "late", "", "t.json"};
  std::atomic<int> Count{0};
  EmitterRegistry R;
  // e1 and e2 need no pass results; e2 fails, and so does e3 (late).
  std::vector<CountingEmitter *> Es;
  for (int I = 0; I < 4; ++I) {
    auto E = std::make_unique<CountingEmitter>(
        "e" + std::to_string(I), I >= 2, Count, /*NeedsPassResults=*/I == 0 ||
                                                    I == 3);
    Es.push_back(E.get());
    R.add(std::move(E));
  }
  std::vector<std::function<void()>> Jobs = R.earlyJobs(Early);
  ASSERT_EQ(Jobs.size(), 2u);
  for (auto &J : Jobs)
    J();
  EXPECT_EQ(Count, 2);
  std::vector<EmitterTiming> Times;
  EmitOptions Opts;
  Opts.Threads = 2;
  llvm::Error E = R.emitAll(Late, &Times, Opts);
  // Every emitter ran once, the early ones with the early context; errors
  // and timings come in registration order.
  EXPECT_EQ(Count, 4);
  std::vector<std::string> Dirs;
  for (CountingEmitter *C : Es)
    Dirs.push_back(C->RanWith);
  EXPECT_EQ(Dirs, (std::vector<std::string>{"late", "early", "early",
                                            "late"}));
  EXPECT_EQ(llvm::toString(std::move(E)), "e2: broken e2\ne3: broken e3");
  std::vector<std::string> Order;
  for (const EmitterTiming &Ti : Times)
    Order.push_back(Ti.Name);
  EXPECT_EQ(Order, (std::vector<std::string>{"e0", "e1", "e2", "e3"}));
}

} // namespace
