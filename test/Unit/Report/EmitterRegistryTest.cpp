//===- EmitterRegistryTest.cpp - Running emitters on one or more threads --===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Import/Importer.h"
#include "tl/Report/Emitter.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <atomic>

using namespace tl;

namespace {

/// Counts its runs; fails with "broken <name>" when asked to.
class CountingEmitter : public Emitter {
public:
  CountingEmitter(std::string Name, bool Fails, std::atomic<int> &Runs)
      : Name(std::move(Name)), Fails(Fails), Runs(Runs) {}
  llvm::StringRef name() const override { return Name; }
  llvm::Error emit(const ReportContext &) override {
    ++Runs;
    if (Fails)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "broken " + Name);
    return llvm::Error::success();
  }

private:
  std::string Name;
  bool Fails;
  std::atomic<int> &Runs;
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

} // namespace
